"""Issue 14 item 8: ``agentdesk exec`` never prints a key, not even in an agent's stderr tail.

A real ``agentdesk exec`` process drives the fake aionrs agent, which writes the key it was
started with to stderr and exits (at start, or in the middle of a turn). The key is in exec's
environment under a secret-looking name, as a launch puts it; JSON and text output both show
``[REDACTED]`` in its place.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.core.support import fake_command

KEY = "openai-test-secret-9d41be07c2"  # not key-shaped: only the known value can redact it


def _exec(
    workspace: Path, scenario: dict[str, Any], *flags: str
) -> subprocess.CompletedProcess[str]:
    command = " ".join(fake_command("aionrs-0.2", scenario, workspace.parent))
    return subprocess.run(
        [sys.executable, "-m", "desktop", "exec", "--agent-cmd", command, *flags, "-p", "x"],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "OPENAI_API_KEY": KEY},
        check=False,
    )


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def test_json_stderr_tail_of_a_crash_is_redacted(workspace: Path) -> None:
    scenario = {"turns": [[{"crash": 7, "stderr": f"fatal: key {KEY} rejected"}]]}
    result = _exec(workspace, scenario, "--json")
    assert result.returncode == 1, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    exited = next(e for e in events if e["type"] == "agent_exited")
    assert exited["stderr_tail"] == "fatal: key [REDACTED] rejected"
    assert KEY not in result.stdout + result.stderr


def test_text_stderr_tail_of_a_crash_is_redacted(workspace: Path) -> None:
    scenario = {"turns": [[{"crash": 7, "stderr": f"fatal: key {KEY} rejected"}]]}
    result = _exec(workspace, scenario)
    assert result.returncode == 1
    assert "fatal: key [REDACTED] rejected" in result.stderr
    assert KEY not in result.stdout + result.stderr


@pytest.mark.parametrize("flags", [("--json",), ()])
def test_start_error_is_redacted(workspace: Path, flags: tuple[str, ...]) -> None:
    scenario = {"startup": {"exit": 1, "stderr": f"Error: invalid key {KEY}"}}
    result = _exec(workspace, scenario, *flags)
    assert result.returncode == 3
    assert "Error: invalid key [REDACTED]" in result.stderr
    assert KEY not in result.stdout + result.stderr
