"""Split a byte stream into lines with a hard per-line size limit.

asyncio's ``StreamReader.readline`` has a 64 KiB default limit and, when a line overruns a larger
limit, leaves the rest of that line in the stream to be read as a bogus next line. Agents send
single lines of many megabytes (a Write tool's ``args`` hold the whole file), so the transport
splits chunks itself: memory stays bounded by the limit, and an oversize line is reported once
and skipped to its end.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_LINE_LIMIT = 16 * 1024 * 1024


@dataclass(frozen=True)
class OversizeLine:
    """Marker for a line that exceeded the limit and was dropped."""

    size: int


class LineSplitter:
    """Feed chunks, get complete lines (without the newline) or ``OversizeLine`` markers."""

    def __init__(self, limit: int = DEFAULT_LINE_LIMIT) -> None:
        self._limit = limit
        self._parts: list[bytes] = []
        self._pending = 0
        self._skipping = 0  # > 0: bytes dropped of the current oversize line

    def feed(self, chunk: bytes) -> list[bytes | OversizeLine]:
        """Add a chunk and return every line it completed.

        The chunk is split at C speed (``bytes.split``): a 256 KB read of small lines holds
        thousands, and a loop per line in Python held the event loop for milliseconds.
        """
        *complete, rest = chunk.split(b"\n")
        if not complete:
            self._keep(rest)
            return []
        first = complete[0]  # ends the line begun by earlier chunks, if any
        out: list[bytes | OversizeLine]
        if self._skipping:
            out = [OversizeLine(self._skipping + len(first))]
            self._skipping = 0
        elif self._pending + len(first) > self._limit:
            out = [OversizeLine(self._pending + len(first))]
            self._reset()
        elif self._parts:
            self._parts.append(first)
            out = [b"".join(self._parts)]
            self._reset()
        else:
            out = [first]
        if len(chunk) <= self._limit:  # no line inside the chunk can be over the limit
            out.extend(complete[1:])
        else:
            out.extend(p if len(p) <= self._limit else OversizeLine(len(p)) for p in complete[1:])
        self._keep(rest)
        return out

    def finish(self) -> list[bytes | OversizeLine]:
        """End of stream: return a final unterminated line, if any."""
        if self._skipping:
            size, self._skipping = self._skipping, 0
            return [OversizeLine(size)]
        if self._parts:
            line = b"".join(self._parts)
            self._reset()
            return [line]
        return []

    def _keep(self, rest: bytes) -> None:
        if not rest:
            return
        if self._skipping:
            self._skipping += len(rest)
        elif self._pending + len(rest) > self._limit:
            self._skipping = self._pending + len(rest)
            self._reset()
        else:
            self._parts.append(rest)
            self._pending += len(rest)

    def _reset(self) -> None:
        self._parts = []
        self._pending = 0
