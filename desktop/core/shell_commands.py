"""Every simple command a shell line would run, for checks such as the shell deny list.

A model can hide a command anywhere in a line (``echo ok; sudo rm -rf /``, ``$(…)``, backticks,
``( … )``, ``bash -c '…'``, ``env X=1 …``, ``xargs …``), so a check that looks only at the start of
the line is trivially passed. ``simple_commands`` parses the line with a real shell parser
(bashlex) and returns each simple command as its words joined by single spaces, quotes removed,
including the commands nested in substitutions, wrappers (``sudo``, ``env``, ``timeout``,
``xargs``, ``find -exec`` …) and shells given a script (``sh -c``, ``eval``, a pipe or here-doc
into a shell). When bashlex cannot parse the line, ``shlex`` with operator splitting is used; when
nothing can tokenise it, the line is split at every operator character whatever the quoting.
Each fallback finds at least the commands a precise parse would: the answer errs on the side of
more candidates, never fewer.
"""

from __future__ import annotations

import importlib
import logging
import re
import shlex
from collections.abc import Iterator
from typing import Any

log = logging.getLogger(__name__)

#: Programs that run their arguments (after options) as a command.
WRAPPERS = frozenset(
    {
        "sudo", "doas", "run0", "pkexec", "env", "nohup", "nice", "ionice", "timeout", "time",
        "stdbuf", "setsid", "command", "builtin", "exec", "xargs", "chroot", "flock", "watch",
        "unbuffer", "strace", "ltrace", "chrt", "taskset", "numactl", "firejail", "systemd-run",
        "busybox", "parallel", "caffeinate", "nsenter", "unshare", "proxychains", "torsocks",
    }
)  # fmt: skip
#: Programs that run a script given with ``-c`` (or read one from stdin).
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash", "csh", "tcsh", "su"})
#: ``find`` actions that run a command up to ``;`` or ``+``.
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_OPERATORS = re.compile(r"\$\(|<\(|>\(|[;&|()`\n]")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_MAX_DEPTH = 12
_MAX_PARSED = 20_000
_MAX_STEPS = 20_000
_SUFFIXES = 16


def simple_commands(line: str) -> list[str]:
    """Every simple command ``line`` runs, each as its words joined by single spaces.

    The result has no duplicates and keeps the order found; nested commands follow the command
    that contains them. A line too complex to analyse within the budget is split at every
    operator character instead (more candidates, never fewer).
    """
    found: dict[str, None] = {}
    try:
        for words in _Walker().script(line, 0):
            found.setdefault(" ".join(words), None)
    except _TooComplex:
        log.debug("the command is too complex to analyse; splitting at every operator")
        for words in _operator_split(line):
            found.setdefault(" ".join(words), None)
    found.pop("", None)
    return list(found)


class _TooComplex(Exception):
    """The analysis of one line exceeded its budget."""


def _operator_split(text: str) -> Iterator[list[str]]:
    """The last resort: split at every operator character whatever the quoting (linear)."""
    for piece in _OPERATORS.split(text):
        words = piece.replace("'", " ").replace('"', " ").replace("\\", "").split()
        for index, word in enumerate(words[:_SUFFIXES]):
            if index == 0 or not word.startswith("-"):  # behind a wrapper or an assignment
                yield words[index:]


