"""The provider key never leaks: not into files Agent Desk writes, not to the agent's tools.

Through ``agentdesk exec --agent builtin`` (the real host, the real built-in agent, the fake LLM):
- issue 14 item 6: a key that shows up in model text and in a file the model reads is in no
  session file, history database or protocol log under the Agent Desk home;
- issue 14 item 7: an approved Bash command that prints the agent's ``/proc/$PPID/environ`` and its
  own environment sees no key (the host passes it through an inherited pipe, not the environment).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.agent.harness import ROOT, agent_env, running
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn, anthropic_tool_results

# Not key-shaped on purpose: only the known value, not the ``sk-…`` pattern, can redact it.
KEY = "anthropic-test-secret-5f3c9a1e7b2d"
EXEC = [sys.executable, "-m", "desktop", "exec", "--agent", "builtin", "--json"]


def _exec(workspace: Path, llm: FakeLLM, prompt: str, **extra: str) -> list[dict[str, object]]:
    env = agent_env(ANTHROPIC_BASE_URL=llm.url, ANTHROPIC_API_KEY=KEY, **extra)
    del env["OPENAI_API_KEY"]
    done = subprocess.run(
        [*EXEC, "--on-request", "approve", "-p", prompt],
        cwd=workspace,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _files_with_key(home: Path) -> list[Path]:
    return [p for p in home.rglob("*") if p.is_file() and KEY.encode() in p.read_bytes()]


def test_key_in_model_text_and_tool_output_is_in_no_file(workspace: Path, llm: FakeLLM) -> None:
    (workspace / "notes.txt").write_text(f"the key is {KEY}\n")
    read = ToolCallSpec("Read", {"file_path": "notes.txt"}, "r1")
    llm.add(Turn(text=f"I see {KEY} here.", tool_calls=[read]), {"text": f"It was {KEY}."})
    events = _exec(workspace, llm, "show the key", AGENTDESK_PROTOCOL_LOG="1")
    finished = next(e for e in events if e["type"] == "tool_finished")
    assert finished["status"] == "success"
    # The key really went through the conversation: the model was sent the file's text.
    results = anthropic_tool_results(llm.model_requests[1].body)
    assert KEY in results["r1"][0]

    home = Path(os.environ["AGENTDESK_HOME"])
    sessions = list(home.rglob("agent-sessions/*/*.json"))
    logs = list(home.rglob("protocol/*.log"))
    databases = list(home.rglob("history.sqlite3*"))
    assert sessions and logs and databases, sorted(str(p) for p in home.rglob("*"))
    assert "[REDACTED]" in sessions[0].read_text()
    assert _files_with_key(home) == []


def test_approved_bash_cannot_read_the_key_from_the_agent(workspace: Path, llm: FakeLLM) -> None:
    command = "tr '\\0' '\\n' < /proc/$PPID/environ; echo ---; env"
    bash = ToolCallSpec("Bash", {"command": command}, "b1")
    llm.add(Turn(tool_calls=[bash]), {"text": "Done."})
    _exec(workspace, llm, "print the environment")
    output, is_error = anthropic_tool_results(llm.model_requests[1].body)["b1"]
    assert not is_error, output
    parent_env, _, own_env = output.partition("---")
    # Both listings really are there (the agent's environment holds PYTHONPATH, so does env's).
    assert f"PYTHONPATH={ROOT}" in parent_env and f"PYTHONPATH={ROOT}" in own_env, output
    assert KEY not in output
    assert "ANTHROPIC_API_KEY" not in output


def test_agent_run_by_hand_hides_the_key_from_its_tools(workspace: Path, llm: FakeLLM) -> None:
    """Started by hand with the key in its environment (no Agent Desk, no key pipe): the agent
    moves the key out of its environment before any tool runs, so ``/proc/$PPID/environ`` of
    an approved Bash command shows no key, and the agent still talks to the provider with it."""
    command = "tr '\\0' '\\n' < /proc/$PPID/environ; echo ---; env"
    llm.add(Turn(tool_calls=[ToolCallSpec("Bash", {"command": command}, "b1")]), {"text": "Ok."})
    env = agent_env(ANTHROPIC_API_KEY=KEY)
    with running(workspace, llm, provider="anthropic", env=env) as agent:
        agent.send({"type": "message", "msg_id": "m1", "input": "print the environment"})
        agent.until("tool_request")
        agent.send({"type": "tool_approve", "call_id": "b1", "scope": "once"})
        agent.until("stream_end")
    output, is_error = anthropic_tool_results(llm.model_requests[1].body)["b1"]
    assert not is_error, output
    parent_env, _, own_env = output.partition("---")
    assert f"PYTHONPATH={ROOT}" in parent_env and f"PYTHONPATH={ROOT}" in own_env, output
    assert KEY not in output
    assert "ANTHROPIC_API_KEY" not in output
    sent = llm.model_requests[0].headers
    assert KEY in (sent.get("x-api-key") or sent.get("authorization", ""))  # the key was used
