"""The Codex app-server adapter against a scripted peer process (no npm needed)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import Decision, SessionEvent, ToolRequested, TurnEnded, TurnEndReason
from desktop.core.protocols.codex.adapter import CodexAppServerBackend, CodexLaunch
from desktop.core.protocols.codex.signals import RawSignal
from desktop.core.session import Session

PEER = Path(__file__).parents[1] / "fakes" / "fake_codex_peer.py"


def launch(tmp_path: Path) -> tuple[CodexLaunch, Path]:
    log = tmp_path / "peer.log"
    env = {"PATH": "/usr/bin:/bin", "FAKE_PEER_LOG": str(log)}
    return CodexLaunch([sys.executable, str(PEER)], tmp_path, env, name="fake-codex"), log


@pytest.mark.asyncio
async def test_turn_approvals_unknown_request_usage_and_signals(tmp_path: Path) -> None:
    spec, log = launch(tmp_path)
    backend = CodexAppServerBackend(spec)
    signals: list[RawSignal] = []
    backend.add_signal_listener(signals.append)
    session = Session(lambda _rid: backend, workspace=tmp_path)
    events: list[SessionEvent] = []

    def on(event: SessionEvent) -> None:
        events.append(event)
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(
                event.call_id, Decision.ONCE if event.name == "exec_command" else Decision.ALWAYS
            )

    session.subscribe(on)
    ready = await session.start()
    assert ready.session_id == "thr_1" and ready.version == "9.9.9"
    session.submit(Prompt("go"))
    await asyncio.wait_for(session.wait_idle(), 10)
    await session.close()
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    answers = {m["id"]: m for m in sent if "method" not in m}
    assert answers[0]["result"] == {"decision": "accept"}
    # "Always" is kept by the host; Codex is answered with a one-off approval.
    assert answers[1]["result"] == {"decision": "approved"}
    assert answers[2]["error"]["code"] == -32601
    cards = [e for e in events if isinstance(e, ToolRequested) and e.pending]
    assert [c.category.value for c in cards] == ["exec", "edit"]
    assert cards[0].preview and cards[0].preview.text == "ls -la"
    assert cards[1].preview and "+hello" in cards[1].preview.text
    kinds = [e.type for e in events]
    assert "thinking_delta" in kinds and "tool_finished" in kinds
    end = next(e for e in events if isinstance(e, TurnEnded))
    assert end.reason == TurnEndReason.COMPLETED
    assert end.usage is not None and end.usage.cache_read_tokens == 10
    names = {s.event_type for s in signals}
    assert "app_server.request.item.command_execution.request_approval" in names
    assert "app_server.request.apply_patch_approval" in names
    assert "app_server.item.agent_message.delta" in names
    request = next(s for s in signals if s.signal_type == "request")
    envelope = request.envelope({"id": "thr_1", "title": None, "projectId": None})
    assert envelope["requestId"] == 0 and envelope["context"]["threadId"] == "thr_1"


@pytest.mark.asyncio
async def test_interrupt_withdraws_the_pending_card(tmp_path: Path) -> None:
    spec, _log = launch(tmp_path)
    backend = CodexAppServerBackend(spec)
    events: list[SessionEvent] = []
    await backend.start(events.append)
    await backend.send_prompt("t1", Prompt("go"))
    for _ in range(100):
        if any(isinstance(e, ToolRequested) and e.pending for e in events):
            break
        await asyncio.sleep(0.02)
    await backend.interrupt()
    for _ in range(100):
        if any(isinstance(e, TurnEnded) for e in events):
            break
        await asyncio.sleep(0.02)
    await backend.shutdown(2.0)
    assert [e.type for e in events if e.type in ("tool_cancelled", "turn_ended")] == [
        "tool_cancelled",
        "turn_ended",
    ]
    assert next(e for e in events if isinstance(e, TurnEnded)).reason == TurnEndReason.STOPPED
    assert events[-1].type == "agent_exited"
