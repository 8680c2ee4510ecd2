"""``CheckpointStore``: a workspace's checkpoints, what each turn changed, and restores.

The window, ``agentdesk exec`` and ``agentdesk history`` use this one class. Its calls block
(the window runs them with ``asyncio.to_thread``) except ``open``, ``set_running`` and
``running``, which are cheap: the git repository (``engine``, pygit2) is opened and loaded on the
first blocking call, so a pane can open its store on the GUI thread. One store per workspace and
process (``open`` returns the same object for the same folder), so conversations sharing a
workspace share its lock and its index, and records, reads and restores never interleave.

A record never raises for the workspace's faults (a folder gone, an unreadable file, a full
disk): the checkpoint says what is missing in ``problem``. Every restore (and revert) records
the workspace first (``RESTORE_BEFORE``), so ``undo_restore`` can put it back; restores are
refused while a recorder says a turn runs.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from desktop.core.checkpoints.errors import CheckpointError, NothingToUndo
from desktop.core.checkpoints.model import (
    ChangeSet,
    Checkpoint,
    CheckpointKind,
    RestorePlan,
    RestoreResult,
    TurnChanges,
)

if TYPE_CHECKING:
    from desktop.core.checkpoints.engine import CheckpointEngine

__all__ = ["CheckpointError", "CheckpointStore", "NothingToUndo", "store_path"]

DEFAULT_SIZE_LIMIT = 10 * 2**20
DEFAULT_BUDGET = 2 * 2**30


def store_path(workspace: Path, data_dir: Path) -> Path:
    """Where the repository of ``workspace`` lives under the data folder ``data_dir``."""
    key = hashlib.sha256(str(workspace.resolve()).encode("utf-8", "surrogateescape"))
    return data_dir / "checkpoints" / f"{key.hexdigest()[:16]}.git"


class CheckpointStore:
    """The checkpoints of one workspace (``open`` it; do not construct it directly)."""

    _open: ClassVar[dict[Path, CheckpointStore]] = {}
    _open_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, workspace: Path, path: Path, size_limit: int, budget: int) -> None:
        self.workspace = workspace
        self.path = path
        self.size_limit = size_limit
        self.budget = budget
        #: Loose objects younger than this many seconds survive pruning.
        self.prune_grace = 60.0
        self._engine: CheckpointEngine | None = None
        self._lock = threading.RLock()
        self._running: set[str] = set()
        self._running_lock = threading.Lock()
        self._prepared = False

    @classmethod
    def open(
        cls,
        workspace: Path,
        data_dir: Path,
        *,
        size_limit: int | None = None,
        budget: int | None = None,
    ) -> CheckpointStore:
        """The store of ``workspace`` under ``data_dir / "checkpoints"`` (its repository is
        created on first use). ``size_limit`` and ``budget`` (bytes; the settings' values)
        change the store's; left out, a new store gets the defaults (10 MB, 2 GB) and an open
        one keeps its own."""
        workspace = workspace.resolve()
        path = store_path(workspace, data_dir)
        with cls._open_lock:
            store = cls._open.get(path)
            if store is None:
                store = cls(workspace, path, DEFAULT_SIZE_LIMIT, DEFAULT_BUDGET)
                cls._open[path] = store
            if size_limit is not None:
                store.size_limit = size_limit
            if budget is not None:
                store.budget = budget
            return store

    def _git(self) -> CheckpointEngine:
        """The repository side, opened on first use (the caller holds ``_lock``).

        Raises:
            CheckpointError: the repository cannot be created or opened.
        """
        if self._engine is None:
            from desktop.core.checkpoints.engine import CheckpointEngine, RepositoryError

            try:
                self._engine = CheckpointEngine(self.workspace, self.path)
            except RepositoryError as exc:
                raise CheckpointError(
                    "The checkpoint store could not be opened.", f"{self.path}: {exc}"
                ) from exc
        engine = self._engine
        engine.size_limit, engine.budget, engine.prune_grace = (
            self.size_limit,
            self.budget,
            self.prune_grace,
        )
        return engine

    # ------------------------------------------------------------------ turns running

    def set_running(self, conversation_id: str, running: bool) -> None:
        """Say whether a turn of the conversation runs (restores are refused meanwhile)."""
        with self._running_lock:  # never the store's lock: the loop calls this
            if running:
                self._running.add(conversation_id)
            else:
                self._running.discard(conversation_id)

    def running(self) -> bool:
        """Whether a turn runs in the workspace (a recorder said so)."""
        with self._running_lock:
            return bool(self._running)

    def _refuse_running(self) -> None:
        with self._running_lock:
            running = sorted(self._running)
        if running:
            raise CheckpointError(
                "A turn is running in this workspace: stop it before restoring.", ", ".join(running)
            )

    # ------------------------------------------------------------------ recording and reading

    def prepare(self) -> None:
        """Bring the store's index up to date with the workspace without recording anything,
        so the next record is incremental (a recorder does this when it is attached; once per
        store: later records keep the index current)."""
        with self._lock:
            if not self._prepared:
                self._git().prepare()
                self._prepared = True

    def record(
        self,
        conversation_id: str,
        turn: int,
        kind: CheckpointKind,
        call_id: str | None = None,
    ) -> Checkpoint:
        """Record the workspace as it is now (``problem`` set when it could not be, fully)."""
        with self._lock:
            return self._git().record(conversation_id, turn, kind, call_id)

    def checkpoints(self, conversation_id: str) -> list[Checkpoint]:
        """The conversation's checkpoints, oldest first."""
        with self._lock:
            return self._git().checkpoints(conversation_id)

    def turns(self, conversation_id: str) -> list[int]:
        """The turn numbers that have checkpoints, in order."""
        with self._lock:
            return self._git().turns(conversation_id)

    def turn_changes(self, conversation_id: str, turn: int) -> TurnChanges:
        """What the turn changed: its first ``TURN_BEFORE`` to its last ``TURN_AFTER``."""
        with self._lock:
            return self._git().turn_changes(conversation_id, turn)

    def conversation_changes(self, conversation_id: str) -> ChangeSet:
        """Everything changed since the conversation's first turn began, up to now.

        Raises:
            CheckpointError: the conversation has no checkpoints, or the workspace cannot be read.
        """
        with self._lock:
            return self._git().conversation_changes(conversation_id)

    def plan_restore(self, conversation_id: str, before_turn: int) -> RestorePlan:
        """What restoring the workspace to before ``before_turn`` would change.

        Raises:
            CheckpointError: no such turn, or the workspace cannot be read.
        """
        with self._lock:
            return self._git().plan_restore(conversation_id, before_turn)

    # ------------------------------------------------------------------ restoring

    def restore(self, conversation_id: str, before_turn: int) -> RestoreResult:
        """Restore the workspace to before ``before_turn`` (recording it first).

        Raises:
            CheckpointError: a turn runs, no such turn, or the workspace cannot be recorded.
        """
        with self._lock:
            self._refuse_running()
            return self._git().restore(conversation_id, before_turn)

    def undo_restore(self, conversation_id: str) -> RestoreResult:
        """Put back the workspace as it was before the conversation's last restore or revert.

        Raises:
            NothingToUndo: nothing was restored.
            CheckpointError: a turn runs, or the workspace cannot be recorded.
        """
        with self._lock:
            self._refuse_running()
            return self._git().undo_restore(conversation_id)

    def revert(
        self, conversation_id: str, turn: int, path: str, hunk: int | None = None
    ) -> RestoreResult:
        """Take one file (or its hunk number ``hunk``, 0-based, as in the ``FileChange.diff``
        of ``turn_changes``) back to before ``turn``; undoable with ``undo_restore``.

        Raises:
            CheckpointError: a turn runs, the turn or the hunk is unknown, or the workspace
                cannot be recorded.
        """
        with self._lock:
            self._refuse_running()
            return self._git().revert(conversation_id, turn, path, hunk)
