"""`agentdesk exec` loads the built-in extensions switched on in Settings, as the window does."""

from __future__ import annotations

import json
from pathlib import Path

from desktop.core.settings import SettingsStore
from tests.core.support import fake_command
from tests.extensions.test_end_to_end import agentdesk, decisions


def test_deny_list_switched_on_in_settings_blocks_the_command(
    tmp_path: Path, agentdesk_home: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    store = SettingsStore()
    settings = store.settings
    settings.extensions.enabled_builtins = ["shell_deny_list"]
    store.save(settings)
    (agentdesk_home / "config" / "shell-deny-list.json").write_text(
        json.dumps({"patterns": ["touch *"]})
    )
    tool = {"name": "Bash", "args": {"command": "touch marker"}, "category": "exec"}
    command = " ".join(fake_command("spec", {"turns": [[{"tool": tool}]]}, tmp_path))
    result = agentdesk(
        "exec",
        "--agent-cmd",
        command,
        "--json",
        "--on-request",
        "approve",
        "-p",
        "go",
        cwd=workspace,
    )
    assert result.returncode == 0, result.stderr
    assert not (workspace / "marker").exists()
    assert decisions(result.stdout) == [("deny", "extension", "shell_deny_list")]
