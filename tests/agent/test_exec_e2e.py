"""End to end through the host: ``agentdesk exec --agent builtin`` runs this agent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.agent.harness import ROOT, agent_env
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn, anthropic_tool_results

EXEC = [sys.executable, "-m", "desktop", "exec", "--agent", "builtin", "--json"]


def test_exec_builtin_agent_writes_a_file(workspace: Path, llm: FakeLLM) -> None:
    write = ToolCallSpec("Write", {"file_path": "hello.txt", "content": "hi from builtin\n"}, "w1")
    llm.add(Turn(text="Creating it.", tool_calls=[write]), {"text": "Created hello.txt."})
    env = agent_env(ANTHROPIC_BASE_URL=llm.url)
    del env["OPENAI_API_KEY"]
    done = subprocess.run(
        [*EXEC, "--on-request", "approve", "-p", "Create hello.txt"],
        cwd=workspace,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    kinds = [e["type"] for e in events]
    ready = events[kinds.index("agent_ready")]
    assert ready["agent"] == "builtin"
    assert ready["version"] == "0.1.0"
    assert ready["capabilities"]["tool_approval"] is True
    flow = [
        k
        for k in kinds
        if k
        in (
            "turn_started",
            "tool_requested",
            "tool_decided",
            "tool_started",
            "tool_finished",
            "turn_ended",
        )
    ]
    assert flow == [
        "turn_started",
        "tool_requested",
        "tool_decided",
        "tool_started",
        "tool_finished",
        "turn_ended",
    ]
    finished = events[kinds.index("tool_finished")]
    assert finished["call_id"] == "w1" and finished["status"] == "success"
    ended = events[kinds.index("turn_ended")]
    assert ended["reason"] == "completed"
    assert ended["usage"]["input_tokens"] == 24
    text = "".join(e["text"] for e in events if e["type"] == "text_delta")
    assert text == "Creating it.Created hello.txt."
    assert (workspace / "hello.txt").read_text() == "hi from builtin\n"
    assert anthropic_tool_results(llm.model_requests[1].body) == {
        "w1": ("Created hello.txt (16 bytes).", False)
    }


def test_exec_builtin_agent_denied_call(workspace: Path, llm: FakeLLM) -> None:
    bash = ToolCallSpec("Bash", {"command": "touch nope.txt"}, "b1")
    llm.add(Turn(tool_calls=[bash]), {"text": "Understood."})
    env = agent_env(OPENAI_BASE_URL=llm.openai_base_url)
    del env["ANTHROPIC_API_KEY"]
    done = subprocess.run(
        [*EXEC, "--profile", "openai", "--on-request", "deny", "-p", "touch a file"],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    kinds = [json.loads(line)["type"] for line in done.stdout.splitlines()]
    assert "tool_cancelled" in kinds and "tool_started" not in kinds
    assert not (workspace / "nope.txt").exists()
    assert llm.model_requests[1].body["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "b1",
        "content": "The user denied this tool call. Reason: Denied by the user",
    }
