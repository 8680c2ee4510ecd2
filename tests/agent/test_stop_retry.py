"""``stop`` mid-stream and mid-command; retries, final provider failures, broken streams."""

from __future__ import annotations

import time
from pathlib import Path

import psutil
import pytest

from tests.agent.harness import running, types
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn, anthropic_tool_results


def _gone(proc: psutil.Process) -> bool:
    """Ended (a reused pid is another process: ``is_running`` compares start times)."""
    try:
        return not proc.is_running() or proc.status() in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)
    except psutil.NoSuchProcess:
        return True


def _status(proc: psutil.Process) -> str:
    try:
        return str(proc.status()) if proc.is_running() else "gone"
    except psutil.NoSuchProcess:
        return "gone"


def test_stop_in_the_middle_of_a_stream(workspace: Path, llm: FakeLLM) -> None:
    llm.add(Turn(text=["partial ", "answer"], hang_after=3), {"text": "Fresh."})
    with running(workspace, llm, provider="anthropic") as agent:
        agent.send({"type": "message", "msg_id": "m1", "input": "talk"})
        assert types(agent.until("text_delta")) == ["stream_start", "text_delta"]
        agent.send({"type": "stop"})
        assert agent.next() == {
            "type": "stream_end",
            "msg_id": "m1",
            "usage": {
                "input_tokens": 0,
                "output_tokens": 0,
                "cache_read_tokens": 0,
                "cache_write_tokens": 0,
            },
        }
        llm.wait_for_disconnect()  # the provider request was cancelled
        events = agent.message("again", "m2")
    assert types(events) == ["stream_start", "text_delta", "stream_end"]
    messages = llm.model_requests[1].body["messages"]
    assert messages[1] == {"role": "assistant", "content": [{"type": "text", "text": "partial "}]}
    assert messages[2] == {"role": "user", "content": [{"type": "text", "text": "again"}]}


def test_stop_kills_the_whole_bash_process_group(workspace: Path, llm: FakeLLM) -> None:
    command = "echo $$ > shell.pid; (sleep 60; touch late.txt) & echo $! > child.pid; wait"
    llm.add(Turn(tool_calls=[ToolCallSpec("Bash", {"command": command}, "b1")]), {"text": "ok"})
    with running(workspace, llm, provider="anthropic") as agent:
        agent.send({"type": "message", "msg_id": "m1", "input": "run"})
        agent.until("tool_request")
        agent.send({"type": "tool_approve", "call_id": "b1"})
        assert agent.next()["type"] == "tool_running"
        deadline = time.monotonic() + 10
        while not (workspace / "child.pid").exists() or not (workspace / "child.pid").read_text():
            assert time.monotonic() < deadline
            time.sleep(0.02)
        shell = psutil.Process(int((workspace / "shell.pid").read_text()))
        child = psutil.Process(int((workspace / "child.pid").read_text()))
        assert not _gone(shell) and not _gone(child)
        agent.send({"type": "stop"})
        assert agent.next() == {
            "type": "tool_cancelled",
            "msg_id": "m1",
            "call_id": "b1",
            "reason": "Stopped by the user",
        }
        assert agent.next()["type"] == "stream_end"
        # SIGKILLed at once; a loaded CI machine may take a while to finish them off.
        deadline = time.monotonic() + 15
        while not (_gone(shell) and _gone(child)):
            statuses = f"shell {_status(shell)}, child {_status(child)}"
            assert time.monotonic() < deadline, f"the command survived the stop: {statuses}"
            time.sleep(0.02)
        agent.message("next", "m2")
    results = anthropic_tool_results(llm.model_requests[1].body)
    assert results == {"b1": ("The user stopped the turn before this tool call finished.", True)}
    assert not (workspace / "late.txt").exists()


def test_stop_while_waiting_for_approval(workspace: Path, llm: FakeLLM) -> None:
    llm.add(Turn(tool_calls=[ToolCallSpec("Bash", {"command": "true"}, "b1")]))
    with running(workspace, llm) as agent:
        agent.send({"type": "message", "msg_id": "m1", "input": "run"})
        agent.until("tool_request")
        agent.send({"type": "stop"})
        assert types([agent.next(), agent.next()]) == ["tool_cancelled", "stream_end"]
        agent.send({"type": "tool_approve", "call_id": "b1"})  # too late: no longer pending
        assert agent.next()["error"]["code"] == "protocol_error"


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_retry_on_429_and_500_then_success(provider: str, workspace: Path, llm: FakeLLM) -> None:
    llm.add(
        Turn(status=429, error_message="Rate limit exceeded"),
        Turn(status=500, error_message="boom"),
        {"text": "Finally."},
    )
    with running(workspace, llm, provider=provider) as agent:
        events = agent.message("hi")
    assert types(events) == ["stream_start", "info", "info", "text_delta", "stream_end"]
    assert events[1]["msg_id"] == "m1"
    assert "HTTP 429 (rate limited)" in events[1]["message"]
    assert "Rate limit exceeded" in events[1]["message"]
    assert events[1]["message"].endswith("(1/3)…")
    assert "HTTP 500" in events[2]["message"] and events[2]["message"].endswith("(2/3)…")
    assert len(llm.model_requests) == 3


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_broken_stream_is_retried(provider: str, workspace: Path, llm: FakeLLM) -> None:
    llm.add(Turn(text=["never ", "finished"], cut_after=3), {"text": "Whole."})
    with running(workspace, llm, provider=provider) as agent:
        events = agent.message("hi")
    infos = [e for e in events if e["type"] == "info"]
    assert len(infos) == 1 and infos[0]["message"].endswith("(1/3)…")
    assert events[-2] == {"type": "text_delta", "text": "Whole.", "msg_id": "m1"}
    assert events[-1]["type"] == "stream_end"


def test_final_retryable_failure_is_provider_error(workspace: Path, llm: FakeLLM) -> None:
    llm.add(*[Turn(status=503, error_message="overloaded")] * 4, {"text": "later"})
    with running(workspace, llm, provider="anthropic") as agent:
        events = agent.message("hi")
        assert types(events) == ["stream_start", "info", "info", "info", "error", "stream_end"]
        assert events[4]["msg_id"] == "m1"
        assert events[4]["error"]["code"] == "provider_error"
        assert events[4]["error"]["retryable"] is True
        assert "HTTP 503" in events[4]["error"]["message"]
        assert types(agent.message("again", "m2")) == ["stream_start", "text_delta", "stream_end"]


def test_auth_failure_is_not_retried(workspace: Path, llm: FakeLLM) -> None:
    llm.add(Turn(status=401, error_message="invalid x-api-key"))
    with running(workspace, llm) as agent:
        events = agent.message("hi")
    assert types(events) == ["stream_start", "error", "stream_end"]
    assert events[1]["error"] == {
        "code": "provider_error",
        "message": "HTTP 401 (authentication failed; check the API key): invalid x-api-key",
        "retryable": False,
    }
    assert len(llm.model_requests) == 1
