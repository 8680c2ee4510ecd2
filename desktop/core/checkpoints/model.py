"""What the checkpoint store records and answers: the data that crosses from the store to the
command line and the window.

Agent Desk records the state of a workspace before and after each turn (and around each approved
edit or command) in its own content-addressed store under the data folder, never in the user's
``.git``. From two states it answers "what changed" (a ``ChangeSet``), and it restores a state
(``RestoreResult``) after recording the current one, so every restore can be undone. These are
the frozen values that cross that boundary; the store (``desktop.core.checkpoints.store``) makes
them and the recorder (``desktop.core.checkpoints.recorder``) decides when to record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from desktop.core.texts import CoreText


class CheckpointKind(StrEnum):
    """When a checkpoint was taken."""

    TURN_BEFORE = "turn_before"
    TURN_AFTER = "turn_after"
    TOOL_BEFORE = "tool_before"
    TOOL_AFTER = "tool_after"
    #: The workspace as it was just before a restore (what "Undo restore" puts back).
    RESTORE_BEFORE = "restore_before"


@dataclass(frozen=True)
class Checkpoint:
    """One recorded state of a workspace.

    Attributes:
        id: The state's identifier in the store (a commit id).
        conversation_id: The conversation it belongs to.
        turn: The turn's number in the conversation, from 1.
        kind: When it was taken.
        created: Seconds since the epoch.
        call_id: The tool call it surrounds (``TOOL_BEFORE``/``TOOL_AFTER``), else None.
        problem: Why the state is incomplete (a sentence for the user), None when complete.
        skipped: Paths left out because they exceed the size limit.
        problem_text: ``problem`` for the window to translate (set on a checkpoint just
            recorded; one read back from the store has ``problem`` only).
    """

    id: str
    conversation_id: str
    turn: int
    kind: CheckpointKind
    created: float
    call_id: str | None = None
    problem: str | None = None
    skipped: tuple[str, ...] = ()
    problem_text: CoreText | None = field(default=None, compare=False)

    @property
    def complete(self) -> bool:
        """Whether every file of the workspace (within the rules) was recorded."""
        return self.problem is None


class ChangeKind(StrEnum):
    """How one path differs between two states."""

    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    #: Only the permissions (the executable bit) changed.
    MODE = "mode"


@dataclass(frozen=True)
class FileChange:
    """One path that differs between two states.

    Attributes:
        path: Relative to the workspace, ``/``-separated.
        kind: How it differs.
        added: Lines added (0 for binary files).
        removed: Lines removed (0 for binary files).
        binary: Whether either side is binary (``diff`` is then empty).
        diff: The unified diff of this file (``--- a/…``/``+++ b/…`` headers and hunks).
        symlink: Whether either side is a symbolic link (``diff`` compares the targets).
        edited_since: Set in a restore plan: the user (or anyone) changed this path after the
            turn ended, so restoring drops those later edits too.
    """

    path: str
    kind: ChangeKind
    added: int = 0
    removed: int = 0
    binary: bool = False
    diff: str = ""
    symlink: bool = False
    edited_since: bool = False


@dataclass(frozen=True)
class ChangeSet:
    """What differs between two states of one workspace.

    Attributes:
        base: The earlier state's checkpoint id.
        target: The later state's checkpoint id, or None for the workspace as it is now.
        files: One entry per changed path, sorted by path.
        problem: Why the answer may be incomplete (a checkpoint was incomplete), else None.
    """

    base: str
    target: str | None
    files: tuple[FileChange, ...] = ()
    problem: str | None = None

    @property
    def added(self) -> int:
        """Lines added over all files."""
        return sum(change.added for change in self.files)

    @property
    def removed(self) -> int:
        """Lines removed over all files."""
        return sum(change.removed for change in self.files)


@dataclass(frozen=True)
class TurnChanges:
    """One turn of a conversation and what it changed (``changes`` is None while the turn runs
    or when it has no checkpoints)."""

    conversation_id: str
    turn: int
    before: Checkpoint | None
    after: Checkpoint | None
    changes: ChangeSet | None


@dataclass(frozen=True)
class RestorePlan:
    """What restoring a conversation to before a turn would change, shown before asking.

    Attributes:
        conversation_id: The conversation.
        before_turn: Restore to the state before this turn (from 1).
        target: The checkpoint the workspace would be restored to.
        changes: From the workspace now to ``target`` (``edited_since`` marks later edits).
    """

    conversation_id: str
    before_turn: int
    target: Checkpoint
    changes: ChangeSet


@dataclass(frozen=True)
class FailedPath:
    """A path a restore or revert could not write, and why (a sentence for the user)."""

    path: str
    reason: str


@dataclass(frozen=True)
class RestoreResult:
    """The outcome of a restore, an undo of one, or a revert of files or hunks.

    Attributes:
        saved: The checkpoint of the workspace taken just before (what undo puts back).
        restored: Paths written, created or removed.
        failed: Paths that could not be; the workspace is then only partly restored, and
            ``saved`` can put it back.
    """

    saved: Checkpoint
    restored: tuple[str, ...] = ()
    failed: tuple[FailedPath, ...] = field(default=())

    @property
    def complete(self) -> bool:
        """Whether every path was restored."""
        return not self.failed
