"""Redaction of secrets from anything Agent Desk or its built-in agent writes down.

One helper for every writer: the history database, protocol logs, the built-in agent's session
files and what ``agentdesk exec`` prints. Known secret values (keys a launch used, values of
secret-looking environment variables) and anything shaped like a provider key become
``[REDACTED]``.
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


def secret_values(env: Mapping[str, str]) -> list[str]:
    """Values of environment variables whose names look secret (long enough to matter)."""
    return [v for k, v in env.items() if _SECRET_NAME.search(k) and len(v) >= 6]


class Redactor:
    """Replaces known secret values and key-shaped strings in bytes."""

    def __init__(self, secrets: Iterable[str]) -> None:
        values = sorted({s for s in secrets if s}, key=len, reverse=True)
        self._secrets = [value.encode() for value in values]
        self._text_secrets = values

    def __call__(self, data: bytes) -> bytes:
        for secret in self._secrets:
            if secret in data:
                data = data.replace(secret, REDACTED)
        # The search for the key prefix is a memchr-speed scan; the regex is ~20x slower and
        # holds the GIL (the history writer redacts a long streamed answer at every flush, and
        # the window's thread waited for it: 25 ms per 2.4 MB).
        return _KEY_SHAPE.sub(REDACTED, data) if _KEY_PREFIX in data else data

    def text(self, text: str) -> str:
        """The same for text, without an encode/decode round trip (the history redacts whole
        streamed answers, in a thread that holds the GIL meanwhile: 2.4 MB of text without a
        key take ~5 ms; through the regex it was 25 ms)."""
        for secret in self._text_secrets:
            if secret in text:
                text = text.replace(secret, _REDACTED_TEXT)
        return _TEXT_KEY_SHAPE.sub(_REDACTED_TEXT, text) if "sk-" in text else text
