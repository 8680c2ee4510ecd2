"""Checkpoints with real agents (issue 17): a turn of Codex (its own protocol) and of Claude Code
(ACP) that writes a file through a shell command shows that file in the turn's changes, and
restoring to before the turn removes it (the recorder sees every agent's turns alike)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from desktop.core.backend import Prompt
from desktop.core.checkpoints.model import ChangeKind, Checkpoint, CheckpointKind
from desktop.core.checkpoints.recorder import CheckpointRecorder
from desktop.core.checkpoints.store import CheckpointStore
from desktop.core.events import Decision, SessionEvent, ToolRequested
from desktop.core.launch.factory import make_backend_factory
from desktop.core.session import Session
from tests.agents_real.conftest import RealAgent
from tests.agents_real.test_real_agents import command_turn
from tests.waiting import until


@pytest.mark.asyncio
@pytest.mark.parametrize("key", ["codex", "claude"])
async def test_a_real_agents_turn_shows_in_its_changes(
    make_agent: Any, key: str, tmp_path: Path
) -> None:
    agent: RealAgent = make_agent(key)
    (agent.workspace / "before.txt").write_text("here before\n")
    agent.llm.add(command_turn(key, agent.workspace), {"text": "All done."})
    session = Session(
        make_backend_factory(agent.choice, agent.workspace), workspace=agent.workspace
    )

    def approve(event: SessionEvent) -> None:
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, Decision.ONCE)

    session.subscribe(approve)
    store = CheckpointStore.open(agent.workspace, tmp_path / "data")
    recorder = CheckpointRecorder(store, f"real-{key}")
    recorded: list[Checkpoint] = []
    recorder.add_listener(recorded.append)
    recorder.attach(session)
    try:
        await session.start()
        session.submit(Prompt("go"))
        await asyncio.wait_for(session.wait_idle(), 60)
        await until(
            lambda: any(c.kind is CheckpointKind.TURN_AFTER for c in recorded),
            20,
            "the turn's after-state",
        )
        assert (agent.workspace / "hello.txt").read_text() == "hi from agent\n"
        changes = store.turn_changes(f"real-{key}", 1).changes
        assert changes is not None
        assert [(c.path, c.kind) for c in changes.files] == [("hello.txt", ChangeKind.ADDED)]
        assert changes.files[0].diff.endswith("+hi from agent\n")
        result = store.restore(f"real-{key}", 1)
        assert result.complete and result.restored == ("hello.txt",)
        assert sorted(p.name for p in agent.workspace.iterdir()) == ["before.txt"]
    finally:
        await recorder.drain()
        await session.close()
