"""Checkpoints end to end: the built-in agent (``python -m desktop.agent``), driven by the fake
LLM server through ``agentdesk exec``, writes a file, edits one and runs a command that deletes
one, appends to another and creates a folder; ``agentdesk history changes`` lists exactly those
files, ``history restore --before-turn 1 --yes`` gives back the original tree (content and mode)
and ``history restore --undo`` the tree after the turn. In a folder that is not a git repository
and in one that is, whose ``.git`` stays byte-identical throughout."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agent.harness import agent_env
from tests.checkpoints.trees import tree_state
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn

AGENTDESK = [sys.executable, "-m", "desktop"]
BASH = "rm gone.txt && echo more >> log.txt && mkdir made && printf 'x\\n' > made/inside.txt"
EXPECTED = {
    "new.txt": "added",
    "edit.txt": "modified",
    "gone.txt": "deleted",
    "log.txt": "modified",
    "made/inside.txt": "added",
}


def _run(args: list[str], workspace: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*AGENTDESK, *args],
        cwd=workspace,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )


def _on_terminal(args: list[str], env: dict[str, str], answer: str) -> tuple[int, str]:
    """Run ``agentdesk ARGS`` on a pseudo-terminal, type ``answer``; its exit code and output."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [*AGENTDESK, *args], stdin=terminal, stdout=terminal, stderr=terminal, env=env
    )
    os.close(terminal)
    os.write(controller, answer.encode())
    output = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the child closed the terminal (EIO)
            break
        if not chunk:
            break
        output += chunk
    os.close(controller)
    return process.wait(timeout=60), output.decode(errors="replace")


def _seed(workspace: Path) -> None:
    (workspace / "keep.txt").write_text("untouched\n")
    (workspace / "edit.txt").write_text("alpha\nbeta\ngamma\n")
    (workspace / "gone.txt").write_text("bye\n")
    (workspace / "log.txt").write_text("line 1\n")
    (workspace / "tool.sh").write_text("#!/bin/sh\necho hi\n")
    (workspace / "tool.sh").chmod(0o755)
    (workspace / "sub").mkdir()
    (workspace / "sub" / "deep.bin").write_bytes(bytes(range(256)))
    (workspace / "link").symlink_to("keep.txt")


def _git(workspace: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", *args],
        cwd=workspace,
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize("with_git", [False, True], ids=["plain-folder", "git-repository"])
def test_exec_turn_changes_restore_and_undo(workspace: Path, llm: FakeLLM, with_git: bool) -> None:
    _seed(workspace)
    if with_git:
        _git(workspace, "init", "-q")
        _git(workspace, "add", "-A")
        _git(workspace, "commit", "-q", "-m", "start")
    dot_git = tree_state(workspace / ".git") if with_git else {}
    original = tree_state(workspace, skip=(".git",))
    llm.add(
        Turn(tool_calls=[ToolCallSpec("Write", {"file_path": "new.txt", "content": "new\n"}, "w")]),
        Turn(
            tool_calls=[
                ToolCallSpec(
                    "Edit",
                    {"file_path": "edit.txt", "old_string": "beta", "new_string": "BETA"},
                    "e",
                )
            ]
        ),
        Turn(tool_calls=[ToolCallSpec("Bash", {"command": BASH}, "b")]),
        {"text": "Done."},
    )
    env = agent_env(ANTHROPIC_BASE_URL=llm.url)
    done = _run(
        ["exec", "--agent", "builtin", "--json", "--on-request", "approve", "-p", "Change things"],
        workspace,
        env,
    )
    assert done.returncode == 0, done.stderr
    after = tree_state(workspace, skip=(".git",))
    assert (workspace / "made" / "inside.txt").read_text() == "x\n"
    assert not (workspace / "gone.txt").exists()

    listed = _run(["history", "list", "--json"], workspace, env)
    assert listed.returncode == 0, listed.stderr
    (conversation,) = json.loads(listed.stdout)
    assert conversation["workspace"] == str(workspace)
    assert conversation["turns"] == 1
    conv_id = conversation["id"]

    changes = _run(
        ["history", "changes", conv_id, "--turn", "1", "--format", "json"], workspace, env
    )
    assert changes.returncode == 0, changes.stderr
    files = {f["path"]: f["kind"] for f in json.loads(changes.stdout)["files"]}
    assert files == EXPECTED
    stat = _run(["history", "changes", conv_id], workspace, env)
    assert stat.returncode == 0, stat.stderr
    assert "5 files changed" in stat.stdout
    diff = _run(["history", "changes", conv_id, "--turn", "1", "--format", "diff"], workspace, env)
    assert "-beta\n+BETA\n" in diff.stdout and "+more\n" in diff.stdout

    asked, said = _on_terminal(["history", "restore", conv_id, "--before-turn", "1"], env, "n\n")
    assert asked == 1, said
    assert "Restore? [y/N]" in said and "gone.txt" in said and "Nothing was changed." in said
    assert tree_state(workspace, skip=(".git",)) == after

    refused = _run(["history", "restore", conv_id, "--before-turn", "1"], workspace, env)
    assert refused.returncode == 2
    assert "--yes" in refused.stderr
    assert tree_state(workspace, skip=(".git",)) == after

    restored = _run(["history", "restore", conv_id, "--before-turn", "1", "--yes"], workspace, env)
    assert restored.returncode == 0, restored.stderr
    assert "Restored 5 files." in restored.stdout
    assert tree_state(workspace, skip=(".git",)) == original

    undone = _run(["history", "restore", conv_id, "--undo"], workspace, env)
    assert undone.returncode == 0, undone.stderr
    assert tree_state(workspace, skip=(".git",)) == after

    again = _run(["history", "restore", conv_id, "--undo"], workspace, env)
    assert again.returncode == 1
    assert "no restore to undo" in again.stderr
    if with_git:
        assert tree_state(workspace / ".git") == dot_git
