"""The git side of the checkpoint store: snapshots, checkpoints, change sets, restores.

``desktop.core.checkpoints.store.CheckpointStore`` holds one ``CheckpointEngine`` per workspace,
made on first use (so importing the store, and opening it on the GUI thread, never loads
pygit2) and called under the store's lock. A record never raises for the workspace's faults (a
folder gone, an unreadable file, a full disk): the checkpoint says what is missing in
``problem``. Every restore (and revert) records the workspace first (``RESTORE_BEFORE``), so
``undo_restore`` can put it back.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pygit2
from pygit2.enums import FileMode

from desktop.core.checkpoints import errors as said
from desktop.core.checkpoints import repository as repo_io
from desktop.core.checkpoints.diffing import (
    HunkMismatch,
    change_set,
    path_patch,
    revert_hunk,
    tree_diff,
)
from desktop.core.checkpoints.errors import CheckpointError, NothingToUndo
from desktop.core.checkpoints.model import (
    ChangeSet,
    Checkpoint,
    CheckpointKind,
    FailedPath,
    RestorePlan,
    RestoreResult,
    TurnChanges,
)
from desktop.core.checkpoints.pruning import prune
from desktop.core.checkpoints.restoring import restore_paths, write_bytes
from desktop.core.texts import CoreText

log = logging.getLogger(__name__)


class RepositoryError(Exception):
    """The checkpoint repository cannot be created or opened."""


class CheckpointEngine:
    """The git side of a ``CheckpointStore`` (its caller holds the store's lock)."""

    def __init__(self, workspace: Path, path: Path) -> None:
        self.workspace = workspace
        self.path = path
        self.size_limit = 10 * 2**20
        self.budget = 2 * 2**30
        #: Loose objects younger than this many seconds survive pruning.
        self.prune_grace = 60.0
        try:
            self._repo = repo_io.open_repository(path, workspace)
        except (OSError, pygit2.GitError) as exc:
            raise RepositoryError(str(exc)) from exc

    def prepare(self) -> None:
        """Bring the index up to date with the workspace without recording anything."""
        try:
            repo_io.take_snapshot(self._repo, self.workspace, self.size_limit)
        except (OSError, pygit2.GitError, repo_io.DiskFull) as exc:
            log.info("checkpoint store of %s not prepared: %s", self.workspace, exc)

    def record(
        self, conversation_id: str, turn: int, kind: CheckpointKind, call_id: str | None
    ) -> Checkpoint:
        """Record the workspace as it is now; faults of the workspace or the disk give a
        checkpoint with ``problem`` set instead of an exception."""
        snapshot: repo_io.WorkspaceTree | None = None
        problem: CoreText | None = None
        try:
            snapshot = repo_io.take_snapshot(self._repo, self.workspace, self.size_limit)
        except FileNotFoundError as exc:
            problem = said.workspace_gone()
            log.warning("checkpoint of %s not taken: %s", self.workspace, exc)
        except repo_io.DiskFull as exc:
            problem = said.disk_full()
            log.warning("checkpoint of %s not taken: %s", self.workspace, exc)
        except (OSError, pygit2.GitError) as exc:
            problem = said.not_recorded()
            log.warning("checkpoint of %s failed", self.workspace, exc_info=exc)
        if snapshot is not None and snapshot.unreadable:
            names = ", ".join(snapshot.unreadable[:5])
            problem = said.unreadable(names)
        if snapshot is None:
            return Checkpoint(
                id="", conversation_id=conversation_id, turn=turn, kind=kind,
                created=0.0, call_id=call_id, problem=problem.english if problem else None,
                problem_text=problem,
            )  # fmt: skip
        try:
            checkpoint = repo_io.write_checkpoint(
                self._repo, conversation_id, turn, kind, call_id, snapshot, problem
            )
            checkpoint = dataclasses.replace(checkpoint, problem_text=problem)
        except (repo_io.DiskFull, OSError, pygit2.GitError) as exc:
            log.warning("checkpoint of %s not written: %s", self.workspace, exc)
            return Checkpoint(
                id="", conversation_id=conversation_id, turn=turn, kind=kind, created=0.0,
                call_id=call_id,
                problem=said.disk_full().english, problem_text=said.disk_full(),
            )  # fmt: skip
        if kind is CheckpointKind.TURN_AFTER:
            try:
                prune(self._repo, self.path, self.budget, grace=self.prune_grace)
            except (OSError, pygit2.GitError):
                log.warning("pruning checkpoints of %s failed", self.workspace, exc_info=True)
        return checkpoint

    # ------------------------------------------------------------------ reading

    def checkpoints(self, conversation_id: str) -> list[Checkpoint]:
        """The conversation's checkpoints, oldest first."""
        return repo_io.read_checkpoints(self._repo, conversation_id)

    def turns(self, conversation_id: str) -> list[int]:
        """The turn numbers that have checkpoints, in order."""
        return sorted({c.turn for c in self.checkpoints(conversation_id) if c.turn > 0})

    def turn_changes(self, conversation_id: str, turn: int) -> TurnChanges:
        """What the turn changed: its first ``TURN_BEFORE`` to its last ``TURN_AFTER``."""
        listed = [c for c in self.checkpoints(conversation_id) if c.turn == turn]
        before = next((c for c in listed if c.kind is CheckpointKind.TURN_BEFORE), None)
        after = next((c for c in reversed(listed) if c.kind is CheckpointKind.TURN_AFTER), None)
        changes = None
        if before is not None and after is not None:
            problem = before.problem or after.problem
            changes = change_set(
                self._repo, before.id, after.id, self._tree(before), self._tree(after),
                problem=problem,
            )  # fmt: skip
        return TurnChanges(conversation_id, turn, before, after, changes)

    def conversation_changes(self, conversation_id: str) -> ChangeSet:
        """Everything changed since the conversation's first turn began, up to now.

        Raises:
            CheckpointError: the conversation has no checkpoints.
        """
        first = self._first_before(conversation_id)
        now = self._snapshot_or_fail()
        return change_set(self._repo, first.id, None, self._tree(first), now.tree)

    def plan_restore(self, conversation_id: str, before_turn: int) -> RestorePlan:
        """What restoring the workspace to before ``before_turn`` would change.

        Raises:
            CheckpointError: no such turn, or the workspace cannot be read.
        """
        target = self._before(conversation_id, before_turn)
        now = self._snapshot_or_fail()
        last_after = next(
            (
                c for c in reversed(self.checkpoints(conversation_id))
                if c.kind is CheckpointKind.TURN_AFTER and c.id
            ),
            None,
        )  # fmt: skip
        edited: set[str] = set()
        if last_after is not None:
            edited = {
                (p.delta.new_file.path or p.delta.old_file.path)
                for p in tree_diff(self._repo, self._tree(last_after), now.tree)
                if p is not None
            }
        changes = change_set(self._repo, "", None, now.tree, self._tree(target), edited=edited)
        return RestorePlan(conversation_id, before_turn, target, changes)

    # ------------------------------------------------------------------ restoring

    def restore(self, conversation_id: str, before_turn: int) -> RestoreResult:
        """Restore the workspace to before ``before_turn`` (recording it first).

        Raises:
            CheckpointError: a turn runs, no such turn, or the workspace cannot be recorded.
        """
        target = self._before(conversation_id, before_turn)
        saved = self._save(conversation_id)
        restored, failed = restore_paths(
            self._repo, self.workspace, self._tree(saved), self._tree(target),
            keep=saved.skipped,
        )  # fmt: skip
        return RestoreResult(saved, restored, failed)

    def undo_restore(self, conversation_id: str) -> RestoreResult:
        """Put back the workspace as it was before the conversation's last restore or revert.

        Raises:
            NothingToUndo: nothing was restored.
            CheckpointError: a turn runs, or the workspace cannot be recorded.
        """
        saves = [
            c for c in self.checkpoints(conversation_id)
            if c.kind is CheckpointKind.RESTORE_BEFORE and c.call_id != "undo"
        ]  # fmt: skip
        if not saves:
            raise NothingToUndo("There is no restore to undo.", conversation_id)
        target = saves[-1]
        saved = self._save(conversation_id, call_id="undo")
        restored, failed = restore_paths(
            self._repo, self.workspace, self._tree(saved), self._tree(target),
            keep=saved.skipped,
        )  # fmt: skip
        if not failed:
            self._repo.references.delete(self._ref_of(conversation_id, target.id))
        return RestoreResult(saved, restored, failed)

    def revert(
        self, conversation_id: str, turn: int, path: str, hunk: int | None = None
    ) -> RestoreResult:
        """Take one file (or one hunk of it) back to before ``turn``; undoable.

        Raises:
            CheckpointError: a turn runs, the turn or the hunk is unknown, or the workspace
                cannot be recorded.
        """
        changes = self.turn_changes(conversation_id, turn)
        if changes.before is None or changes.after is None:
            raise CheckpointError("This turn has no recorded changes.", f"turn {turn}")
        saved = self._save(conversation_id)
        if hunk is None:
            restored, failed = restore_paths(
                self._repo, self.workspace, self._tree(saved), self._tree(changes.before),
                only=[path],
            )  # fmt: skip
            return RestoreResult(saved, restored, failed)
        diff = tree_diff(self._repo, self._tree(changes.before), self._tree(changes.after))
        patch = path_patch(diff, path)
        if patch is None:
            raise CheckpointError("This file was not changed by the turn.", path)
        try:
            current = (self.workspace / path).read_bytes()
            data = revert_hunk(current, patch, hunk)
        except IndexError as exc:
            raise CheckpointError("There is no such change in the file.", str(hunk)) from exc
        except (HunkMismatch, OSError):
            reason = "The file was changed since, so this change cannot be taken back."
            return RestoreResult(saved, (), (FailedPath(path, reason),))
        executable = (self.workspace / path).stat().st_mode & 0o100
        mode = FileMode.BLOB_EXECUTABLE if executable else FileMode.BLOB
        try:
            write_bytes(self.workspace, path, data, mode)
        except OSError as exc:
            return RestoreResult(saved, (), (FailedPath(path, _write_reason(exc)),))
        return RestoreResult(saved, (path,), ())

    # ------------------------------------------------------------------ helpers

    def _save(self, conversation_id: str, call_id: str | None = None) -> Checkpoint:
        turns = self.turns(conversation_id)
        saved = self.record(
            conversation_id, turns[-1] if turns else 0, CheckpointKind.RESTORE_BEFORE, call_id
        )
        if not saved.id or saved.problem:
            raise CheckpointError(
                "The workspace could not be recorded before restoring, so nothing was changed.",
                saved.problem or "",
            )
        return saved

    def _snapshot_or_fail(self) -> repo_io.WorkspaceTree:
        try:
            return repo_io.take_snapshot(self._repo, self.workspace, self.size_limit)
        except (OSError, pygit2.GitError, repo_io.DiskFull) as exc:
            raise CheckpointError("The workspace could not be read.", str(exc)) from exc

    def _first_before(self, conversation_id: str) -> Checkpoint:
        for checkpoint in self.checkpoints(conversation_id):
            if checkpoint.kind is CheckpointKind.TURN_BEFORE and checkpoint.id:
                return checkpoint
        raise CheckpointError("This conversation has no recorded checkpoints.", conversation_id)

    def _before(self, conversation_id: str, turn: int) -> Checkpoint:
        for checkpoint in self.checkpoints(conversation_id):
            if (
                checkpoint.turn == turn
                and checkpoint.kind is CheckpointKind.TURN_BEFORE
                and checkpoint.id
            ):
                return checkpoint
        raise CheckpointError(
            f"There is no recorded state before turn {turn}.", f"{conversation_id} turn {turn}"
        )

    def _tree(self, checkpoint: Checkpoint) -> pygit2.Oid:
        return self._repo[checkpoint.id].peel(pygit2.Tree).id

    def _ref_of(self, conversation_id: str, commit_id: str) -> str:
        prefix = f"{repo_io.REF_ROOT}{repo_io.conversation_key(conversation_id)}/"
        for name in self._repo.references:
            if name.startswith(prefix) and str(self._repo.references[name].target) == commit_id:
                return name
        raise CheckpointError("The checkpoint is gone.", commit_id)


def _write_reason(exc: OSError) -> str:
    if isinstance(exc, PermissionError):
        return "The file is read-only or its folder cannot be written."
    return f"It could not be written ({exc.strerror or exc})."
