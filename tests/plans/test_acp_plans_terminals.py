"""ACP plans, client terminals and model/mode choices through the scripted ACP peer process."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import (
    ApprovalMode,
    ChoiceKind,
    ChoicesChanged,
    Decision,
    PlanStatus,
    PlanUpdated,
    SessionEvent,
    ToolDecided,
    ToolFinished,
    ToolOutputDelta,
    ToolRequested,
    ToolStarted,
    TurnEnded,
)
from desktop.core.extensions.builtin.shell_deny_list.screen import NAME, deny_list_screen
from desktop.core.protocols.acp.adapter import AcpBackend, AcpLaunch
from desktop.core.session import Session

PEER = Path(__file__).parents[1] / "fakes" / "fake_acp_peer.py"


async def run(
    tmp_path: Path,
    env: dict[str, str],
    terminal: Decision = Decision.ONCE,
    choose: bool = False,
    yolo: bool = False,
) -> tuple[list[SessionEvent], list[dict]]:
    log = tmp_path / "peer.log"
    log.unlink(missing_ok=True)
    spec = AcpLaunch(
        [sys.executable, str(PEER)],
        tmp_path,
        {"PATH": "/usr/bin:/bin", "FAKE_PEER_LOG": str(log), **env},
        name="fake-acp",
    )
    session = Session(lambda rid: AcpBackend(spec, resume_id=rid), workspace=tmp_path)
    events: list[SessionEvent] = []

    def on(event: SessionEvent) -> None:
        events.append(event)
        if isinstance(event, ToolRequested) and event.pending and not yolo:
            session.decide(event.call_id, terminal if event.name == "terminal" else Decision.ONCE)

    session.subscribe(on)
    if yolo:  # everything approved by the mode; the shell deny list still screens every call
        session.approvals.screens.append((NAME, deny_list_screen))
        await session.set_mode(ApprovalMode.YOLO)
    await session.start()
    if choose:
        backend = session.backend
        assert backend is not None
        await backend.set_choice(ChoiceKind.MODEL, "fake-small")
        await backend.set_choice(ChoiceKind.MODE, "code")
    session.submit(Prompt("go"))
    await asyncio.wait_for(session.wait_idle(), 20)
    await session.close()
    return events, [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.asyncio
async def test_plan_updates_are_typed_and_replace_each_other(tmp_path: Path) -> None:
    events, _ = await run(tmp_path, {"FAKE_PEER_PLAN": "1"})
    plans = [e for e in events if isinstance(e, PlanUpdated)]
    assert [[s.content for s in p.entries] for p in plans] == [
        ["read", "edit", "test"],
        ["step one"],
    ]
    assert [s.status for s in plans[0].entries] == [
        PlanStatus.COMPLETED,
        PlanStatus.IN_PROGRESS,
        PlanStatus.PENDING,
    ]
    turn = next(e for e in events if isinstance(e, TurnEnded))
    assert all(p.turn_id == turn.turn_id for p in plans)


@pytest.mark.asyncio
async def test_terminal_runs_after_approval_and_streams_bounded_output(tmp_path: Path) -> None:
    command = "printf 'first\\n'; printf 'second\\n' >&2; pwd; exit 3"
    events, sent = await run(
        tmp_path, {"FAKE_PEER_TERMINAL": command, "FAKE_PEER_TERMINAL_LIMIT": "12"}
    )
    init = next(m for m in sent if m.get("method") == "initialize")
    assert init["params"]["clientCapabilities"]["terminal"] is True
    request = next(e for e in events if isinstance(e, ToolRequested) and e.name == "terminal")
    assert request.category == "exec" and request.pending
    assert request.preview is not None and request.preview.kind == "command"
    assert request.preview.text == command  # sh -c SCRIPT: the card says the script
    assert any(isinstance(e, ToolStarted) and e.call_id == request.call_id for e in events)
    streamed = "".join(
        e.text for e in events if isinstance(e, ToolOutputDelta) and e.call_id == request.call_id
    )
    assert streamed == f"first\nsecond\n{tmp_path.resolve()}\n"
    finished = next(
        e for e in events if isinstance(e, ToolFinished) and e.call_id == request.call_id
    )
    assert finished.status == "error"  # exit 3
    answers = {m["id"]: m for m in sent if "method" not in m}
    assert answers[111]["result"] == {"exitCode": 3}
    output = answers[112]["result"]
    assert output["truncated"] is True and len(output["output"].encode()) <= 12
    assert streamed.endswith(output["output"])
    assert output["exitStatus"] == {"exitCode": 3}
    assert answers[113]["result"] == {}


@pytest.mark.asyncio
async def test_denied_terminal_never_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    events, sent = await run(
        tmp_path, {"FAKE_PEER_TERMINAL": f"touch {marker}"}, terminal=Decision.DENY
    )
    answers = {m["id"]: m for m in sent if "method" not in m}
    assert "denied" in answers[110]["error"]["message"]
    assert not marker.exists()
    assert not any(isinstance(e, ToolOutputDelta) for e in events)


@pytest.mark.asyncio
async def test_the_shell_deny_list_screens_terminals_even_in_yolo(tmp_path: Path) -> None:
    events, sent = await run(tmp_path, {"FAKE_PEER_TERMINAL": "sudo touch ran"}, yolo=True)
    request = next(e for e in events if isinstance(e, ToolRequested) and e.name == "terminal")
    decided = next(e for e in events if isinstance(e, ToolDecided) and e.call_id == request.call_id)
    assert decided.decision == Decision.DENY and decided.source_name == NAME
    answers = {m["id"]: m for m in sent if "method" not in m}
    assert "denied" in answers[110]["error"]["message"] and not (tmp_path / "ran").exists()


@pytest.mark.asyncio
async def test_models_and_modes_are_offered_and_switched_on_the_wire(tmp_path: Path) -> None:
    events, sent = await run(tmp_path, {"FAKE_PEER_CHOICES": "1"}, choose=True)
    choices = [e for e in events if isinstance(e, ChoicesChanged)]
    first_mode = next(c for c in choices if c.kind == ChoiceKind.MODE)
    assert first_mode.current == "ask" and [c.id for c in first_mode.available] == ["ask", "code"]
    first_model = next(c for c in choices if c.kind == ChoiceKind.MODEL)
    assert first_model.current == "fake-large"
    assert [(c.id, c.name) for c in first_model.available] == [
        ("fake-large", "Fake Large"),
        ("fake-small", "Fake Small"),
    ]
    assert [c.current for c in choices if c.kind == ChoiceKind.MODEL][-1] == "fake-small"
    assert [c.current for c in choices if c.kind == ChoiceKind.MODE][-1] == "code"
    option = next(m for m in sent if m.get("method") == "session/set_config_option")
    assert option["params"]["configId"] == "model" and option["params"]["value"] == "fake-small"
    mode = next(m for m in sent if m.get("method") == "session/set_mode")
    assert mode["params"]["modeId"] == "code"
    end = next(e for e in events if isinstance(e, TurnEnded))
    assert end.model == "fake-small" and end.usage is not None


@pytest.mark.asyncio
async def test_models_in_the_unstable_field_are_switched_with_set_model(tmp_path: Path) -> None:
    events, sent = await run(tmp_path, {"FAKE_PEER_CHOICES": "unstable"}, choose=True)
    models = [e for e in events if isinstance(e, ChoicesChanged) and e.kind == ChoiceKind.MODEL]
    assert models[0].current == "fake-large"
    assert [c.id for c in models[0].available] == ["fake-large", "fake-small"]
    assert models[-1].current == "fake-small"
    switch = next(m for m in sent if m.get("method") == "session/set_model")
    assert switch["params"] == {"sessionId": "s1", "modelId": "fake-small"}
    assert not any(m.get("method") == "session/set_config_option" for m in sent)
    end = next(e for e in events if isinstance(e, TurnEnded))
    assert end.model == "fake-small"


@pytest.mark.asyncio
async def test_an_agent_without_choices_offers_none(tmp_path: Path) -> None:
    events, _ = await run(tmp_path, {})
    assert not any(isinstance(e, ChoicesChanged) for e in events)
