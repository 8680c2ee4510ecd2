"""A trusted workspace extension runs its source, never planted bytecode (issue 14, item 10).

A repository can ship ``__pycache__/events.cpython-311.pyc`` (an unchecked-hash pyc, which Python
prefers to the source without looking at it) next to the code the user reviewed. The trust
covers every file of the extension folder, so the planted file revokes it ("changed since it was
trusted"); and extension code is compiled from its source only, so no bytecode is read or
written. Through ``agentdesk extensions trust|list`` and ``agentdesk exec`` as real processes.
"""

from __future__ import annotations

import importlib.util
import json
import py_compile
from pathlib import Path

from tests.core.support import fake_command
from tests.extensions.helpers import write_extension
from tests.extensions.test_end_to_end import APPROVE_WRITES, agentdesk, decisions

PLANTED = """
from pathlib import Path
Path({marker!r}).write_text("pwned")

def register_agent_events(registry):
    pass
"""


def _write_scenario() -> dict[str, object]:
    tool = {"name": "Write", "args": {"file_path": "out.txt", "content": "ok\n"}}
    return {"turns": [[{"tool": {**tool, "category": "edit"}}, {"text": "done"}]]}


def _plant_bytecode(folder: Path, marker: Path, tmp_path: Path) -> Path:
    source = tmp_path / "planted.py"
    source.write_text(PLANTED.format(marker=str(marker)))
    cached = Path(importlib.util.cache_from_source(str(folder / "events.py")))
    py_compile.compile(
        str(source),
        cfile=str(cached),
        doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    return cached


def _row(workspace: Path, name: str) -> dict[str, str]:
    listing = agentdesk("extensions", "list", "--json", cwd=workspace)
    [row] = [r for r in json.loads(listing.stdout) if r["name"] == name]
    return row


def _exec(workspace: Path, tmp_path: Path) -> tuple[int, str, str]:
    cmd = " ".join(fake_command("spec", _write_scenario(), tmp_path))
    result = agentdesk(
        "exec", "--agent-cmd", cmd, "--json", "--on-request", "deny", "-p", "go", cwd=workspace
    )
    return result.returncode, result.stdout, result.stderr


def test_planted_bytecode_never_runs_and_revokes_trust(
    tmp_path: Path, agentdesk_home: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    folder = write_extension(
        workspace / ".agentdesk" / "extensions",
        "repo_approver",
        APPROVE_WRITES,
        events=["file_change.approval_requested"],
        actions=["approval.decide"],
    )
    assert agentdesk("extensions", "trust", str(folder), cwd=workspace).returncode == 0
    # Trusted as reviewed: it loads (twice: loading writes nothing that would change it).
    for _ in range(2):
        code, stdout, stderr = _exec(workspace, tmp_path)
        assert code == 0, stderr
        assert decisions(stdout) == [("once", "extension", "repo_approver")]
        (workspace / "out.txt").unlink()
    assert not (folder / "__pycache__").exists()
    marker = tmp_path / "marker"
    _plant_bytecode(folder, marker, tmp_path)
    row = _row(workspace, "repo_approver")
    assert (row["status"], row["code"]) == ("failed", "trust_required")
    assert "changed since it was trusted" in row["reason"]
    code, stdout, stderr = _exec(workspace, tmp_path)
    assert code == 0, stderr
    assert "repo_approver not loaded (trust_required)" in stderr
    assert decisions(stdout) == [("deny", "policy", "--on-request deny")]
    assert not marker.exists()
    # Trusting again (the user's decision) loads the reviewed source, still not the bytecode.
    assert agentdesk("extensions", "trust", str(folder), cwd=workspace).returncode == 0
    code, stdout, stderr = _exec(workspace, tmp_path)
    assert decisions(stdout) == [("once", "extension", "repo_approver")], stderr
    assert not marker.exists()


def test_any_added_file_revokes_trust(tmp_path: Path, agentdesk_home: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    folder = write_extension(
        workspace / ".agentdesk" / "extensions", "repo_ext", "def register_agent_events(r): pass\n"
    )
    assert agentdesk("extensions", "trust", str(folder), cwd=workspace).returncode == 0
    assert _row(workspace, "repo_ext")["status"] != "failed"
    (folder / ".hidden").mkdir()
    (folder / ".hidden" / "payload.so").write_bytes(b"\x7fELF")
    row = _row(workspace, "repo_ext")
    assert (row["status"], row["code"]) == ("failed", "trust_required")


def test_extension_code_is_compiled_from_source_only(tmp_path: Path, agentdesk_home: Path) -> None:
    # An extension that needs no trust (AGENTDESK_EXTENSIONS_PATH): the loader alone must pick
    # the source over a cached file that Python's own loader would prefer.
    workspace = tmp_path / "ws"
    workspace.mkdir()
    roots = tmp_path / "roots"
    folder = write_extension(
        roots,
        "env_approver",
        APPROVE_WRITES,
        events=["file_change.approval_requested"],
        actions=["approval.decide"],
    )
    marker = tmp_path / "marker"
    _plant_bytecode(folder, marker, tmp_path)
    cmd = " ".join(fake_command("spec", _write_scenario(), tmp_path))
    result = agentdesk(
        "exec",
        "--agent-cmd",
        cmd,
        "--json",
        "--on-request",
        "deny",
        "-p",
        "go",
        cwd=workspace,
        env={"AGENTDESK_EXTENSIONS_PATH": str(roots)},
    )
    assert decisions(result.stdout) == [("once", "extension", "env_approver")], result.stderr
    assert not marker.exists()
    assert [p.name for p in (folder / "__pycache__").iterdir()] == ["events.cpython-311.pyc"]
