"""Pygments lexers for the code in replies, by language name, built once and off the GUI thread.

Building a lexer compiles its token rules: 5-90 ms of pure Python (Scala's 270 ms). On the GUI
thread that is a dropped frame; on the rendering worker (``worker``) the GUI thread still waits
for the interpreter lock at each of its calls into Python while it runs. So a rendering job
builds the lexers its block needs first (``build_missing``), the open block is drawn plain
until its lexers are built (``prepare_languages``), and the languages replies use most are
built while the user writes the prompt (``warm_when_typing``).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from desktop.ui.conversation import worker

if TYPE_CHECKING:
    from PySide6.QtWidgets import QPlainTextEdit

#: Languages coding agents write most, most used first: their lexers are built on the worker
#: thread while the user writes a prompt (``warm_when_typing``), not at a reply's first block.
COMMON_LANGUAGES = ("python", "bash", "sh", "shell", "console", "json", "typescript", "ts",
                    "javascript", "js", "tsx", "jsx", "rust", "go", "diff", "yaml", "toml",
                    "text", "html", "css", "c", "cpp", "java", "sql")  # fmt: skip
#: Lexers built so far, by language name (None: no lexer has that name).
_LEXERS: dict[str, Lexer | None] = {}
_WARMING: set[str] = set()
_LEXER_LOCK = threading.Lock()


def _build_lexer(lang: str) -> Lexer | None:
    try:
        lexer: Lexer | None = get_lexer_by_name(lang)
    except ClassNotFound:
        lexer = None
    with _LEXER_LOCK:
        _LEXERS[lang] = lexer
        _WARMING.discard(lang)
    return lexer


def _warm(langs: list[str]) -> None:
    for lang in langs:
        _build_lexer(lang)


def build_missing(langs: Sequence[str]) -> None:
    """Build the lexers of ``langs`` not built yet, here (on the worker thread: a job renders
    its block with every lexer it needs)."""
    missing = [lang for lang in dict.fromkeys(langs) if lang not in _LEXERS]
    if missing:
        _warm(missing)


def lexer_for(lang: str, *, wait: bool = True) -> Lexer | None:
    """The lexer of ``lang`` (None: unknown). ``wait=False``: None while it is being built."""
    if lang in _LEXERS:
        return _LEXERS[lang]
    if not wait:
        prepare_languages([lang])
        return None
    return _build_lexer(lang)


def prepare_languages(langs: list[str]) -> bool:
    """Whether the lexers of ``langs`` are built; those missing start building on a thread."""
    with _LEXER_LOCK:
        missing = [lang for lang in dict.fromkeys(langs) if lang not in _LEXERS]
        new = [lang for lang in missing if lang not in _WARMING]
        _WARMING.update(new)
    if new:
        worker.submit(lambda: _warm(new))  # the GUI thread never waits for a thread to start
    return not missing


def warm_languages() -> None:
    """Build the lexers of ``COMMON_LANGUAGES`` on the worker thread. Building one takes 5-90
    ms of pure Python, and the GUI thread waits for the interpreter lock at each of its calls
    into Python meanwhile: a reply's first code blocks in new languages stalled the window 20-33
    ms (``benchmarks/gui_stream.py``), where with these built it stays at 11-16 ms."""
    prepare_languages(list(COMMON_LANGUAGES))


def warm_when_typing(editor: QPlainTextEdit) -> None:
    """``warm_languages`` once the user starts writing a prompt in ``editor``: the reply comes
    a model's first-token latency later, and the start-up does not pay for it (built right
    after the first paint, the lexers delayed the first conversation's paint by 150-200 ms)."""

    def started() -> None:
        editor.textChanged.disconnect(started)
        warm_languages()

    editor.textChanged.connect(started)
