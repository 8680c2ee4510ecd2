"""The built-in agent's MCP client, through the real agent process, the fake LLM and the real
echo MCP server over stdio: tools listed to the model, a call approved and reaching the server,
its result back to the model; failures at start and mid-session reported, never silent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.agent.harness import running, types
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn, anthropic_tool_results
from tests.mcp.support import echo_command


def add_server(marker: Path, *extra: str, name: str = "echo") -> dict[str, Any]:
    command, *args = echo_command(*extra)
    return {
        "type": "add_mcp_server",
        "name": name,
        "transport": "stdio",
        "command": command,
        "args": args,
        "env": {"MCP_ECHO_MARKER": str(marker), "MCP_ECHO_SECRET": "s3cret"},
    }


def test_mcp_tools_reach_the_model_and_an_approved_call_reaches_the_server(
    workspace: Path, llm: FakeLLM, tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    call = ToolCallSpec("mcp__echo__echo", {"text": "hello mcp"}, "t1")
    llm.add(Turn(text="Echoing.", tool_calls=[call]), {"text": "It said hello mcp."})
    with running(workspace, llm, provider="anthropic") as agent:
        agent.send(add_server(marker))
        [ready] = agent.until("mcp_ready", timeout=30.0)
        assert ready == {
            "type": "mcp_ready",
            "name": "echo",
            "tools": ["mcp__echo__echo", "mcp__echo__add"],
        }
        assert "secret=s3cret" in marker.read_text()  # the environment reached the server
        agent.send({"type": "message", "msg_id": "m1", "input": "Echo hello mcp"})
        request = agent.until("tool_request")[-1]
        assert request["tool"]["name"] == "mcp__echo__echo"
        assert request["tool"]["category"] == "mcp"
        assert request["tool"]["args"] == {"text": "hello mcp"}
        assert "on MCP server echo" in request["tool"]["description"]
        assert "echo " not in marker.read_text()  # paused until approved
        agent.send({"type": "tool_approve", "call_id": "t1", "scope": "once"})
        rest = agent.until("stream_end", timeout=30.0)
    assert types(rest) == ["tool_running", "tool_result", "text_delta", "stream_end"]
    assert rest[1]["status"] == "success" and rest[1]["output"] == "hello mcp"
    assert 'echo {"text": "hello mcp"}' in marker.read_text()
    body = llm.model_requests[0].body
    offered = {t["name"]: t for t in body["tools"]}
    assert {"mcp__echo__echo", "mcp__echo__add", "Read", "Bash"} <= set(offered)
    assert offered["mcp__echo__add"]["input_schema"]["required"] == ["a", "b"]
    assert offered["mcp__echo__echo"]["description"] == "Return the text unchanged."
    assert anthropic_tool_results(llm.model_requests[1].body) == {"t1": ("hello mcp", False)}


def test_a_server_that_fails_to_start_is_reported_with_its_stderr(
    workspace: Path, llm: FakeLLM, tmp_path: Path
) -> None:
    with running(workspace, llm, provider="anthropic") as agent:
        agent.send(add_server(tmp_path / "marker", "--fail-start", name="broken"))
        [error] = agent.until("error", timeout=30.0)
    assert error["error"]["code"] == "mcp_error"
    message = error["error"]["message"]
    assert "MCP server 'broken' failed to start" in message
    assert "mcp_echo_server: cannot start (asked to fail)" in message


def test_a_server_that_crashes_mid_session_is_reported_and_the_model_told(
    workspace: Path, llm: FakeLLM, tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    call = ToolCallSpec("mcp__echo__add", {"a": 2, "b": 3}, "t1")
    llm.add(Turn(tool_calls=[call]), {"text": "The server died."})
    with running(workspace, llm, provider="anthropic", args=("--auto-approve",)) as agent:
        agent.send(add_server(marker, "--crash-after", "1"))
        agent.until("mcp_ready", timeout=30.0)
        events = agent.message("Add 2 and 3")
    notices = [e for e in events if e["type"] == "info"]
    assert len(notices) == 1 and "MCP server 'echo' stopped working" in notices[0]["message"]
    assert "crashing on purpose" in notices[0]["message"]
    [result] = [e for e in events if e["type"] == "tool_result"]
    assert result["status"] == "error" and "failed during add" in result["output"]
    output, is_error = anthropic_tool_results(llm.model_requests[1].body)["t1"]
    assert is_error and "MCP server 'echo' failed during add" in output
