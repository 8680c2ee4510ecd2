"""The session bridge with a real Session and the real fake aionrs agent (in process).

Covers the host events (file_change.approval_requested with the host diff, tool.approval_requested,
turn.completed, raw ``aionrs.*`` signals, suggest_request.requested), the built-in read-only
auto-approver, and the review extension whose background agent (agent_instruction) posts into
the conversation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import Decision, SessionEvent, ToolDecided, ToolRequested
from desktop.core.extensions.executor import TranscriptEntry
from desktop.core.extensions.runtime import create_runtime
from desktop.core.session import Session
from tests.core.support import fake_factory
from tests.extensions.helpers import write_extension

RECORDER = """
import json, os
from pathlib import Path

OUT = Path(os.environ["RECORD_FILE"])

async def record(event, tools):
    with OUT.open("a") as handle:
        handle.write(json.dumps(event) + "\\n")

async def suggest(event, tools):
    p = event["payload"]
    return await tools.enqueue_job({"type": "agent_instruction", "projectId": p["projectId"],
                                    "payload": {"prompt": "suggest: " + p["userRequest"]}})

def register_agent_events(registry):
    for name in ("file_change.approval_requested", "turn.completed", "aionrs.tool_request",
                 "tool.approval_requested"):
        registry.on(name, record, priority=500)
    registry.on("suggest_request.requested", suggest)
"""


@pytest.mark.asyncio
async def test_host_events_review_and_suggestion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("old\n")
    record_file = tmp_path / "events.jsonl"
    monkeypatch.setenv("RECORD_FILE", str(record_file))
    roots = tmp_path / "ext"
    write_extension(roots, "recorder", RECORDER, actions=["queue.enqueue"])
    monkeypatch.setenv("AGENTDESK_EXTENSIONS_PATH", str(roots))
    scenario = {
        "prompts": {
            "change it": [
                {"tool": {"name": "Read", "args": {"file_path": "notes.txt"}}},
                {"tool": {"name": "Write", "args": {"file_path": "notes.txt", "content": "new\n"}}},
                {"text": "changed"},
            ]
        }
    }
    runtime = create_runtime(
        workspace, enabled_builtins=["file_change_review", "read_only_auto_approve"]
    )
    report = await runtime.start()
    assert report.failures == []
    assert sorted(m.name for m in runtime.snapshot.modules) == [
        "file_change_review",
        "read_only_auto_approve",
        "recorder",
    ]
    session = Session(fake_factory(workspace, "spec", scenario), workspace=workspace)
    bridge = runtime.attach(session, title="Test")
    posted: list[tuple[TranscriptEntry, str]] = []
    bridge.on_transcript(lambda _sid, entry, module: posted.append((entry, module)))
    decided: list[ToolDecided] = []

    def user(event: SessionEvent) -> None:
        if isinstance(event, ToolDecided):
            decided.append(event)
        if isinstance(event, ToolRequested) and event.pending and event.category == "edit":
            session.decide(event.call_id, Decision.ONCE)

    session.subscribe(bridge.defer(user))
    await session.start()
    session.submit(Prompt("change it"))
    await session.wait_idle()
    await runtime.settle(30)
    assert (workspace / "notes.txt").read_text() == "new\n"
    assert [(d.source, d.source_name) for d in decided] == [
        ("extension", "read_only_auto_approve"),
        ("user", None),
    ]

    events = [json.loads(line) for line in record_file.read_text().splitlines()]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        by_type.setdefault(event["type"], []).append(event["payload"])
    [change] = by_type["file_change.approval_requested"]
    assert change["fileChangeStatus"] == "pending_approval"
    assert "-old" in change["details"]["diff"] and "+new" in change["details"]["diff"]
    assert change["context"]["userRequest"] == "change it"
    assert change["context"]["projectId"] == str(workspace.resolve())
    assert [p["tool"]["name"] for p in by_type["tool.approval_requested"]] == ["Read", "Write"]
    signals = by_type["aionrs.tool_request"]
    assert [s["params"]["tool"]["name"] for s in signals] == ["Read", "Write"]
    assert signals[0]["source"] == "aionrs" and signals[0]["signalType"] == "notification"
    assert signals[0]["eventType"] == "aionrs.tool_request"
    assert signals[0]["params"]["call_id"] and signals[0]["method"] == "tool_request"
    assert signals[0]["session"] == {
        "id": bridge.session_id,
        "title": "Test",
        "projectId": str(workspace.resolve()),
    }
    [completed] = by_type["turn.completed"]
    assert completed["hadFileChangeRequests"] is True
    assert completed["turnTranscriptSnapshot"] == "changed"

    [(entry, module)] = posted
    assert module == "file_change_review" and entry.type == "extension.review"
    assert "+new" in entry.content  # the echoing fake reviewer repeats the diff it was shown

    suggestion = await bridge.suggest_next_prompt()
    winner = suggestion["winner"]
    assert winner is not None and winner["moduleName"] == "recorder"
    done = await runtime.jobs.wait(winner["job"]["id"], 20)
    assert done["state"] == "completed"
    assert done["result"] == {"text": "You said: suggest: change it"}
    await session.close()
    await runtime.close()
