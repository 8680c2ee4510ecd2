"""Redaction of secrets from anything Agent Desk or its built-in agent writes down.

One helper for every writer: the history database, protocol logs, the built-in agent's session
files and what ``agentdesk exec`` prints. Known secret values (keys a launch used, values of
secret-looking environment variables) and anything shaped like a provider key become
``[REDACTED]``.

``StreamRedaction`` redacts text that is written as it arrives (the history appends a streamed
answer a piece at a time, so that a long answer is not rewritten whole every 0.25 s): what might
be the start of a secret or of a key is held back until the text after it shows where it ends,
so no part of a secret split across two pieces is ever written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL", re.IGNORECASE)
_KEY_PREFIX = b"sk-"  # every shape below starts with it
_KEY_SHAPE = re.compile(rb"\b(sk-[A-Za-z0-9_\-]{8,}|sk-ant-[A-Za-z0-9_\-]{8,})")
REDACTED = b"[REDACTED]"
_TEXT_KEY_SHAPE = re.compile(_KEY_SHAPE.pattern.decode(), re.ASCII)  # \b as for bytes
_REDACTED_TEXT = REDACTED.decode()
#: The characters a key-shaped string is made of (``_KEY_SHAPE``), and any other.
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_NOT_KEY_CHAR = re.compile(r"[^A-Za-z0-9_\-]")
_KEY_RUN = re.compile(r"[A-Za-z0-9_\-]*")


def secret_values(env: Mapping[str, str]) -> list[str]:
    """Values of environment variables whose names look secret (long enough to matter)."""
    return [v for k, v in env.items() if _SECRET_NAME.search(k) and len(v) >= 6]


class Redactor:
    """Replaces known secret values and key-shaped strings in bytes."""

    def __init__(self, secrets: Iterable[str]) -> None:
        values = sorted({s for s in secrets if s}, key=len, reverse=True)
        self._secrets = [value.encode() for value in values]
        self._text_secrets = values

    @property
    def secrets(self) -> tuple[str, ...]:
        """The known secret values, longest first."""
        return tuple(self._text_secrets)

    def __call__(self, data: bytes) -> bytes:
        for secret in self._secrets:
            if secret in data:
                data = data.replace(secret, REDACTED)
        # The search for the key prefix is a memchr-speed scan; the regex is ~20x slower and
        # holds the GIL (a long tool output redacted in the history writer's thread held the
        # window's thread: 25 ms per 2.4 MB).
        return _KEY_SHAPE.sub(REDACTED, data) if _KEY_PREFIX in data else data

    def text(self, text: str) -> str:
        """The same for text, without an encode/decode round trip (the history writer's thread
        holds the GIL meanwhile: 2.4 MB of text without a key take ~5 ms; through the regex it
        was 25 ms)."""
        for secret in self._text_secrets:
            if secret in text:
                text = text.replace(secret, _REDACTED_TEXT)
        return _TEXT_KEY_SHAPE.sub(_REDACTED_TEXT, text) if "sk-" in text else text


class StreamRedaction:
    """Redacts one text that arrives in pieces: the redacted pieces ``add`` and ``end`` return,
    joined, are the whole text redacted by ``redactor``.

    Each piece is cut where no secret and no key-shaped string can span the cut. What is held
    back: an end of the text that may be the start of a secret, and the last run of key
    characters when it may be or become key-shaped (it has an ``sk-``, or ends in ``s`` or
    ``sk``); the cut also moves back before any whole secret that spans it and to the start of a
    run of key characters that has an ``sk-`` before the cut. The cost of ``add`` is that of its
    piece and what was held, not of the whole text.
    """

    def __init__(self, redactor: Redactor) -> None:
        self._redactor = redactor
        self._secrets = redactor.secrets
        self._held = ""
        self._before = ""  # the character written last (a key shape needs a word boundary)

    def add(self, piece: str) -> str:
        """What can be written now of the text so far (redacted); the rest is held."""
        text = self._held + piece
        cut = self._cut(text)
        self._held = text[cut:]
        return self._written(text[:cut])

    def end(self) -> str:
        """The text held back, redacted: the text is complete."""
        held, self._held = self._held, ""
        return self._written(held)

    def _written(self, text: str) -> str:
        if not text:
            return ""
        if self._before in _KEY_CHARS and self._before != "-":
            # After a word character no key shape starts here: redacted as in the whole text.
            written = self._redactor.text(self._before + text)[1:]
        else:
            written = self._redactor.text(text)
        if written:
            self._before = written[-1]
        return written

    def _cut(self, text: str) -> int:
        cut = self._before_partial(text)
        while cut > 0:
            moved = self._before_key(text, self._before_secret(text, cut))
            if moved == cut:
                break
            cut = moved
        return cut

    def _before_partial(self, text: str) -> int:
        """Where the end of ``text`` that may be the start of a secret begins."""
        cut = len(text)
        for secret in self._secrets:
            start = text.find(secret[0], max(len(text) - len(secret) + 1, 0))
            while start != -1 and start < cut:
                if secret.startswith(text[start:]):
                    cut = start
                    break
                start = text.find(secret[0], start + 1)
        return cut

    def _before_secret(self, text: str, cut: int) -> int:
        """``cut``, or the start of the first secret that spans it."""
        for secret in self._secrets:
            start = text.find(secret, max(cut - len(secret) + 1, 0), cut + len(secret) - 1)
            if -1 < start < cut:
                cut = start
        return cut

    @staticmethod
    def _before_key(text: str, cut: int) -> int:
        """``cut``, or the start of the run of key characters it falls inside (or ends, at the
        end of the text) when a key-shaped string may span it: an ``sk-`` before the cut in the
        run (a key runs to the end of its run), or one that may be coming (the text ends in
        ``s`` or ``sk`` and the cut is after the ``s``)."""
        if cut <= 0 or text[cut - 1] not in _KEY_CHARS:
            return cut
        if cut < len(text) and text[cut] not in _KEY_CHARS:
            return cut
        start = text.rfind("sk-", 0, cut + 2)
        if text.endswith(("s", "sk")) and text.rindex("s") < cut:  # an "sk-" may be coming
            start = text.rindex("s")
        if start == -1 or _NOT_KEY_CHAR.search(text, start, cut):
            return cut
        before = _KEY_RUN.match(text[start - 1 :: -1]) if start else None  # read backwards
        return start - (before.end() if before else 0)
