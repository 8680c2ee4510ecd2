"""The window's checkpoints plug-in: follows its conversations (a ``WindowPlugin``), gives
each a ``PaneChanges`` and each store a ``CheckpointsBridge``, and answers View ▸ Review
Conversation Changes through the review controller.

The store is the one the pane's checkpoint recorder writes to (``Conversation.checkpoints``,
made by the pane); without a recorder that knows its conversation yet, a conversation stored in
the history opens the workspace's store itself (``CheckpointStore.open`` gives every caller the
same one).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QObject

from desktop.ui.checkpoints.bridge import ChangeStore, CheckpointsBridge
from desktop.ui.checkpoints.pane_changes import PaneChanges
from desktop.ui.pane import ConversationPane
from desktop.ui.review.controller import ReviewController

log = logging.getLogger(__name__)


class _StoredEntry(Protocol):
    @property
    def conversation_id(self) -> str | None: ...


class _Engine(Protocol):
    def entry_of(self, pane: ConversationPane) -> _StoredEntry | None: ...


class _History(Protocol):
    @property
    def engine(self) -> _Engine | None: ...


class ChangesWindow(Protocol):
    """What the plug-in needs of the workspace window."""

    @property
    def workspace(self) -> Path: ...
    @property
    def history(self) -> _History: ...
    def show_message(self, text: str) -> None: ...


class CheckpointsController(QObject):
    """Changes, review and restore for every conversation of a window."""

    def __init__(self, review: ReviewController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.review = review
        self.window: ChangesWindow | None = None
        self.panes: dict[ConversationPane, PaneChanges] = {}
        self._bridges: dict[ConversationPane, CheckpointsBridge] = {}

    def install(self, window: ChangesWindow) -> None:
        """Answer the review's "whole conversation" command."""
        self.window = window
        self.review.conversation_review = self.review_conversation

    def pane_added(self, pane: ConversationPane) -> None:
        """Follow ``pane``'s turns; a reopened conversation shows its turns' changes."""
        if pane in self.panes:
            return
        changes = PaneChanges(pane, self.review, lambda: self.bridge(pane))
        self.panes[pane] = changes

        async def reopened() -> None:
            # The history says so right after adding the pane; turns count from the first.
            if await pane.transcript.whole():
                await changes.show_history()

        pane.scope.spawn(reopened(), name="checkpoints-history")

    def pane_removed(self, pane: ConversationPane) -> None:
        """A closed conversation."""
        self.panes.pop(pane, None)
        self._bridges.pop(pane, None)

    def review_conversation(self, pane: ConversationPane) -> bool:
        """View ▸ Review Conversation Changes: everything ``pane``'s conversation changed."""
        changes = self.panes.get(pane)
        if changes is None:
            return False

        async def run() -> None:
            if not await changes.review_conversation() and self.window is not None:
                self.window.show_message(
                    QCoreApplication.translate(
                        "CheckpointsController", "No changes recorded in this conversation yet"
                    )
                )

        pane.scope.spawn(run(), name="checkpoints-review")
        return True

    async def bridge(self, pane: ConversationPane) -> CheckpointsBridge | None:
        """``pane``'s bridge over its store (None while its conversation is not stored)."""
        bridge = self._bridges.get(pane)
        if bridge is not None:
            return bridge
        found = await self._store_of(pane)
        if found is None:
            return None
        store, conversation_id = found
        bridge = self._bridges.get(pane)  # made meanwhile by another call
        if bridge is None:
            bridge = CheckpointsBridge(store, conversation_id, self.panes[pane])
            self._bridges[pane] = bridge
        return bridge

    async def _store_of(self, pane: ConversationPane) -> tuple[ChangeStore, str] | None:
        recorder = pane.conversation.checkpoints
        store = getattr(recorder, "store", None)
        conversation_id = getattr(recorder, "conversation_id", None)
        if store is not None and isinstance(conversation_id, str) and conversation_id:
            return store, conversation_id
        engine = self.window.history.engine if self.window is not None else None
        entry = engine.entry_of(pane) if engine is not None else None
        if entry is None or entry.conversation_id is None or self.window is None:
            return None
        from desktop.core.checkpoints.store import CheckpointError, CheckpointStore
        from desktop.core.paths import app_paths

        try:
            opened = await asyncio.to_thread(
                CheckpointStore.open, self.window.workspace, app_paths().data
            )
        except CheckpointError as exc:
            log.warning("no checkpoint store for %s: %s", self.window.workspace, exc)
            return None
        return opened, entry.conversation_id
