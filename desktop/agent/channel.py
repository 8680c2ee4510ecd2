"""The protocol's transport: JSON Lines commands from stdin, JSON Lines events to stdout.

stdout belongs to the protocol alone: ``Channel`` takes the real stdout file and points
``sys.stdout`` at stderr, so a stray ``print`` in a library cannot corrupt the stream. stdin is
read by a thread (it works for pipes, files and consoles on every platform) and handed to the
event loop line by line.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from typing import Any, BinaryIO

from pydantic import BaseModel

from desktop.core.protocols.aionrs import wire

MAX_LINE = 16 * 1024 * 1024
"""Largest command line accepted (a message with a pasted file is still far below)."""


class OversizeCommand:
    """Stands in for a line that was too long; it was skipped."""

    def __init__(self, size: int) -> None:
        self.size = size


class Channel:
    """Writes events and delivers command lines."""

    def __init__(self, out: BinaryIO | None = None, inp: BinaryIO | None = None) -> None:
        self._out = out or sys.stdout.buffer
        self._in = inp or sys.stdin.buffer
        self._lock = threading.Lock()
        if out is None:
            sys.stdout = sys.stderr

    def send(self, event: BaseModel | dict[str, Any]) -> None:
        """Write one event line and flush it."""
        if isinstance(event, BaseModel):
            data = event.model_dump(mode="json", exclude_none=True)
            if isinstance(event, wire.Error):
                data["msg_id"] = event.msg_id  # the spec shows ``"msg_id": null``
        else:
            data = event
        line = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        with self._lock:
            try:
                self._out.write(line)
                self._out.flush()
            except (BrokenPipeError, ValueError, OSError):
                pass  # the host is gone; the stdin EOF that follows ends the agent

    def start_reading(self) -> asyncio.Queue[bytes | OversizeCommand | None]:
        """Start the reader thread; the queue yields lines, then ``None`` at end of input."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[bytes | OversizeCommand | None] = asyncio.Queue()

        def put(item: bytes | OversizeCommand | None) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, item)

        def read() -> None:
            try:
                while line := self._in.readline(MAX_LINE + 1):
                    if len(line) > MAX_LINE and not line.endswith(b"\n"):
                        size = len(line)
                        while (more := self._in.readline(MAX_LINE)) and not more.endswith(b"\n"):
                            size += len(more)
                        put(OversizeCommand(size + len(more)))
                        continue
                    put(line)
            except (OSError, ValueError):
                pass
            except RuntimeError:  # the loop closed first
                return
            try:
                put(None)
            except RuntimeError:
                return

        threading.Thread(target=read, name="agent-stdin", daemon=True).start()
        return queue


def error_event(
    code: str, message: str, *, msg_id: str | None = None, retryable: bool = False
) -> wire.Error:
    """An ``error`` event."""
    return wire.Error(
        type="error",
        msg_id=msg_id,
        error=wire.ErrorBody(code=code, message=message, retryable=retryable),
    )
