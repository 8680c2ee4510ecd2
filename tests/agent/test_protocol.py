"""The protocol itself: ready, a plain turn, commands and their errors, modes, history."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent.harness import Agent, agent_env, running, types
from tests.fakes.fake_llm import FakeLLM, Turn

CAPS = {
    "tool_approval": True,
    "thinking": True,
    "mcp": True,
    "modes": ["default", "auto_edit", "yolo"],
    "current_mode": "default",
}


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_text_turn_exact_events(provider: str, workspace: Path, llm: FakeLLM) -> None:
    llm.add(Turn(text=["Hi! ", "How can I help?"], thinking="Greeting.", usage={"input_tokens": 7}))
    agent = Agent(workspace, llm, provider=provider)
    try:
        ready = agent.ready()
        assert ready["version"] == "0.1.0"
        assert ready["session_id"]
        caps = dict(ready["capabilities"])
        assert caps.pop("image_input") in ("supported", "unknown")
        assert caps == CAPS
        events = agent.message("Hello")
    finally:
        assert agent.close() == 0
    assert events == [
        {"type": "stream_start", "msg_id": "m1"},
        {"type": "thinking", "text": "Greeting.", "msg_id": "m1"},
        {"type": "text_delta", "text": "Hi! ", "msg_id": "m1"},
        {"type": "text_delta", "text": "How can I help?", "msg_id": "m1"},
        {
            "type": "stream_end",
            "msg_id": "m1",
            "usage": {
                "input_tokens": 7,
                "output_tokens": 5,
                "cache_read_tokens": 0,
                "cache_write_tokens": 0,
            },
        },
    ]
    [request] = llm.model_requests
    body = request.body
    assert body["model"] == "fake-model"
    assert body["stream"] is True
    names = {t["name"] if provider == "anthropic" else t["function"]["name"] for t in body["tools"]}
    assert names == {"Read", "Write", "Edit", "Bash", "Glob", "Grep"}
    if provider == "anthropic":
        auth = request.headers.get("x-api-key") or request.headers.get("authorization", "")
        assert auth.endswith("sk-ant-fake")  # SDK versions differ in the header they use
        assert str(workspace) in body["system"]
        assert body["messages"] == [
            {"role": "user", "content": [{"type": "text", "text": "Hello"}]}
        ]
    else:
        assert request.headers["authorization"] == "Bearer sk-fake"
        assert body["messages"][0]["role"] == "system"
        assert body["messages"][1:] == [{"role": "user", "content": "Hello"}]


def test_message_content_field_and_second_turn_history(workspace: Path, llm: FakeLLM) -> None:
    llm.add({"text": "One."}, {"text": "Two."})
    with running(workspace, llm, provider="anthropic") as agent:
        agent.send({"type": "message", "msg_id": "a", "content": "first"})
        assert types(agent.until("stream_end")) == ["stream_start", "text_delta", "stream_end"]
        agent.send({"type": "message", "msg_id": "b", "content": "second"})
        assert agent.until("stream_end")[-1]["msg_id"] == "b"
    messages = llm.model_requests[1].body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[1]["content"] == [{"type": "text", "text": "One."}]
    assert messages[2]["content"] == [{"type": "text", "text": "second"}]


def test_ping_and_protocol_errors(workspace: Path) -> None:
    with running(workspace, None) as agent:
        agent.send({"type": "ping"})
        assert agent.next() == {"type": "pong"}
        bad = [
            ("not json at all", "Malformed JSON command"),
            ("[1, 2]", "A command must be a JSON object, not list."),
            ('{"no_type": 1}', "The command has no 'type' field."),
            ('{"type": "foo"}', "Unknown command type: foo"),
            ('{"type": "message", "input": "x"}', "Invalid 'message' command (msg_id: Field"),
            ('{"type": "set_mode", "mode": "turbo"}', "Invalid 'set_mode' command (mode:"),
            ('{"type": "tool_approve", "call_id": "nope"}', "No pending tool call 'nope'"),
            ('{"type": "tool_deny", "call_id": "nope", "reason": "x"}', "No pending tool call"),
        ]
        for line, message in bad:
            agent.send(line)
            event = agent.next()
            assert event["type"] == "error"
            assert event["msg_id"] is None
            assert event["error"]["code"] == "protocol_error"
            assert event["error"]["retryable"] is False
            assert event["error"]["message"].startswith(message), event
        agent.send({"type": "ping"})
        assert agent.next() == {"type": "pong"}  # still alive and in order


def test_missing_key_is_config_error(workspace: Path) -> None:
    env = agent_env()
    del env["ANTHROPIC_API_KEY"], env["OPENAI_API_KEY"]
    agent = Agent(workspace, None, provider="", env=env)
    event = agent.next()
    assert event == {
        "type": "error",
        "msg_id": None,
        "error": {
            "code": "config_error",
            "message": "ANTHROPIC_API_KEY is not set. Enter your Anthropic API key in Agent Desk's "
            "settings (or set the variable) and start the conversation again.",
            "retryable": False,
        },
    }
    assert agent.close() == 2
    assert "ANTHROPIC_API_KEY is not set" in agent.stderr()


def test_provider_defaults_to_the_key_that_is_set(workspace: Path, llm: FakeLLM) -> None:
    env = agent_env(OPENAI_BASE_URL=llm.openai_base_url)
    del env["ANTHROPIC_API_KEY"]
    agent = Agent(workspace, None, provider="", env=env)
    try:
        assert agent.ready()["capabilities"]["image_input"] == "unknown"  # the OpenAI provider
        agent.message("hi")
    finally:
        agent.close()
    assert llm.model_requests[0].path == "/v1/chat/completions"


def test_bad_flag_is_config_error(workspace: Path) -> None:
    agent = Agent(workspace, None, args=("--max-turns", "zero"))
    event = agent.next()
    assert event["error"]["code"] == "config_error"
    assert "--max-turns" in event["error"]["message"]
    assert agent.close() == 2


def test_set_mode_and_set_config_report_config_changed(workspace: Path) -> None:
    with running(workspace, None) as agent:
        agent.send({"type": "set_mode", "mode": "auto_edit"})
        event = agent.next()
        assert event["type"] == "config_changed"
        assert event["capabilities"]["current_mode"] == "auto_edit"
        agent.send({"type": "set_config", "model": "other-model"})
        assert agent.next()["type"] == "config_changed"


def test_auto_approve_starts_in_yolo(workspace: Path) -> None:
    agent = Agent(workspace, None, args=("--auto-approve",))
    try:
        assert agent.ready()["capabilities"]["current_mode"] == "yolo"
    finally:
        agent.close()


def test_init_history_is_context_and_must_come_first(workspace: Path, llm: FakeLLM) -> None:
    llm.add({"text": "ok"})
    with running(workspace, llm, provider="anthropic") as agent:
        agent.send({"type": "init_history", "text": "User asked about the parser bug."})
        agent.message("go on")
        agent.send({"type": "init_history", "text": "late"})
        event = agent.next()
        assert event["error"]["code"] == "protocol_error"
        assert "before the first message" in event["error"]["message"]
    system = llm.model_requests[0].body["system"]
    assert system.endswith("User asked about the parser bug.")
