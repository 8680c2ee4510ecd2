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
_KEY_SHAPE = re.compile(rb"\b(sk-[A-Za-z0-9_\-]{8,}|sk-ant-[A-Za-z0-9_\-]{8,})")
REDACTED = b"[REDACTED]"


def secret_values(env: Mapping[str, str]) -> list[str]:
    """Values of environment variables whose names look secret (long enough to matter)."""
    return [v for k, v in env.items() if _SECRET_NAME.search(k) and len(v) >= 6]


class Redactor:
    """Replaces known secret values and key-shaped strings in bytes."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self._secrets = sorted({s.encode() for s in secrets if s}, key=len, reverse=True)

    def __call__(self, data: bytes) -> bytes:
        for secret in self._secrets:
            if secret in data:
                data = data.replace(secret, REDACTED)
        return _KEY_SHAPE.sub(REDACTED, data)


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
