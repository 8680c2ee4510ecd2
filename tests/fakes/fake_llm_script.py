"""The script and request records of ``tests.fakes.fake_llm.FakeLLM``, and the dialect interface.

Shared by the server (``fake_llm``) and its wire formats (``fake_llm_sse``, ``fake_llm_dialects``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

EXHAUSTED_TEXT = "(fake: script exhausted)"


@dataclass
class ToolCallSpec:
    """One scripted tool call."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    call_id: str | None = None


@dataclass
class Turn:
    """One scripted model reply (or failure)."""

    text: str | list[str] = ""
    thinking: str = ""
    tool_calls: list[ToolCallSpec] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)
    status: int = 200
    error_message: str = "scripted failure"
    retry_after: float | None = None
    cut_after: int | None = None
    hang_after: int | None = None
    frame_delay: float = 0.0

    @classmethod
    def of(cls, value: Turn | dict[str, Any]) -> Turn:
        """Accept a ``Turn`` or a plain dict with the same keys."""
        if isinstance(value, Turn):
            return value
        data = dict(value)
        calls = [
            c if isinstance(c, ToolCallSpec) else ToolCallSpec(**c)
            for c in data.pop("tool_calls", [])
        ]
        return cls(tool_calls=calls, **data)

    def chunks(self) -> list[str]:
        """The text deltas."""
        if isinstance(self.text, list):
            return [t for t in self.text if t]
        return [self.text] if self.text else []

    def call_ids(self, prefix: str, index: int) -> list[str]:
        """Tool call ids, generated where the script gave none."""
        return [c.call_id or f"{prefix}{index}_{n}" for n, c in enumerate(self.tool_calls)]


@dataclass
class Recorded:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    dialect: str | None = None
    disconnected: bool = False


class Dialect(Protocol):
    """A streaming wire format."""

    name: str

    def frames(self, turn: Turn, request: dict[str, Any], index: int) -> list[bytes]:
        """The SSE frames of a successful streamed reply."""
        ...

    def error_body(self, turn: Turn) -> dict[str, Any]:
        """The JSON body of an HTTP error reply."""
        ...


def sse(data: Any, event: str | None = None) -> bytes:
    """One server-sent event frame."""
    head = f"event: {event}\n" if event else ""
    payload = data if isinstance(data, str) else json.dumps(data)
    return f"{head}data: {payload}\n\n".encode()
