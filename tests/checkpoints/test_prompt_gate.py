"""The session's prompt gates (what lets the checkpoint recorder take the state before a turn):
the prompt waits for them, events do not, a stop while they hold it ends the turn without the
agent ever seeing the prompt, and a gate that fails or hangs never keeps the prompt back for
good."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import TextDelta, TurnEnded, TurnEndReason, TurnStarted
from tests.core.support import make_session


@pytest.mark.asyncio
async def test_a_stop_while_the_gate_holds_the_prompt_never_sends_it(workspace: Path) -> None:
    turns = [[{"text": "first scripted answer"}]]
    session, events = make_session(workspace, "spec", {"turns": turns})
    release = asyncio.Event()
    held: list[str] = []

    async def gate(turn_id: str) -> None:
        held.append(turn_id)
        await release.wait()

    session.prompt_gates.append(gate)
    try:
        await session.start()
        turn = session.submit(Prompt("held back"))
        started = await events.wait_for(TurnStarted, timeout=20)  # published at once
        assert started.turn_id == turn and held == [turn]
        await session.stop()
        ended = await events.wait_for(TurnEnded, timeout=20)
        assert ended.turn_id == turn and ended.reason is TurnEndReason.STOPPED
        release.set()
        session.prompt_gates.clear()
        session.submit(Prompt("next"))
        await asyncio.wait_for(session.wait_idle(), 20)
        text = "".join(e.text for e in events.of(TextDelta))
        assert text == "first scripted answer"  # the agent never saw the stopped prompt
    finally:
        await session.close()


@pytest.mark.asyncio
async def test_failing_and_hanging_gates_let_the_prompt_go(workspace: Path) -> None:
    session, events = make_session(workspace, "spec", {"turns": [[{"text": "answered"}]]})
    session.prompt_gates.timeout = 0.2

    async def failing(_turn: str) -> None:
        raise RuntimeError("gate broke")

    async def hanging(_turn: str) -> None:
        await asyncio.Event().wait()

    session.prompt_gates.extend([failing, hanging])
    try:
        await session.start()
        session.submit(Prompt("go"))
        await asyncio.wait_for(session.wait_idle(), 20)
        assert "".join(e.text for e in events.of(TextDelta)) == "answered"
        assert events.of(TurnEnded)[0].reason is TurnEndReason.COMPLETED
    finally:
        await session.close()
