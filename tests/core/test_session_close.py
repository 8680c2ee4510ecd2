"""Closing a session at any moment of its agent's start leaves no agent process behind.

A window closed (or a conversation deleted) right after it was opened closes its session while
the agent is still being spawned; the spawn must not complete into a process nobody ends.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from desktop.core.backend import AgentStartError
from desktop.core.events import SessionState
from tests.core.support import agent_children, make_session
from tests.waiting import until


@pytest.mark.asyncio
@pytest.mark.parametrize("steps", [0, 1, 2, 3, 4, 6, 8, 12, 20])
async def test_close_during_start_leaves_no_agent(tmp_path: Path, steps: int) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    session, _recorder = make_session(workspace, "spec", {})
    start = asyncio.get_running_loop().create_task(session.start())
    for _ in range(steps):  # let the start run this far: spawning, reading, handshaking
        await asyncio.sleep(0)
    await session.close()
    with contextlib.suppress(AgentStartError):
        await asyncio.wait_for(start, 15)
    await until(lambda: not agent_children(), 5, "the agent to be gone")
    assert agent_children() == []
    assert session.state in (SessionState.EXITED, SessionState.NEW, SessionState.STARTING)
