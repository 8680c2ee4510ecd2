"""An in-process agent for session-engine tests: no subprocess, no wire, milliseconds a test.

``ScriptedBackend`` implements ``AgentBackend`` by playing a script of session events: each
prompt plays the next turn of ``turns`` and ends it as completed (a prompt past the script's
end starts a turn that only the test, or a stop, ends); a test may also emit any event itself.
It records what the session tells it (turns, prompts, decisions). State-machine tests (queueing,
start, approvals, modes) use it; what crosses a real wire is tested against the fake agent
subprocesses (``tests/fakes``) in the conformance tests.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from desktop.core.backend import AgentBackend, EmitFn, Prompt
from desktop.core.events import (
    AgentReady,
    Decision,
    SessionEvent,
    TextDelta,
    TurnEnded,
    TurnEndReason,
)

#: One step of a scripted turn: the event to emit, given the turn's id.
Step = Callable[[str], SessionEvent]


def say(text: str) -> Step:
    """A step that streams ``text``."""
    return lambda turn_id: TextDelta(turn_id=turn_id, text=text)


class ScriptedBackend(AgentBackend):
    """An agent whose every event comes from a script or from the test; it records what it is
    told. ``ready``, when given, holds the start until it is set."""

    def __init__(
        self, turns: Sequence[Sequence[Step]] = (), *, ready: asyncio.Event | None = None
    ) -> None:
        self.script = [list(turn) for turn in turns]
        self.ready = ready
        self.emit: EmitFn | None = None
        self.turns: list[str] = []
        self.prompts: list[Prompt] = []
        self.sent: list[tuple[str, Decision]] = []
        self.turn_sent = asyncio.Event()

    async def start(self, emit: EmitFn) -> AgentReady:
        if self.ready is not None:
            await self.ready.wait()
        self.emit = emit
        return AgentReady(agent="scripted", protocol="aionrs")

    async def send_prompt(self, turn_id: str, prompt: Prompt) -> None:
        self.turns.append(turn_id)
        self.prompts.append(prompt)
        self.turn_sent.set()
        if not self.script:
            return
        steps = self.script.pop(0)
        assert self.emit is not None
        for step in steps:
            self.emit(step(turn_id))
        self.emit(TurnEnded(turn_id=turn_id, reason=TurnEndReason.COMPLETED))

    async def send_decision(self, call_id: str, decision: Decision, reason: str | None) -> None:
        self.sent.append((call_id, decision))

    async def interrupt(self) -> None:
        if self.emit is not None and self.turns:
            self.emit(TurnEnded(turn_id=self.turns[-1], reason=TurnEndReason.STOPPED))

    async def shutdown(self, timeout: float) -> None:
        pass
