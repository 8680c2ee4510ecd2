"""Shared pieces of the issue-18 real-agent tests (``test_context_real``, ``test_usage_real``):
a session around a real agent that approves every request and keeps every event and every raw
signal, a small real PNG, and readers of what reached the fake LLM."""

from __future__ import annotations

import asyncio
import struct
import zlib
from dataclasses import dataclass, field
from typing import Any

from desktop.core.backend import Prompt
from desktop.core.events import (
    Decision,
    ErrorEvent,
    SessionEvent,
    ToolRequested,
    TurnEnded,
)
from desktop.core.launch.factory import make_backend_factory
from desktop.core.session import Session
from desktop.core.signals import RawSignal
from tests.agents_real.conftest import RealAgent
from tests.waiting import until


@dataclass
class Run:
    """One session of a real agent: its events and the raw signals its agent sent."""

    session: Session
    events: list[SessionEvent] = field(default_factory=list)
    signals: list[RawSignal] = field(default_factory=list)

    def of(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def errors(self) -> list[ErrorEvent]:
        return self.of(ErrorEvent)

    def methods(self) -> list[str]:
        return [s.method for s in self.signals]

    async def turn(self, prompt: Prompt, timeout: float = 90) -> TurnEnded:
        """Submit ``prompt`` and wait until its turn ended; return its ``TurnEnded``."""
        done = len(self.of(TurnEnded))
        self.session.submit(prompt)
        await asyncio.wait_for(self.session.wait_idle(), timeout)
        await until(lambda: len(self.of(TurnEnded)) > done, 15, "the turn's end")
        ended: TurnEnded = self.of(TurnEnded)[done]
        return ended


async def open_run(agent: RealAgent) -> Run:
    """Start a session of ``agent`` that approves every request once."""
    session = Session(
        make_backend_factory(agent.choice, agent.workspace), workspace=agent.workspace
    )
    run = Run(session)

    def on(event: SessionEvent) -> None:
        run.events.append(event)
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, Decision.ONCE)

    session.subscribe(on)
    session.subscribe_signals(run.signals.append)
    await session.start()
    return run


def png_bytes(width: int = 4, height: int = 3) -> bytes:
    """A real (tiny, red) PNG image."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + b"\xff\x00\x00" * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )
