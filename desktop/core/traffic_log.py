"""Optional per-session log of raw protocol traffic, with secrets redacted.

Turned on with ``AGENTDESK_PROTOCOL_LOG=1`` (or by the caller). Every value of a secret-looking
environment variable given to the agent, and anything shaped like a provider key, is replaced by
``[REDACTED]`` before a line reaches the disk.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO

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


class TrafficLog:
    """Appends ``<time> <direction> <line>`` records to a file."""

    def __init__(self, path: Path, redactor: Redactor) -> None:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.path = path
        self._redact = redactor
        self._file: IO[bytes] | None = path.open("ab", buffering=64 * 1024)

    def record(self, direction: str, line: bytes) -> None:
        """Log one line; ``direction`` is ``>`` (to the agent) or ``<`` (from it)."""
        if self._file is None:
            return
        stamp = f"{time.time():.3f} {direction} ".encode()
        self._file.write(stamp + self._redact(line.rstrip(b"\n")) + b"\n")

    def close(self) -> None:
        """Flush and close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None
