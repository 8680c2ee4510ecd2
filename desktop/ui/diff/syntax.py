"""Lazy Pygments tokenisation of diff lines, chosen by file extension.

Lines are lexed in chunks of consecutive lines of one hunk side, so multi-line strings and
comments keep their colours, and only chunks that contain a visible row are ever lexed: a
5,000-line diff costs one chunk per screenful, not 5,000 lines of lexing up front.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import PurePosixPath

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_for_filename
from pygments.token import _TokenType
from pygments.util import ClassNotFound

from desktop.ui.diff.model import SideText

#: Lines lexed together; large enough for context, small enough to stay far below a frame.
CHUNK_LINES = 64
#: Lines longer than this are left uncoloured (minified files would stall the lexer).
MAX_LEXED_LINE = 2000

Token = tuple[int, int, _TokenType]
"""``(start, length, token_type)`` within one line."""


@lru_cache(maxsize=64)
def _lexer_for_suffix(name: str) -> Lexer | None:
    try:
        return get_lexer_for_filename(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


def lexer_for(path: str) -> Lexer | None:
    """The Pygments lexer for a file path, or None when its type is unknown.

    Args:
        path: The file path as it appears in the diff header.

    Returns:
        A lexer configured to keep the text unchanged (no stripping, no added newline).
    """
    name = PurePosixPath(path.strip('"')).name
    suffix = PurePosixPath(name).suffix
    # Cache by suffix where there is one, so "a.py" and "b.py" share a lexer lookup.
    return _lexer_for_suffix(f"x{suffix}" if suffix else name)


class SyntaxCache:
    """Token lists per line, lexed lazily chunk by chunk and kept until the diff changes."""

    def __init__(self) -> None:
        self._chunks: dict[tuple[SideText, int], list[list[Token]]] = {}

    def clear(self) -> None:
        """Forget all tokens (a new diff was loaded)."""
        self._chunks.clear()

    def tokens(self, side: SideText, index: int) -> list[Token]:
        """The tokens of line ``index`` of ``side``; empty if the file type is unknown.

        Args:
            side: The hunk side the line belongs to.
            index: The line's index within ``side.lines``.

        Returns:
            Tokens as ``(start, length, type)`` within the line.
        """
        chunk = index // CHUNK_LINES
        key = (side, chunk)
        lines = self._chunks.get(key)
        if lines is None:
            lines = self._lex(side, chunk)
            self._chunks[key] = lines
        return lines[index - chunk * CHUNK_LINES]

    @staticmethod
    def _lex(side: SideText, chunk: int) -> list[list[Token]]:
        source = side.lines[chunk * CHUNK_LINES : (chunk + 1) * CHUNK_LINES]
        result: list[list[Token]] = [[] for _ in source]
        lexer = lexer_for(side.path)
        if lexer is None:
            return result
        # Over-long lines are blanked for the lexer but keep their place, so rows still line up.
        text = "\n".join("" if len(line) > MAX_LEXED_LINE else line for line in source)
        row, col = 0, 0
        for ttype, value in lexer.get_tokens(text):
            parts = value.split("\n")
            for n, part in enumerate(parts):
                if n:
                    row, col = row + 1, 0
                if part and row < len(result):
                    result[row].append((col, len(part), ttype))
                col += len(part)
        return result
