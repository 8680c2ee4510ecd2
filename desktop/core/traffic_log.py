"""Optional per-session log of raw protocol traffic, with secrets redacted.

Turned on with ``AGENTDESK_PROTOCOL_LOG=1`` (or by the caller). Every value of a secret-looking
environment variable given to the agent, and anything shaped like a provider key, is replaced by
``[REDACTED]`` before a line reaches the disk.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import IO

from desktop.core.redaction import REDACTED, Redactor, secret_values

__all__ = ["REDACTED", "Redactor", "TrafficLog", "secret_values"]


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
