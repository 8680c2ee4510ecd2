"""Run ``agentdesk exec`` with the shell deny list on, the fake aionrs agent really running
what is approved (shared by the deny-list tests)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.core.support import fake_command
from tests.extensions.test_end_to_end import agentdesk

#: The deny list of these tests: a harmless marker command stands for a dangerous one.
PATTERNS = ["touch pwned*"]


def bash(command: str, category: str = "exec") -> dict[str, Any]:
    """A scenario step: the agent asks to run ``command`` (claiming ``category``)."""
    return {"tool": {"name": "Bash", "args": {"command": command}, "category": category}}


def exec_with_deny_list(
    tmp_path: Path, home: Path, steps: list[dict[str, Any]], *options: str
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The workspace and the finished ``exec --json`` run of one turn of ``steps`` with the
    deny list (``PATTERNS``) enabled and ``options`` (mode, ``--on-request``, extensions)."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    config = home / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "shell-deny-list.json").write_text(json.dumps({"patterns": PATTERNS}))
    scenario = {"turns": [[*steps, {"text": "."}]]}
    command = " ".join(fake_command("aionrs-0.2", scenario, tmp_path))
    result = agentdesk(
        "exec", "--agent-cmd", command, "--json", *options,
        "--enable-extension", "shell_deny_list", "-p", "go", cwd=workspace,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return workspace, result
