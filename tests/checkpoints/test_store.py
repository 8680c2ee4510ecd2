"""The checkpoint store on real folders and a real git object store (pygit2): ignore rules, the
size limit, binary files, symbolic links, the executable bit, restores that cannot write a file,
a workspace that disappears, hunks, plans and pruning."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from desktop.core.checkpoints.model import ChangeKind, CheckpointKind
from desktop.core.checkpoints.store import CheckpointError, CheckpointStore, NothingToUndo
from tests.checkpoints.trees import tree_state
from tests.storage.test_history_faults import mounted

BEFORE, AFTER = CheckpointKind.TURN_BEFORE, CheckpointKind.TURN_AFTER


def _store(workspace: Path, data_dir: Path, **limits: int) -> CheckpointStore:
    return CheckpointStore.open(workspace, data_dir, **limits)


def _turn(store: CheckpointStore, conv: str, turn: int, change: object) -> None:
    store.record(conv, turn, BEFORE)
    assert callable(change)
    change()
    store.record(conv, turn, AFTER)


def _paths(store: CheckpointStore, conv: str, turn: int) -> dict[str, ChangeKind]:
    changes = store.turn_changes(conv, turn).changes
    assert changes is not None
    return {c.path: c.kind for c in changes.files}


def test_nothing_is_written_into_the_workspace_or_its_git(workspace: Path, data_dir: Path) -> None:
    (workspace / "a.txt").write_text("a\n")
    subprocess.run(["git", "init", "-q"], cwd=workspace, check=True)
    before = tree_state(workspace)
    store = _store(workspace, data_dir)
    _turn(store, "c", 1, lambda: (workspace / "a.txt").write_text("b\n"))
    assert _paths(store, "c", 1) == {"a.txt": ChangeKind.MODIFIED}
    store.restore("c", 1)
    assert tree_state(workspace) == before
    assert store.path.parent == data_dir / "checkpoints"


def test_ignore_rules_and_dot_git_are_honoured(workspace: Path, data_dir: Path) -> None:
    (workspace / ".gitignore").write_text("build/\n*.log\n")
    (workspace / ".agentdeskignore").write_text("secret*\n")
    (workspace / ".git").mkdir()
    store = _store(workspace, data_dir)

    def change() -> None:
        (workspace / "build").mkdir()
        (workspace / "build" / "out.o").write_bytes(b"\0obj")
        (workspace / "run.log").write_text("log\n")
        (workspace / "secret.key").write_text("k\n")
        (workspace / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
        (workspace / "kept.txt").write_text("kept\n")

    _turn(store, "c", 1, change)
    assert _paths(store, "c", 1) == {"kept.txt": ChangeKind.ADDED}


def test_files_over_the_size_limit_are_named_and_left_alone(
    workspace: Path, data_dir: Path
) -> None:
    store = _store(workspace, data_dir, size_limit=1000)
    assert CheckpointStore.open(workspace, data_dir) is store  # one store per workspace
    assert store.size_limit == 1000  # an open without limits keeps the store's
    (workspace / "small.txt").write_text("s\n")

    def change() -> None:
        (workspace / "big.bin").write_bytes(b"x" * 2000)
        (workspace / "small.txt").write_text("t\n")

    _turn(store, "c", 1, change)
    after = store.turn_changes("c", 1).after
    assert after is not None and after.skipped == ("big.bin",)
    assert _paths(store, "c", 1) == {"small.txt": ChangeKind.MODIFIED}
    result = store.restore("c", 1)
    assert result.complete and result.restored == ("small.txt",)
    assert (workspace / "big.bin").stat().st_size == 2000


def test_binary_files_symlinks_and_the_executable_bit_round_trip(
    workspace: Path, data_dir: Path
) -> None:
    (workspace / "blob.bin").write_bytes(bytes(range(256)) * 4)
    (workspace / "tool.sh").write_text("#!/bin/sh\n")
    outside = workspace.parent / "outside.txt"
    outside.write_text("not ours\n")
    (workspace / "out").symlink_to(outside)
    (workspace / "in").symlink_to("tool.sh")
    original = tree_state(workspace)
    store = _store(workspace, data_dir)

    def change() -> None:
        (workspace / "blob.bin").write_bytes(b"\0\1\2changed")
        (workspace / "tool.sh").chmod(0o755)
        (workspace / "in").unlink()
        (workspace / "in").symlink_to("blob.bin")
        (workspace / "out").unlink()
        outside.write_text("changed outside\n")

    _turn(store, "c", 1, change)
    changes = store.turn_changes("c", 1).changes
    assert changes is not None
    by_path = {c.path: c for c in changes.files}
    assert set(by_path) == {"blob.bin", "tool.sh", "in", "out"}
    assert by_path["blob.bin"].binary and by_path["blob.bin"].diff == ""
    assert by_path["tool.sh"].kind is ChangeKind.MODE
    assert by_path["in"].symlink and "+blob.bin" in by_path["in"].diff
    assert by_path["out"].kind is ChangeKind.DELETED and by_path["out"].symlink
    after = tree_state(workspace)
    assert store.restore("c", 1).complete
    assert tree_state(workspace) == original
    assert outside.read_text() == "changed outside\n"  # a link is never followed
    store.undo_restore("c")
    assert tree_state(workspace) == after


def test_a_read_only_file_fails_alone_and_undo_puts_all_back(
    workspace: Path, data_dir: Path
) -> None:
    (workspace / "a.txt").write_text("a1\n")
    (workspace / "b.txt").write_text("b1\n")
    store = _store(workspace, data_dir)

    def change() -> None:
        (workspace / "a.txt").write_text("a2\n")
        (workspace / "b.txt").write_text("b2\n")

    _turn(store, "c", 1, change)
    (workspace / "b.txt").chmod(0o444)
    after = tree_state(workspace)
    result = store.restore("c", 1)
    assert [f.path for f in result.failed] == ["b.txt"]
    assert "read-only" in result.failed[0].reason
    assert result.restored == ("a.txt",)
    assert (workspace / "a.txt").read_text() == "a1\n"
    assert (workspace / "b.txt").read_text() == "b2\n"
    assert store.undo_restore("c").complete
    assert tree_state(workspace) == after


def test_a_vanished_workspace_gives_a_checkpoint_with_a_problem(
    workspace: Path, data_dir: Path
) -> None:
    (workspace / "a.txt").write_text("a\n")
    store = _store(workspace, data_dir)
    store.record("c", 1, BEFORE)
    shutil.rmtree(workspace)
    after = store.record("c", 1, AFTER)
    assert not after.complete and "gone" in (after.problem or "")
    with pytest.raises(CheckpointError) as raised:
        store.restore("c", 1)
    assert "could not be recorded" in raised.value.message


def test_restore_is_refused_while_a_turn_runs(workspace: Path, data_dir: Path) -> None:
    store = _store(workspace, data_dir)
    _turn(store, "c", 1, lambda: (workspace / "a.txt").write_text("a\n"))
    store.set_running("other", True)
    with pytest.raises(CheckpointError, match="stop it"):
        store.restore("c", 1)
    store.set_running("other", False)
    assert store.restore("c", 1).restored == ("a.txt",)
    assert not (workspace / "a.txt").exists()
    store.undo_restore("c")
    with pytest.raises(NothingToUndo):
        store.undo_restore("c")


def test_one_hunk_is_reverted_and_later_edits_are_marked(workspace: Path, data_dir: Path) -> None:
    lines = [f"line {n}\n" for n in range(30)]
    (workspace / "f.txt").write_text("".join(lines))
    store = _store(workspace, data_dir)
    edited = list(lines)
    edited[2], edited[25] = "TWO\n", "TWENTY-FIVE\n"
    _turn(store, "c", 1, lambda: (workspace / "f.txt").write_text("".join(edited)))
    changes = store.turn_changes("c", 1).changes
    assert changes is not None and changes.files[0].diff.count("@@ -") == 2
    result = store.revert("c", 1, "f.txt", hunk=1)
    assert result.restored == ("f.txt",)
    assert (workspace / "f.txt").read_text().splitlines()[2:26:23] == ["TWO", "line 25"]
    store.undo_restore("c")
    assert (workspace / "f.txt").read_text() == "".join(edited)
    (workspace / "g.txt").write_text("the user's\n")
    plan = store.plan_restore("c", 1)
    assert {(c.path, c.edited_since) for c in plan.changes.files} == {
        ("f.txt", False),
        ("g.txt", True),
    }


def test_old_conversations_are_pruned_within_the_budget(workspace: Path, data_dir: Path) -> None:
    store = _store(workspace, data_dir)
    store.prune_grace = 0.0
    for turn in (1, 2, 3):
        payload = os.urandom(200_000)
        _turn(store, "old", turn, lambda p=payload: (workspace / "old.bin").write_bytes(p))
    kept_turn = store.turn_changes("old", 3)
    used = sum(f.stat().st_size for f in store.path.rglob("*") if f.is_file())
    store.budget = used - 100_000  # the first turn's file must go (the second is turn 3's before)
    (workspace / "old.bin").unlink()
    _turn(store, "new", 1, lambda: (workspace / "n.txt").write_text("n\n"))
    assert store.turns("old") == [3]
    assert store.turns("new") == [1]
    assert store.turn_changes("old", 3) == kept_turn
    assert sum(f.stat().st_size for f in store.path.rglob("*") if f.is_file()) <= store.budget


def test_a_full_disk_gives_an_incomplete_checkpoint_and_the_store_recovers(
    workspace: Path, tmp_path: Path
) -> None:
    """The store's folder on a real 1 MiB tmpfs: a workspace whose objects do not fit is
    recorded as incomplete with the reason (never an exception), and once there is room again
    the next checkpoint is complete."""
    with mounted(tmp_path / "small", "1m") as data_dir:
        for n in range(8):  # 2.4 MB that does not compress
            (workspace / f"blob{n}.bin").write_bytes(os.urandom(300_000))
        store = _store(workspace, data_dir)
        full = store.record("c", 1, BEFORE)
        assert not full.complete
        assert full.problem == "The disk is full, so the workspace's state could not be recorded."
        for n in range(8):
            (workspace / f"blob{n}.bin").unlink()
        (workspace / "small.txt").write_text("fits\n")
        after = store.record("c", 1, AFTER)
        assert after.complete, after.problem
        assert [c.kind for c in store.checkpoints("c")][-1] == AFTER
