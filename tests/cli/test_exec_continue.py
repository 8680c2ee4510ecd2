"""`agentdesk exec --continue` follows the window's resume plan: the agent's own session when it
still has it, otherwise (it refuses the stored session) a summary of the stored transcript."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.cli.test_exec import agent_cmd, agentdesk

SCENARIO = {"prompts": {"remember tangerine": [{"text": "I will remember tangerine"}]}}


def _first_run(workspace: Path, cmd: str) -> str:
    first = agentdesk("exec", "--agent-cmd", cmd, "-p", "remember tangerine", cwd=workspace)
    assert first.returncode == 0, first.stderr
    [conv] = json.loads(agentdesk("history", "list", "--json", cwd=workspace).stdout)
    assert conv["agent_session_id"]
    return str(conv["id"])


def test_continue_resumes_the_agents_session(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    cmd = agent_cmd("spec", SCENARIO, tmp_path)
    conv = _first_run(workspace, cmd)
    again = agentdesk(
        "exec", "--agent-cmd", cmd, "--continue", conv, "-p", "what is history?", cwd=workspace
    )
    assert again.returncode == 0, again.stderr
    assert "(none)" in again.stdout  # its own session: no summary was needed


def test_continue_falls_back_to_a_summary_when_the_session_is_gone(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    cmd = agent_cmd("spec", SCENARIO, tmp_path)
    conv = _first_run(workspace, cmd)
    shutil.rmtree(workspace / ".fake-aionrs" / "sessions")  # the agent lost its sessions
    again = agentdesk(
        "exec", "--agent-cmd", cmd, "--continue", conv, "-p", "what is history?", cwd=workspace
    )
    assert again.returncode == 0, again.stderr
    assert "User: remember tangerine" in again.stdout
    assert "Assistant: I will remember tangerine" in again.stdout
