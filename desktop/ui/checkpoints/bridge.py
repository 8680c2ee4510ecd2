"""The one QObject over a conversation's checkpoint store: its blocking calls run in a worker
thread (one at a time), and what they changed in the workspace comes back as a signal.

The store (``desktop.core.checkpoints.store``) reads and writes the disk; the window never
calls it on the event loop. Its errors reach the widgets as ``CheckpointProblem``: a sentence
for the user (the store's ``message``) with the diagnostics logged here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol, TypeVar

from PySide6.QtCore import QCoreApplication, QObject, Signal

from desktop.core.checkpoints.model import (
    ChangeSet,
    RestorePlan,
    RestoreResult,
    TurnChanges,
)

log = logging.getLogger(__name__)

T = TypeVar("T")


class ChangeStore(Protocol):
    """What the window uses of ``CheckpointStore``."""

    def turns(self, conversation_id: str) -> list[int]: ...
    def turn_changes(self, conversation_id: str, turn: int) -> TurnChanges: ...
    def conversation_changes(self, conversation_id: str) -> ChangeSet: ...
    def plan_restore(self, conversation_id: str, before_turn: int) -> RestorePlan: ...
    def restore(self, conversation_id: str, before_turn: int) -> RestoreResult: ...
    def undo_restore(self, conversation_id: str) -> RestoreResult: ...
    def revert(
        self, conversation_id: str, turn: int, path: str, hunk: int | None = None
    ) -> RestoreResult: ...


class CheckpointProblem(Exception):
    """A store call failed; ``message`` is a sentence for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class CheckpointsBridge(QObject):
    """A conversation's checkpoints, for its widgets.

    Signals:
        workspace_changed(): a restore, an undo or a revert wrote the workspace (shown change
            sets may be out of date).
    """

    workspace_changed = Signal()

    def __init__(
        self, store: ChangeStore, conversation_id: str, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.conversation_id = conversation_id
        self._lock = asyncio.Lock()

    async def turns(self) -> list[int]:
        """The conversation's turns that have checkpoints."""
        return await self._call(self.store.turns, self.conversation_id)

    async def turn_changes(self, turn: int) -> TurnChanges:
        """What ``turn`` changed (before → after)."""
        return await self._call(self.store.turn_changes, self.conversation_id, turn)

    async def conversation_changes(self) -> ChangeSet:
        """Everything changed since the conversation's first turn (to the workspace now)."""
        return await self._call(self.store.conversation_changes, self.conversation_id)

    async def plan_restore(self, before_turn: int) -> RestorePlan:
        """What restoring to before ``before_turn`` would change."""
        return await self._call(self.store.plan_restore, self.conversation_id, before_turn)

    async def restore(self, before_turn: int) -> RestoreResult:
        """Restore the workspace to before ``before_turn`` (undoable)."""
        return await self._writing(self.store.restore, self.conversation_id, before_turn)

    async def undo_restore(self) -> RestoreResult:
        """Put back what the last restore or revert replaced."""
        return await self._writing(self.store.undo_restore, self.conversation_id)

    async def revert(self, turn: int, path: str, hunk: int | None = None) -> RestoreResult:
        """Put ``path`` (or its ``hunk``) back as it was before ``turn`` (undoable)."""
        return await self._writing(self.store.revert, self.conversation_id, turn, path, hunk)

    async def _writing(self, call: Callable[..., T], *args: object) -> T:
        try:
            return await self._call(call, *args)
        finally:
            self.workspace_changed.emit()  # even a failed restore may have written some files

    async def _call(self, call: Callable[..., T], *args: object) -> T:
        async with self._lock:
            try:
                return await asyncio.to_thread(call, *args)
            except Exception as exc:  # the store's thread boundary: every failure is told
                message = getattr(exc, "message", None)
                log.warning("checkpoint call %s failed: %s", getattr(call, "__name__", call), exc)
                if not isinstance(message, str) or not message:
                    message = QCoreApplication.translate(
                        "CheckpointsBridge", "The checkpoints could not be read or written: {error}"
                    ).format(error=exc)
                raise CheckpointProblem(message) from exc
