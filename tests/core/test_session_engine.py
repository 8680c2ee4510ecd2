"""The session engine's state machine against the in-process ``ScriptedBackend``.

What a session does with prompts, starts and turns, whatever the agent's protocol; the same
engine over real agent subprocesses is covered by the conformance tests.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import SessionState, TextDelta, TurnEnded, TurnEndReason
from desktop.core.session import Session
from tests.core.scripted import ScriptedBackend, say
from tests.core.support import Recorder
from tests.waiting import until


@pytest.mark.asyncio
async def test_prompt_submitted_while_the_agent_starts_waits_for_ready(tmp_path: Path) -> None:
    ready = asyncio.Event()
    backend = ScriptedBackend([[say("You said: early")]], ready=ready)
    session = Session(lambda _resume: backend, workspace=tmp_path)
    rec = Recorder()
    session.subscribe(rec)
    starting = asyncio.get_running_loop().create_task(session.start())
    await until(lambda: session.state != SessionState.NEW, what="the start to begin")
    assert session.state == "starting"
    session.submit(Prompt("early"))
    ready.set()
    await starting
    await session.wait_idle()
    assert [e.reason for e in rec.of(TurnEnded)] == [TurnEndReason.COMPLETED]
    assert "".join(e.text for e in rec.of(TextDelta)) == "You said: early"
    types = rec.types()
    assert types.index("agent_ready") < types.index("turn_started"), "sent before ready"
    await session.close()
