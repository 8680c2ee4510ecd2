"""End to end: ``agentdesk exec`` as a real process, the real fake aionrs agent, real extensions.

- a user extension approves a Write that ``--on-request deny`` would refuse: the file is written
  and the decision says which extension made it;
- the built-in deny-list extension refuses a command that ``--on-request approve`` would run;
- workspace extensions load only after ``agentdesk extensions trust``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop.core.events import ToolDecided, parse_event
from tests.core.support import fake_command
from tests.extensions.helpers import write_extension

APPROVE_WRITES = """
def approve(event, tools):
    ctx = event["payload"]["context"]
    return {"kind": "action_request", "actionType": "approval.decide",
            "payload": {"approvalId": ctx["approvalId"], "decision": "accept"}}

def register_agent_events(registry):
    registry.on("file_change.approval_requested", approve)
"""


def agentdesk(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        check=False,
    )


def decisions(stdout: str) -> list[tuple[str, str, str | None]]:
    events = [parse_event(line) for line in stdout.splitlines()]
    return [(e.decision, e.source, e.source_name) for e in events if isinstance(e, ToolDecided)]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def write_scenario() -> dict[str, Any]:
    tool = {"name": "Write", "args": {"file_path": "out.txt", "content": "ok\n"}}
    return {"turns": [[{"tool": tool}, {"text": "done"}]]}


def test_extension_approves_write_that_on_request_would_deny(
    workspace: Path, tmp_path: Path
) -> None:
    roots = tmp_path / "ext-path"
    write_extension(
        roots,
        "approver",
        APPROVE_WRITES,
        events=["file_change.approval_requested"],
        actions=["approval.decide"],
    )
    cmd = " ".join(fake_command("spec", write_scenario(), tmp_path))
    result = agentdesk(
        "exec",
        "--agent-cmd",
        cmd,
        "--json",
        "--on-request",
        "deny",
        "-p",
        "write it",
        cwd=workspace,
        env={"AGENTDESK_EXTENSIONS_PATH": str(roots)},
    )
    assert result.returncode == 0, result.stderr
    assert (workspace / "out.txt").read_text() == "ok\n"
    assert decisions(result.stdout) == [("once", "extension", "approver")]


def test_without_the_extension_on_request_deny_wins(workspace: Path, tmp_path: Path) -> None:
    roots = tmp_path / "ext-path"
    write_extension(
        roots,
        "approver",
        APPROVE_WRITES,
        events=["file_change.approval_requested"],
        actions=["approval.decide"],
    )
    cmd = " ".join(fake_command("spec", write_scenario(), tmp_path))
    result = agentdesk(
        "exec",
        "--agent-cmd",
        cmd,
        "--json",
        "--on-request",
        "deny",
        "--no-extensions",
        "-p",
        "write it",
        cwd=workspace,
        env={"AGENTDESK_EXTENSIONS_PATH": str(roots)},
    )
    assert result.returncode == 0, result.stderr
    assert not (workspace / "out.txt").exists()
    assert decisions(result.stdout) == [("deny", "policy", "--on-request deny")]


def test_deny_list_blocks_command_the_user_would_approve(
    workspace: Path, tmp_path: Path, agentdesk_home: Path
) -> None:
    config = agentdesk_home / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "shell-deny-list.json").write_text(json.dumps({"patterns": ["touch *"]}))
    tool = {"name": "Bash", "args": {"command": "touch marker"}, "category": "exec"}
    scenario = {"turns": [[{"tool": tool}, {"text": "done"}]]}
    cmd = " ".join(fake_command("spec", scenario, tmp_path))
    result = agentdesk(
        "exec",
        "--agent-cmd",
        cmd,
        "--json",
        "--on-request",
        "approve",
        "--enable-extension",
        "shell_deny_list",
        "-p",
        "touch it",
        cwd=workspace,
    )
    assert result.returncode == 0, result.stderr
    assert not (workspace / "marker").exists()
    assert decisions(result.stdout) == [("deny", "extension", "shell_deny_list")]
    # A command off the list still follows --on-request.
    tool["args"] = {"command": "echo hi > allowed"}
    cmd = " ".join(fake_command("spec", scenario, tmp_path))
    result = agentdesk(
        "exec",
        "--agent-cmd",
        cmd,
        "--json",
        "--on-request",
        "approve",
        "--enable-extension",
        "shell_deny_list",
        "-p",
        "echo",
        cwd=workspace,
    )
    assert (workspace / "allowed").exists(), result.stderr
    assert decisions(result.stdout) == [("once", "policy", "--on-request approve")]


def test_workspace_extension_needs_trust(workspace: Path, tmp_path: Path) -> None:
    folder = write_extension(
        workspace / ".agentdesk" / "extensions",
        "repo_approver",
        APPROVE_WRITES,
        events=["file_change.approval_requested"],
        actions=["approval.decide"],
    )
    listing = agentdesk("extensions", "list", "--json", cwd=workspace)
    [row] = [r for r in json.loads(listing.stdout) if r["name"] == "repo_approver"]
    assert (row["status"], row["code"]) == ("failed", "trust_required")
    cmd = " ".join(fake_command("spec", write_scenario(), tmp_path))
    denied = agentdesk(
        "exec",
        "--agent-cmd",
        cmd,
        "--json",
        "--on-request",
        "deny",
        "-p",
        "write it",
        cwd=workspace,
    )
    assert not (workspace / "out.txt").exists(), denied.stderr
    trusted = agentdesk("extensions", "trust", str(folder), cwd=workspace)
    assert trusted.returncode == 0 and "repo_approver" in trusted.stdout
    approved = agentdesk(
        "exec",
        "--agent-cmd",
        cmd,
        "--json",
        "--on-request",
        "deny",
        "-p",
        "write it",
        cwd=workspace,
    )
    assert (workspace / "out.txt").read_text() == "ok\n", approved.stderr
    # Changed code must be trusted again.
    (folder / "events.py").write_text(APPROVE_WRITES + "\n# changed\n")
    listing = agentdesk("extensions", "list", "--json", cwd=workspace)
    [row] = [r for r in json.loads(listing.stdout) if r["name"] == "repo_approver"]
    assert row["code"] == "trust_required"
