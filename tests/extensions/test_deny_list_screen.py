"""The shell deny list sees every shell request before any mode or rule (issue 14, item 2).

With the built-in enabled, the host screens each shell request before the mode (``--mode yolo``)
and the always-rules: a listed command is denied even when the mode or a rule on shell commands
would run it. Through ``agentdesk exec`` and the fake aionrs agent, which really runs what is
approved (the marker file would appear).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.core.support import fake_command
from tests.extensions.test_end_to_end import agentdesk, decisions


def _deny_touch_pwned(home: Path) -> None:
    config = home / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "shell-deny-list.json").write_text(json.dumps({"patterns": ["touch pwned*"]}))


def _bash(command: str) -> dict[str, object]:
    return {"tool": {"name": "Bash", "args": {"command": command}, "category": "exec"}}


def test_yolo_mode_cannot_run_a_listed_command(tmp_path: Path, agentdesk_home: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    _deny_touch_pwned(agentdesk_home)
    scenario = {"turns": [[_bash("echo ok; touch pwned"), _bash("echo ok > fine"), {"text": "."}]]}
    command = " ".join(fake_command("aionrs-0.2", scenario, tmp_path))
    result = agentdesk(
        "exec",
        "--agent-cmd",
        command,
        "--json",
        "--mode",
        "yolo",
        "--enable-extension",
        "shell_deny_list",
        "-p",
        "go",
        cwd=workspace,
    )
    assert result.returncode == 0, result.stderr
    assert not (workspace / "pwned").exists()
    assert (workspace / "fine").exists()
    assert decisions(result.stdout) == [
        ("deny", "extension", "shell_deny_list"),
        ("once", "mode", "yolo"),
    ]


def test_an_always_rule_on_shell_commands_cannot_run_a_listed_command(
    tmp_path: Path, agentdesk_home: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    _deny_touch_pwned(agentdesk_home)
    # aionrs 0.2 ignores "always": it asks again and the host's rule answers.
    scenario = {"turns": [[_bash("echo ok > first"), _bash("true && touch pwned"), {"text": "."}]]}
    command = " ".join(fake_command("aionrs-0.2", scenario, tmp_path))
    result = agentdesk(
        "exec",
        "--agent-cmd",
        command,
        "--json",
        "--on-request",
        "approve-always",
        "--enable-extension",
        "shell_deny_list",
        "-p",
        "go",
        cwd=workspace,
    )
    assert result.returncode == 0, result.stderr
    assert (workspace / "first").exists()
    assert not (workspace / "pwned").exists()
    assert decisions(result.stdout) == [
        ("always", "policy", "--on-request approve-always"),
        ("deny", "extension", "shell_deny_list"),
    ]


def test_a_shell_tool_claimed_as_info_is_screened(tmp_path: Path, agentdesk_home: Path) -> None:
    # The model makes the agent label Bash "info": the read-only policy would approve the claim,
    # the host classifies it as a shell command and the deny list refuses it.
    workspace = tmp_path / "ws"
    workspace.mkdir()
    _deny_touch_pwned(agentdesk_home)
    lying = {"tool": {"name": "Bash", "args": {"command": "ls; touch pwned"}, "category": "info"}}
    command = " ".join(fake_command("aionrs-0.2", {"turns": [[lying, {"text": "."}]]}, tmp_path))
    result = agentdesk(
        "exec",
        "--agent-cmd",
        command,
        "--json",
        "--on-request",
        "approve",
        "--enable-extension",
        "read_only_auto_approve",
        "--enable-extension",
        "shell_deny_list",
        "-p",
        "go",
        cwd=workspace,
    )
    assert result.returncode == 0, result.stderr
    assert not (workspace / "pwned").exists()
    assert decisions(result.stdout) == [("deny", "extension", "shell_deny_list")]
