"""The shell deny list sees every shell request before any mode or rule (issue 14, item 2).

With the built-in enabled, the host screens each shell request before the mode (``--mode yolo``)
and the always-rules: a listed command is denied even when the mode or a rule on shell commands
would run it. Through ``agentdesk exec`` and the fake aionrs agent, which really runs what is
approved (the marker file would appear).
"""

from __future__ import annotations

from pathlib import Path

from tests.extensions.deny_list_runs import bash, exec_with_deny_list
from tests.extensions.test_end_to_end import decisions


def test_yolo_mode_cannot_run_a_listed_command(tmp_path: Path, agentdesk_home: Path) -> None:
    steps = [bash("echo ok; touch pwned"), bash("echo ok > fine")]
    workspace, result = exec_with_deny_list(tmp_path, agentdesk_home, steps, "--mode", "yolo")
    assert not (workspace / "pwned").exists()
    assert (workspace / "fine").exists()
    assert decisions(result.stdout) == [
        ("deny", "extension", "shell_deny_list"),
        ("once", "mode", "yolo"),
    ]


def test_an_always_rule_on_shell_commands_cannot_run_a_listed_command(
    tmp_path: Path, agentdesk_home: Path
) -> None:
    # aionrs 0.2 ignores "always": it asks again and the host's rule answers.
    steps = [bash("echo ok > first"), bash("true && touch pwned")]
    workspace, result = exec_with_deny_list(
        tmp_path, agentdesk_home, steps, "--on-request", "approve-always"
    )
    assert (workspace / "first").exists()
    assert not (workspace / "pwned").exists()
    assert decisions(result.stdout) == [
        ("always", "policy", "--on-request approve-always"),
        ("deny", "extension", "shell_deny_list"),
    ]


def test_a_shell_tool_claimed_as_info_is_screened(tmp_path: Path, agentdesk_home: Path) -> None:
    # The model makes the agent label Bash "info": the read-only policy would approve the claim,
    # the host classifies it as a shell command and the deny list refuses it.
    lying = bash("ls; touch pwned", category="info")
    workspace, result = exec_with_deny_list(
        tmp_path, agentdesk_home, [lying], "--on-request", "approve",
        "--enable-extension", "read_only_auto_approve",
    )  # fmt: skip
    assert not (workspace / "pwned").exists()
    assert decisions(result.stdout) == [("deny", "extension", "shell_deny_list")]
