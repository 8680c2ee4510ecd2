"""Codex plans, streamed command output and the per-turn model through the scripted peer."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from desktop.core.backend import Prompt
from desktop.core.entries import PlanItem, ToolItem
from desktop.core.events import (
    ChoiceKind,
    ChoicesChanged,
    Decision,
    PlanStatus,
    PlanUpdated,
    SessionEvent,
    ToolFinished,
    ToolOutputDelta,
    ToolRequested,
    TurnEnded,
)
from desktop.core.protocols.codex.adapter import CodexAppServerBackend, CodexLaunch
from desktop.core.session import Session
from desktop.core.transcript import Transcript
from tests.waiting import until

PEER = Path(__file__).parents[1] / "fakes" / "fake_codex_peer.py"


async def run(tmp_path: Path, choose: str | None) -> tuple[list[SessionEvent], list[dict]]:
    log = tmp_path / "peer.log"
    env = {"PATH": "/usr/bin:/bin", "FAKE_PEER_LOG": str(log), "FAKE_PEER_PLAN": "1"}
    spec = CodexLaunch([sys.executable, str(PEER)], tmp_path, env, name="fake-codex")
    session = Session(lambda _rid: CodexAppServerBackend(spec), workspace=tmp_path)
    events: list[SessionEvent] = []

    def on(event: SessionEvent) -> None:
        events.append(event)
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, Decision.ONCE)

    session.subscribe(on)
    await session.start()
    await until(lambda: any(isinstance(e, ChoicesChanged) for e in events), timeout=15)
    if choose is not None:
        backend = session.backend
        assert backend is not None
        await backend.set_choice(ChoiceKind.MODEL, choose)
    session.submit(Prompt("go"))
    await asyncio.wait_for(session.wait_idle(), 20)
    await session.close()
    return events, [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.asyncio
async def test_plan_and_streamed_output_reach_the_transcript(tmp_path: Path) -> None:
    events, _ = await run(tmp_path, None)
    plan = next(e for e in events if isinstance(e, PlanUpdated))
    assert plan.explanation == "two steps"
    assert [(s.content, s.status) for s in plan.entries] == [
        ("look", PlanStatus.COMPLETED),
        ("fix", PlanStatus.IN_PROGRESS),
    ]
    delta = next(e for e in events if isinstance(e, ToolOutputDelta))
    assert delta.call_id == "call_1" and delta.text == "file.txt\n"
    finished = next(e for e in events if isinstance(e, ToolFinished) and e.call_id == "call_1")
    assert events.index(delta) < events.index(finished)
    transcript = Transcript()
    live: list[str] = []
    for event in events:
        for change in transcript.apply(event):
            item = change.item if hasattr(change, "item") else None
            if isinstance(item, ToolItem) and item.live_output:
                live.append(item.live_output)
    assert live and live[0] == "file.txt\n"  # the card shows it before the result
    tool = transcript.tool("call_1")
    assert tool is not None and tool.result is not None and tool.live_chars == len("file.txt\n")
    plans = [i for i in transcript.items if isinstance(i, PlanItem)]
    assert len(plans) == 1 and plans[0].entries == plan.entries


@pytest.mark.asyncio
async def test_models_are_listed_and_the_chosen_one_goes_with_each_turn(tmp_path: Path) -> None:
    events, sent = await run(tmp_path, "fake-mini")
    first = next(e for e in events if isinstance(e, ChoicesChanged))
    assert first.current == "fake"
    assert [(c.id, c.name) for c in first.available] == [
        ("fake", "Fake"),
        ("fake-mini", "Fake Mini"),
    ]
    assert [e for e in events if isinstance(e, ChoicesChanged)][-1].current == "fake-mini"
    start = next(m for m in sent if m.get("method") == "turn/start")
    assert start["params"]["model"] == "fake-mini"
    end = next(e for e in events if isinstance(e, TurnEnded))
    assert end.model == "fake-mini" and end.usage is not None


@pytest.mark.asyncio
async def test_without_a_choice_the_turn_names_no_model(tmp_path: Path) -> None:
    events, sent = await run(tmp_path, None)
    start = next(m for m in sent if m.get("method") == "turn/start")
    assert "model" not in start["params"]
    end = next(e for e in events if isinstance(e, TurnEnded))
    assert end.model == "fake"
