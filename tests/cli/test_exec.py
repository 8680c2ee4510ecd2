"""`agentdesk exec` end to end: a real agentdesk process driving the real fake agent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from desktop.core.events import TextDelta, ToolDecided, TurnEnded, parse_event
from tests.core.support import fake_command


def agentdesk(
    *args: str, cwd: Path, timeout: float = 60, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        input=stdin,
        env=os.environ.copy(),
        check=False,
    )


def agent_cmd(profile: str, scenario: dict[str, Any], folder: Path) -> str:
    return " ".join(fake_command(profile, scenario, folder))


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def test_json_output_and_queued_prompts(workspace: Path) -> None:
    scenario = {"prompts": {"one": [{"text": "first"}], "two": [{"text": "second"}]}}
    result = agentdesk(
        "exec",
        "--workspace",
        str(workspace),
        "--agent-cmd",
        agent_cmd("aionrs-0.2", scenario, workspace.parent),
        "--json",
        "-p",
        "one",
        "-p",
        "two",
        cwd=workspace,
    )
    assert result.returncode == 0, result.stderr
    events = [parse_event(line) for line in result.stdout.splitlines()]
    assert [e.reason for e in events if isinstance(e, TurnEnded)] == ["completed", "completed"]
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "firstsecond"
    assert events[-1].type == "state_changed"


def test_on_request_approve_writes_the_file(workspace: Path) -> None:
    scenario = {
        "turns": [
            [{"tool": {"name": "Write", "args": {"file_path": "out.txt", "content": "ok\n"}}}]
        ]
    }
    result = agentdesk(
        "exec",
        "--agent-cmd",
        agent_cmd("spec", scenario, workspace.parent),
        "--json",
        "--on-request",
        "approve",
        "-p",
        "write it",
        cwd=workspace,
    )
    assert result.returncode == 0, result.stderr
    assert (workspace / "out.txt").read_text() == "ok\n"
    decided = [
        e for e in map(parse_event, result.stdout.splitlines()) if isinstance(e, ToolDecided)
    ]
    assert [(d.decision, d.source, d.source_name) for d in decided] == [
        ("once", "policy", "--on-request approve")
    ]


def test_without_terminal_requests_are_denied_by_default(workspace: Path) -> None:
    scenario = {
        "turns": [[{"tool": {"name": "Write", "args": {"file_path": "no.txt", "content": "x"}}}]]
    }
    result = agentdesk(
        "exec",
        "--agent-cmd",
        agent_cmd("aionrs-0.2", scenario, workspace.parent),
        "-p",
        "write it",
        cwd=workspace,
    )
    assert result.returncode == 0, result.stderr
    assert not (workspace / "no.txt").exists()
    assert "deny (by policy exec without a terminal)" in result.stderr


def test_text_mode_prints_assistant_text_on_stdout(workspace: Path) -> None:
    result = agentdesk(
        "exec", "--agent-cmd", agent_cmd("spec", {}, workspace.parent), "-p", "hello", cwd=workspace
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "You said: hello"
    assert "turn completed" in result.stderr


def test_timeout_stops_the_turn_and_exits_zero(workspace: Path) -> None:
    scenario = {"prompts": {"slow": [{"text": "a"}, {"sleep": 60}], "fast": [{"text": "b"}]}}
    started = time.monotonic()
    result = agentdesk(
        "exec",
        "--agent-cmd",
        agent_cmd("aionrs-0.2", scenario, workspace.parent),
        "--json",
        "--timeout",
        "1",
        "-p",
        "slow",
        "-p",
        "fast",
        cwd=workspace,
    )
    assert time.monotonic() - started < 20
    assert result.returncode == 0, result.stderr
    reasons = [
        e.reason for e in map(parse_event, result.stdout.splitlines()) if isinstance(e, TurnEnded)
    ]
    assert reasons == ["stopped", "completed"]


def test_error_turn_exits_one(workspace: Path) -> None:
    scenario = {"turns": [[{"error": {"message": "Provider error: API error 500"}}]]}
    result = agentdesk(
        "exec",
        "--agent-cmd",
        agent_cmd("aionrs-0.2", scenario, workspace.parent),
        "-p",
        "x",
        cwd=workspace,
    )
    assert result.returncode == 1
    assert "API error 500" in result.stderr


def test_agent_crash_exits_one_with_stderr(workspace: Path) -> None:
    scenario = {"turns": [[{"crash": 7, "stderr": "fatal: out of cheese"}]]}
    result = agentdesk(
        "exec",
        "--agent-cmd",
        agent_cmd("aionrs-0.2", scenario, workspace.parent),
        "-p",
        "x",
        cwd=workspace,
    )
    assert result.returncode == 1
    assert "out of cheese" in result.stderr


def test_start_failure_exits_three_with_stderr_tail(workspace: Path) -> None:
    scenario = {"startup": {"exit": 1, "stderr": "Error: No API key found for provider"}}
    result = agentdesk(
        "exec",
        "--agent-cmd",
        agent_cmd("aionrs-0.2", scenario, workspace.parent),
        "-p",
        "x",
        cwd=workspace,
    )
    assert result.returncode == 3
    assert "No API key found" in result.stderr
    assert "exited with code 1" in result.stderr


def test_missing_agent_program_exits_three(workspace: Path) -> None:
    result = agentdesk("exec", "--agent-cmd", "no-such-agent-xyz", "-p", "x", cwd=workspace)
    assert result.returncode == 3
    assert "no-such-agent-xyz" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["exec"],
        ["exec", "--mode", "wild", "-p", "x"],
        ["exec", "--workspace", "/nonexistent/dir", "-p", "x"],
        ["exec", "--timeout", "0", "-p", "x"],
    ],
)
def test_usage_errors_exit_two(workspace: Path, args: list[str]) -> None:
    result = agentdesk(*args, cwd=workspace)
    assert result.returncode == 2, result.stderr


def test_json_lines_are_one_object_each_with_a_type(workspace: Path) -> None:
    result = agentdesk(
        "exec",
        "--agent-cmd",
        agent_cmd("spec", {}, workspace.parent),
        "--json",
        "-p",
        "multi\nline prompt",
        cwd=workspace,
    )
    for line in result.stdout.splitlines():
        assert "type" in json.loads(line)
