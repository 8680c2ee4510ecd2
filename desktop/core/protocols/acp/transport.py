"""The ``acp`` package's message transport over Agent Desk's ``AgentProcess``.

``acp.ClientSideConnection`` accepts any object with ``send``/``receive``/``close``; this one
reuses the process layer (own process group, bounded line reader, stderr tail, tree kill)
instead of the package's own spawner, which has none of those.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

from pydantic_core import from_json

from desktop.core.lines import OversizeLine
from desktop.core.process import AgentProcess

log = logging.getLogger(__name__)


class ProcessTransport:
    """JSON-RPC messages as lines on the child's stdin/stdout."""

    def __init__(
        self, process: AgentProcess, on_bad_line: Callable[[str], None] | None = None
    ) -> None:
        self._process = process
        self._on_bad_line = on_bad_line or (lambda _m: None)
        self._batches: AsyncIterator[list[bytes | OversizeLine]] | None = None
        self._queue: deque[bytes | OversizeLine] = deque()

    async def send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        if not await self._process.write(data):
            raise ConnectionError("the agent's input is closed")

    async def receive(self) -> dict[str, Any] | None:
        if self._batches is None:
            self._batches = self._process.lines()
        while True:
            while not self._queue:
                try:
                    self._queue.extend(await anext(self._batches))
                except StopAsyncIteration:
                    return None
            line = self._queue.popleft()
            if isinstance(line, OversizeLine):
                self._on_bad_line(f"a line of {line.size:,} bytes over the limit was skipped")
                continue
            if not line.strip():
                continue
            try:
                message = from_json(line)
            except ValueError:
                self._on_bad_line(f"not JSON: {line[:160].decode('utf-8', 'replace')!r}")
                continue
            if isinstance(message, dict):
                return message
            self._on_bad_line("a JSON value that is not an object was skipped")

    async def close(self) -> None:
        self._process.close_stdin()