def _name(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _drop_assignments(words: list[str]) -> list[str]:
    index = 0
    while index < len(words) and _ASSIGNMENT.match(words[index]):
        index += 1
    return words[index:]


def _is_stdin_shell(words: list[str]) -> bool:
    """A shell reading its script from stdin (no ``-c``, no script file)."""
    words = _drop_assignments(words)
    if not words or _name(words[0]) not in SHELLS:
        return False
    return all(w.startswith("-") and "c" not in w.lstrip("-") for w in words[1:])


def _words(node: Any) -> list[str]:
    return [p.word for p in node.parts if p.kind in ("word", "assignment")]


def _bashlex() -> Any:
    """bashlex, imported at the first command parsed: its import builds the parser's tables
    (~0.2 s of the GUI thread), which a window or ``exec`` that never screens a command should
    not pay at start."""
    return importlib.import_module("bashlex")


def _children(node: Any) -> Iterator[Any]:
    node_type = _bashlex().ast.node
    for name in ("parts", "list", "command", "output", "heredoc"):
        value = getattr(node, name, None)
        if isinstance(value, list):
            yield from (v for v in value if isinstance(v, node_type))
        elif isinstance(value, node_type):
            yield value


def _bashlex_parse(text: str) -> list[Any] | None:
    if len(text) > _MAX_PARSED:
        return None
    try:
        return list(_bashlex().parse(text))
    except Exception as exc:  # noqa: BLE001 - a third-party parser: any failure means "fall back"
        log.debug("bashlex cannot parse the command (%s: %s)", type(exc).__name__, exc)
        return None


def _shlex_tokens(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()<>\n")
    lexer.whitespace = " \t\r"
    lexer.whitespace_split = True
    lexer.commenters = ""
    return list(lexer)


def _substitutions(text: str) -> Iterator[str]:
    """The bodies of ``$(…)``, ``<(…)``, ``>(…)`` (balanced) and backticks, quotes ignored."""
    for match in re.finditer(r"[$<>]\(", text):
        level, start = 0, match.end() - 1
        for index in range(start, len(text)):
            if text[index] == "(":
                level += 1
            elif text[index] == ")":
                level -= 1
                if level == 0:
                    yield text[start + 1 : index]
                    break
        else:
            yield text[start + 1 :]
    yield from text.split("`")[1::2]


class _Walker:
    """One analysis: a step budget, and each script and command expanded once."""

    def __init__(self) -> None:
        self.steps = 0
        self.seen: set[tuple[str, ...]] = set()
        self.scripts: set[str] = set()

    def _step(self) -> None:
        self.steps += 1
        if self.steps > _MAX_STEPS:
            raise _TooComplex

    def script(self, text: str, depth: int, *, precise: bool = True) -> Iterator[list[str]]:
        """The commands of a whole script, by the most precise parser that accepts it
        (``precise=False``: a part of a script bashlex already refused)."""
        self._step()
        if depth > _MAX_DEPTH:
            raise _TooComplex
        if not text.strip() or text in self.scripts:
            return
        self.scripts.add(text)
        parts = _bashlex_parse(text) if precise else None
        if parts is None:
            yield from self.fallback(text, depth)
            return
        for part in parts:
            yield from self.walk(part, depth)

    def walk(self, node: Any, depth: int) -> Iterator[list[str]]:
        """Commands of a bashlex node: a command's words, then whatever is nested in it."""
        self._step()
        kind = getattr(node, "kind", "")
        if kind == "command":
            words = _words(node)
            yield from self.expand(words, depth)
            if _is_stdin_shell(words):  # bash <<EOF … EOF
                for part in node.parts:
                    heredoc = getattr(part, "heredoc", None)
                    if heredoc is not None:
                        yield from self.script(heredoc.value, depth + 1)
        elif kind == "pipeline":
            fed = [_words(p) for p in node.parts if getattr(p, "kind", "") == "command"]
            if any(_is_stdin_shell(words) for words in fed[1:]):
                # ``echo 'sudo x' | sh``: what earlier commands print may be a script.
                for words in fed[:-1]:
                    for word in words[1:]:
                        yield from self.script(word, depth + 1)
        for child in _children(node):
            yield from self.walk(child, depth)

    def expand(self, words: list[str], depth: int) -> Iterator[list[str]]:
        """``words`` as written, then every command they make another program run."""
        self._step()
        if depth > _MAX_DEPTH:
            raise _TooComplex
        key = tuple(words)
        if not words or key in self.seen:
            return
        self.seen.add(key)
        yield words
        bare = _drop_assignments(words)
        name = _name(bare[0]) if bare else ""
        if len(bare) != len(words):
            yield from self.expand(bare, depth + 1)
        elif name != words[0]:
            yield from self.expand([name, *words[1:]], depth + 1)
        elif name in WRAPPERS:
            # Options differ from wrapper to wrapper: every suffix that starts with a non-option
            # word is a candidate command (more candidates than the wrapper runs, never fewer).
            for index, word in enumerate(words[1:], 1):
                if not word.startswith("-"):
                    yield from self.expand(words[index:], depth + 1)
                    if any(ch.isspace() for ch in word):  # env -S 'sudo x', watch 'sudo x'
                        yield from self.script(word, depth + 1)
        elif name in SHELLS:
            yield from self.shell_script(words[1:], depth)
        elif name == "eval":
            yield from self.script(" ".join(words[1:]), depth + 1)
        elif name == "find":
            yield from self.find_exec(words[1:], depth)

    def shell_script(self, args: list[str], depth: int) -> Iterator[list[str]]:
        """The script of ``sh -c SCRIPT`` (also ``-lc``, ``-ec``, ``--command``)."""
        for index, word in enumerate(args[:-1]):
            short = word.startswith("-") and not word.startswith("--") and "c" in word
            if short or word == "--command":
                yield from self.script(args[index + 1], depth + 1)
                return

    def find_exec(self, args: list[str], depth: int) -> Iterator[list[str]]:
        """The commands of ``find … -exec CMD {} ;``."""
        for index, word in enumerate(args):
            if word in _FIND_EXEC:
                tail = args[index + 1 :]
                end = next((i for i, w in enumerate(tail) if w in (";", "+")), len(tail))
                yield from self.expand(tail[:end], depth + 1)

    def fallback(self, text: str, depth: int) -> Iterator[list[str]]:
        """shlex with operator splitting; when even that fails, split at every operator."""
        for inner in _substitutions(text):
            yield from self.script(inner, depth + 1, precise=False)
        try:
            if len(text) > _MAX_PARSED:  # shlex is quadratic in the length of a word
                raise ValueError("too long to tokenise")
            tokens = _shlex_tokens(text)
        except ValueError:
            log.debug("the command cannot be tokenised; splitting at every operator")
            for piece in _operator_split(text):
                yield from self.expand(piece, depth + 1)
            return
        words: list[str] = []
        redirect = False
        for token in tokens:
            self._step()
            if redirect:  # the word after a redirection is a file, not a command
                redirect = False
            elif token and all(ch in ";&|()<>\n" for ch in token):
                if "<" in token or ">" in token:
                    redirect = True
                else:
                    yield from self.expand(words, depth + 1)
                    words = []
            else:
                words.append(token)
        yield from self.expand(words, depth + 1)
