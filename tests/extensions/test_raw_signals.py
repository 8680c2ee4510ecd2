"""Raw agent signals reach extensions through the session bridge, straight from the backend.

A real Session drives the scripted Codex app-server peer and the fake aionrs agent (both real
subprocesses speaking their wire formats); a real extension records what it receives and, for
Codex, approves the command straight from the raw ``app_server.request.*`` signal.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import Decision, SessionEvent, ToolDecided, ToolRequested
from desktop.core.extensions.runtime import create_runtime
from desktop.core.protocols.aionrs.adapter import AionrsBackend
from desktop.core.protocols.codex.adapter import CodexAppServerBackend, CodexLaunch
from desktop.core.session import Session
from desktop.core.signals import RawSignal, SignalHub
from tests.core.support import fake_factory
from tests.extensions.helpers import write_extension

PEER = Path(__file__).parents[1] / "fakes" / "fake_codex_peer.py"
COMMAND_APPROVAL = "app_server.request.item.command_execution.request_approval"

RECORDER = """
import json, os
from pathlib import Path

OUT = Path(os.environ["RECORD_FILE"])

def record(event, tools):
    with OUT.open("a") as handle:
        handle.write(json.dumps(event) + "\\n")

def approve_command(event, tools):
    record(event, tools)
    params = event["payload"]["params"]
    return {"kind": "action_request", "actionType": "approval.decide",
            "payload": {"approvalId": params["itemId"], "decision": "accept"}}

def register_agent_events(registry):
    registry.on("app_server.request.item.command_execution.request_approval", approve_command)
    for name in ("app_server.turn.completed", "aionrs.tool_request", "aionrs.ready"):
        registry.on(name, record)
"""


def recorded(path: Path) -> dict[str, list[dict[str, Any]]]:
    by_type: dict[str, list[dict[str, Any]]] = {}
    for line in path.read_text().splitlines():
        event = json.loads(line)
        by_type.setdefault(event["type"], []).append(event["payload"])
    return by_type


@pytest.fixture
def record_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "events.jsonl"
    monkeypatch.setenv("RECORD_FILE", str(path))
    roots = tmp_path / "ext"
    write_extension(roots, "signals", RECORDER, actions=["approval.decide"])
    monkeypatch.setenv("AGENTDESK_EXTENSIONS_PATH", str(roots))
    return path


@pytest.mark.asyncio
async def test_codex_app_server_request_signal_reaches_a_handler_that_approves(
    tmp_path: Path, record_file: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    env = {"PATH": "/usr/bin:/bin", "FAKE_PEER_LOG": str(tmp_path / "peer.log")}
    spec = CodexLaunch([sys.executable, str(PEER)], workspace, env, name="fake-codex")
    runtime = create_runtime(workspace)
    assert (await runtime.start()).failures == []
    session = Session(lambda _rid: CodexAppServerBackend(spec), workspace=workspace)
    bridge = runtime.attach(session, title="Codex")
    decided: list[ToolDecided] = []

    def user(event: SessionEvent) -> None:
        if isinstance(event, ToolDecided):
            decided.append(event)
        if isinstance(event, ToolRequested) and event.pending and event.category == "edit":
            session.decide(event.call_id, Decision.ONCE)

    session.subscribe(bridge.defer(user))
    await session.start()
    turn = session.submit(Prompt("go"))
    await asyncio.wait_for(session.wait_idle(), 20)
    await runtime.settle(20)
    await session.close()
    await runtime.close()

    by_type = recorded(record_file)
    [request] = by_type[COMMAND_APPROVAL]
    assert request["source"] == "app_server" and request["signalType"] == "request"
    assert request["eventType"] == COMMAND_APPROVAL
    assert request["method"] == "item/commandExecution/requestApproval"
    assert request["requestId"] == 0 and request["params"]["command"] == "ls -la"
    assert request["context"] == {  # the conversation and host turn; the agent's own ids too
        "threadId": bridge.session_id,
        "turnId": turn,
        "agentThreadId": "thr_1",
        "agentTurnId": "turn_1",
    }
    assert request["session"]["id"] == bridge.session_id
    assert len(by_type["app_server.turn.completed"]) == 1
    # The command was approved by the extension from the raw signal, the patch by the user.
    assert [(d.call_id, d.source, d.source_name) for d in decided] == [
        ("call_1", "extension", "signals"),
        ("patch_1", "user", None),
    ]
    answers = [json.loads(line) for line in (tmp_path / "peer.log").read_text().splitlines()]
    assert {"id": 0, "result": {"decision": "accept"}} in answers


@pytest.mark.asyncio
async def test_aionrs_signals_follow_a_restarted_backend(tmp_path: Path, record_file: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    scenario = {"prompts": {"look": [{"tool": {"name": "Read", "args": {"file_path": "a"}}}]}}
    runtime = create_runtime(workspace)
    assert (await runtime.start()).failures == []
    session = Session(fake_factory(workspace, "spec", scenario), workspace=workspace)
    runtime.attach(session)

    def user(event: SessionEvent) -> None:
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, Decision.DENY)

    session.subscribe(user)
    await session.start()
    first = session.backend
    session.submit(Prompt("look"))
    await asyncio.wait_for(session.wait_idle(), 20)
    await session.restart()
    assert session.backend is not first
    session.submit(Prompt("look"))
    await asyncio.wait_for(session.wait_idle(), 20)
    await runtime.settle(20)
    await session.close()
    await runtime.close()

    by_type = recorded(record_file)
    assert len(by_type["aionrs.ready"]) == 2  # one per backend: the new one was subscribed too
    requests = by_type["aionrs.tool_request"]
    assert [r["params"]["tool"]["name"] for r in requests] == ["Read", "Read"]
    assert all(
        r["method"] == "tool_request" and r["signalType"] == "notification" for r in requests
    )
    assert requests[0]["context"]["turnId"] == requests[0]["params"]["msg_id"]
    assert requests[0]["context"]["agentTurnId"] == requests[0]["params"]["msg_id"]
    assert "aionrs.text_delta" not in by_type  # nobody asked for it


@pytest.mark.asyncio
async def test_unwanted_signals_are_never_built(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    scenario = {"prompts": {"hi": [{"text": "hello there"}]}}
    session = Session(fake_factory(workspace, "spec", scenario), workspace=workspace)
    seen: list[RawSignal] = []
    asked: list[str] = []

    def wants(name: str) -> bool:
        asked.append(name)
        return name == "aionrs.stream_end"

    remove = session.subscribe_signals(seen.append, wants)
    await session.start()
    backend = session.backend
    assert isinstance(backend, AionrsBackend) and backend.signals.active
    session.submit(Prompt("hi"))
    await asyncio.wait_for(session.wait_idle(), 20)
    assert [s.event_type for s in seen] == ["aionrs.stream_end"]
    assert "aionrs.text_delta" in asked  # filtered by name before a signal was made
    remove()
    assert not backend.signals.active  # nobody listens: the hot path is one attribute check
    await session.close()


def test_a_failing_listener_does_not_stop_the_others() -> None:
    hub = SignalHub()
    got: list[str] = []

    def broken(_signal: RawSignal) -> None:
        raise RuntimeError("boom")

    hub.add(broken)
    remove = hub.add(lambda s: got.append(s.event_type), lambda name: name.endswith("x"))
    hub.publish(RawSignal("aionrs", "notification", "x", {}))
    hub.publish(RawSignal("aionrs", "notification", "y", {}))
    assert got == ["aionrs.x"]
    remove()
    remove()  # removing twice is harmless
    assert hub.active  # the broken one still listens
