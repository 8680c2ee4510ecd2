"""Sessions saved per workspace under the data folder: resume by id or latest, corrupt files."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from tests.agent.harness import Agent, running
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn


def _folder(home: Path, workspace: Path) -> Path:
    digest = hashlib.sha256(str(workspace).encode()).hexdigest()[:16]
    return home / "data" / "agent-sessions" / digest


def test_resume_restores_the_full_history(
    workspace: Path, llm: FakeLLM, agentdesk_home: Path
) -> None:
    llm.add(
        Turn(tool_calls=[ToolCallSpec("Write", {"file_path": "n.txt", "content": "1"}, "w1")]),
        {"text": "Wrote it."},
        {"text": "Still here."},
    )
    with running(workspace, llm, provider="anthropic", args=("--session-id", "conv-1")) as agent:
        agent.send({"type": "message", "msg_id": "m1", "input": "write"})
        agent.until("tool_request")
        agent.send({"type": "tool_approve", "call_id": "w1"})
        agent.until("stream_end")
    saved = _folder(agentdesk_home, workspace) / "conv-1.json"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    record = json.loads(saved.read_text())
    assert record["id"] == "conv-1" and record["workspace"] == str(workspace)
    assert [e["role"] for e in record["history"]] == ["user", "assistant", "tool", "assistant"]
    assert "sk-ant-fake" not in saved.read_text()

    with running(workspace, llm, provider="anthropic", args=("--resume", "conv-1")) as agent:
        assert agent.seen[0]["session_id"] == "conv-1"
        agent.message("and now?", "m2")
    first = llm.model_requests[1].body["messages"]
    resumed = llm.model_requests[2].body["messages"]
    assert resumed[:3] == first  # the earlier conversation, as the model saw it
    assert [m["role"] for m in resumed] == ["user", "assistant", "user", "assistant", "user"]
    assert resumed[-1]["content"] == [{"type": "text", "text": "and now?"}]


def test_resume_latest_and_ready_session_id(workspace: Path, llm: FakeLLM) -> None:
    llm.add({"text": "a"}, {"text": "b"})
    with running(workspace, llm) as agent:
        first_id = agent.seen[0]["session_id"]
        agent.message("one")
    agent = Agent(workspace, llm, args=("--resume", "latest"))
    try:
        ready = agent.ready()
        agent.message("two", "m2")
    finally:
        agent.close()
    assert ready["session_id"] == first_id
    messages = llm.model_requests[1].body["messages"]
    assert [m.get("content") for m in messages[1:]] == ["one", "a", "two"]


def test_session_id_that_exists_is_a_config_error(workspace: Path) -> None:
    with running(workspace, None, args=("--session-id", "dup")):
        pass
    agent = Agent(workspace, None, args=("--session-id", "dup"))
    event = agent.next()
    assert event["error"]["code"] == "config_error"
    assert "already exists" in event["error"]["message"]
    assert agent.close() == 2


def test_unknown_or_unsafe_session_ids_are_config_errors(workspace: Path) -> None:
    for flag, value, text in (
        ("--resume", "missing", "There is no saved session 'missing'"),
        ("--resume", "../../etc/passwd", "Invalid session id"),
    ):
        agent = Agent(workspace, None, args=(flag, value))
        event = agent.next()
        assert event["error"]["code"] == "config_error"
        assert event["error"]["message"].startswith(text), event
        assert agent.close() == 2


def test_corrupt_session_is_reported_not_fatal(
    workspace: Path, llm: FakeLLM, agentdesk_home: Path
) -> None:
    folder = _folder(agentdesk_home, workspace)
    folder.mkdir(parents=True)
    (folder / "bad.json").write_text('{"id": "bad", "history": [{"role": "alien"}')
    llm.add({"text": "fresh start"})
    agent = Agent(workspace, llm, args=("--resume", "bad"))
    try:
        error = agent.next()
        assert error["type"] == "error"
        assert error["error"]["code"] == "config_error"
        assert "is corrupt" in error["error"]["message"]
        ready = agent.ready()
        assert ready["session_id"] == "bad"
        agent.message("hello")
    finally:
        assert agent.close() == 0
    assert "is corrupt" in agent.stderr()
    assert [p.name.startswith("bad.json.corrupt-") for p in folder.iterdir()].count(True) == 1
    assert json.loads((folder / "bad.json").read_text())["history"][0]["text"] == "hello"
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
    assert os.access(folder / "bad.json", os.R_OK)
