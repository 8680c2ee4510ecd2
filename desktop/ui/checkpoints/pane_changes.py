"""One conversation's checkpoints on screen: a "Changes" card below each turn that changed
files, the review of a turn or of the whole conversation, and restore with its undo.

A turn's card appears when the conversation's checkpoint recorder has recorded the state after
it (its listener), below that turn's end (``CheckpointRecorder.turn_of``). A conversation
reopened from history shows a card for each turn the store has, below the n-th turn end of the
transcript for turn n. Every store call runs through the ``CheckpointsBridge`` in the
pane's ``TaskScope``; nothing here blocks the loop or nests one.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QVBoxLayout, QWidget

from desktop.core.checkpoints.model import ChangeSet, Checkpoint, CheckpointKind
from desktop.core.checkpoints.recorder import CheckpointRecorder
from desktop.core.entries import TurnEndItem
from desktop.core.events import StateChanged
from desktop.core.session import BUSY
from desktop.ui.checkpoints.bridge import CheckpointProblem, CheckpointsBridge
from desktop.ui.checkpoints.diffs import combined_diff, plural
from desktop.ui.checkpoints.restore_bar import RestoreBar
from desktop.ui.checkpoints.summary import ChangesSummary
from desktop.ui.pane import ConversationPane
from desktop.ui.review.controller import ReviewController

log = logging.getLogger(__name__)


class ChangesReview:
    """Answers the review's Revert and Undo for one change set (``ChangesReviewer``)."""

    def __init__(self, owner: PaneChanges, changes: ChangeSet, turn: int | None) -> None:
        self.owner = owner
        self.changes = changes
        #: The turn reviewed; None: the whole conversation (files revert to before its start).
        self.turn = turn

    def revert(self, file: int, hunk: int) -> None:
        if 0 <= file < len(self.changes.files):
            self.owner.spawn(self.owner.revert(self, self.changes.files[file].path, hunk))

    def undo(self) -> None:
        self.owner.spawn(self.owner.undo_revert(self))


class PaneChanges(QObject):
    """The changes and restores of ``pane``'s conversation."""

    def __init__(
        self,
        pane: ConversationPane,
        review: ReviewController,
        bridge: Callable[[], Awaitable[CheckpointsBridge | None]],
    ) -> None:
        super().__init__(pane)
        self.pane = pane
        self.review = review
        self._bridge = bridge
        self.summaries: dict[int, ChangesSummary] = {}
        self.busy = False
        self.bar = RestoreBar()
        holder = QWidget(pane)
        holder.setObjectName("restoreBarHolder")
        box = QVBoxLayout(holder)
        box.setContentsMargins(28, 6, 28, 6)
        box.addWidget(self.bar)
        self.bar.closed.connect(holder.hide)
        self.bar.confirmed.connect(lambda turn: self.spawn(self.restore(turn)))
        self.bar.undo_requested.connect(lambda: self.spawn(self.undo_restore()))
        holder.hide()
        self.holder = holder
        layout = pane.layout()
        if isinstance(layout, QVBoxLayout):
            layout.insertWidget(layout.indexOf(pane.composer), holder)
        self._recorder: CheckpointRecorder | None = None
        pane.bridge.turn_started.connect(self.listen)
        pane.bridge.turn_ended.connect(self.listen)
        self.listen()
        pane.bridge.state_changed.connect(self._on_state)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the pane's scope (cancelled when the conversation closes; dropped
        when it already has: a checkpoint recorded while the conversation closed)."""
        try:
            self.pane.scope.spawn(work, name="checkpoints")
        except RuntimeError:
            work.close()
            log.debug("checkpoint card dropped: the conversation is closing")

    # -- turns ---------------------------------------------------------------------------

    def turn_keys(self) -> list[int]:
        """The transcript key of each turn's end, turn 1 first."""
        return [item.key for item in self.pane.transcript.items if isinstance(item, TurnEndItem)]

    async def show_history(self) -> None:
        """A conversation reopened from history: a card for each of its turns that changed files."""
        bridge = await self._bridge()
        if bridge is None:
            return
        try:
            turns = await bridge.turns()
            for turn in turns:
                await self._show_turn(bridge, turn, None)
        except CheckpointProblem as problem:
            log.info("no changes shown for the reopened conversation: %s", problem.message)

    def listen(self, _event: object = None) -> None:
        """Follow the conversation's checkpoint recorder (attached once the history knows the
        conversation), so each turn's card appears when its "after" state is recorded."""
        recorder = self.pane.conversation.checkpoints
        if isinstance(recorder, CheckpointRecorder) and recorder is not self._recorder:
            self._recorder = recorder
            recorder.add_listener(self._on_checkpoint)

    def _on_checkpoint(self, checkpoint: Checkpoint) -> None:
        recorder = self._recorder
        if checkpoint.kind != CheckpointKind.TURN_AFTER or recorder is None:
            return
        key = next(  # the turn that just ended: from the end (a long conversation is not walked)
            (
                item.key
                for item in reversed(self.pane.transcript.items)
                if isinstance(item, TurnEndItem)
                and recorder.turn_of(item.turn_id) == checkpoint.turn
            ),
            None,
        )
        self.spawn(self._show_recorded(checkpoint.turn, key))

    async def _show_recorded(self, turn: int, key: int | None) -> None:
        bridge = await self._bridge()
        if bridge is None:
            return
        try:
            await self._show_turn(bridge, turn, key)
        except CheckpointProblem as problem:
            log.info("no changes shown for turn %d: %s", turn, problem.message)

    async def _show_turn(self, bridge: CheckpointsBridge, turn: int, key: int | None) -> None:
        changes = (await bridge.turn_changes(turn)).changes
        if changes is None or not changes.files:
            return
        summary = self.summaries.get(turn)
        if summary is not None:
            summary.set_changes(changes)
            return
        if key is None:  # reopened from history: the n-th turn end of the transcript
            keys = self.turn_keys()
            key = keys[turn - 1] if turn <= len(keys) else (keys[-1] if keys else 0)
        summary = ChangesSummary(turn, changes)
        summary.review_requested.connect(self.review_turn)
        summary.restore_requested.connect(self.ask_restore)
        summary.set_busy(self.busy)
        self.summaries[turn] = summary
        self.pane.view.add_below(key, summary)

    def _on_state(self, event: StateChanged) -> None:
        self.busy = event.state in BUSY
        for summary in self.summaries.values():
            summary.set_busy(self.busy)

    # -- review --------------------------------------------------------------------------

    def review_turn(self, turn: int) -> None:
        """Review every file ``turn`` changed, with Revert file / hunk."""
        summary = self.summaries.get(turn)
        if summary is None:
            return
        changes = summary.changes
        title = plural(
            len(changes.files),
            QCoreApplication.translate("PaneChanges", "Turn {turn} · 1 file · +{added} −{removed}"),
            QCoreApplication.translate(
                "PaneChanges", "Turn {turn} · {n} files · +{added} −{removed}"
            ),
        ).format(turn=turn, added=changes.added, removed=changes.removed)
        reviewer = ChangesReview(self, changes, turn)
        self.review.open_changes(
            self.pane, combined_diff(changes), title, hunks=True, reviewer=reviewer
        )

    async def review_conversation(self) -> bool:
        """Review everything the conversation changed; False when it has no checkpoints."""
        bridge = await self._bridge()
        if bridge is None:
            return False
        try:
            changes = await bridge.conversation_changes()
        except CheckpointProblem as problem:
            self._show_problem(problem.message)
            return False
        self._open_conversation(changes)
        return True

    def _open_conversation(self, changes: ChangeSet) -> None:
        title = plural(
            len(changes.files),
            QCoreApplication.translate(
                "PaneChanges", "This conversation · 1 file · +{added} −{removed}"
            ),
            QCoreApplication.translate(
                "PaneChanges", "This conversation · {n} files · +{added} −{removed}"
            ),
        ).format(added=changes.added, removed=changes.removed)  # fmt: skip
        reviewer = ChangesReview(self, changes, None)
        if isinstance(self.review.reviewer, ChangesReview) and self.review.reviewer.turn is None:
            reviewer = self.review.reviewer  # the same review, shown again after a revert
            reviewer.changes = changes
        self.review.open_changes(
            self.pane, combined_diff(changes), title, hunks=False, reviewer=reviewer
        )

    async def revert(self, reviewer: ChangesReview, path: str, hunk: int) -> None:
        """Revert ``path`` (its ``hunk``; -1: the whole file) as the review asked."""
        bridge = await self._bridge()
        if bridge is None:
            return
        if self.busy:
            self._review_problem(
                reviewer,
                QCoreApplication.translate(
                    "PaneChanges", "Stop the running turn first, then revert."
                ),
            )
            return
        turn = reviewer.turn
        try:
            if turn is None:
                turn = min(await bridge.turns())
            result = await bridge.revert(turn, path, None if hunk < 0 else hunk)
        except (CheckpointProblem, ValueError) as problem:
            self._review_problem(reviewer, getattr(problem, "message", str(problem)))
            return
        if result.failed:
            failed = result.failed[0]
            self._review_problem(reviewer, f"{failed.path}: {failed.reason}")
            return
        if hunk >= 0:
            text = QCoreApplication.translate("PaneChanges", "Reverted hunk {hunk} of {path}")
            text = text.format(hunk=hunk + 1, path=path)
        else:
            text = QCoreApplication.translate("PaneChanges", "Reverted {path}").format(path=path)
        await self._after_review_write(reviewer, text, undoable=True)

    async def undo_revert(self, reviewer: ChangesReview) -> None:
        """Undo the last revert (the store's undo of its last restore)."""
        bridge = await self._bridge()
        if bridge is None:
            return
        try:
            await bridge.undo_restore()
        except CheckpointProblem as problem:
            self._review_problem(reviewer, problem.message)
            return
        await self._after_review_write(
            reviewer, QCoreApplication.translate("PaneChanges", "Revert undone"), undoable=False
        )

    async def _after_review_write(
        self, reviewer: ChangesReview, text: str, *, undoable: bool
    ) -> None:
        if self.review.reviewer is not reviewer:
            return  # the review was closed or shows something else
        if reviewer.turn is None:  # the conversation's changes: show what is left
            bridge = await self._bridge()
            if bridge is not None and self.review.reviewer is reviewer:
                try:
                    reviewer.changes = await bridge.conversation_changes()
                except CheckpointProblem as problem:
                    self._review_problem(reviewer, problem.message)
                    return
                self._open_conversation(reviewer.changes)
        self.review.view.revert.show_done(text, undoable=undoable)

    def _review_problem(self, reviewer: ChangesReview, text: str) -> None:
        if self.review.reviewer is reviewer:
            self.review.view.revert.show_problem(text)

    # -- restore -------------------------------------------------------------------------

    def ask_restore(self, turn: int) -> None:
        """Show what restoring to before ``turn`` would change, and ask once."""
        if self.busy:
            self._show_problem(
                QCoreApplication.translate(
                    "PaneChanges", "Stop the running turn first, then restore."
                )
            )
            return
        self.spawn(self._plan(turn))

    async def _plan(self, turn: int) -> None:
        bridge = await self._bridge()
        if bridge is None:
            return
        self._working(QCoreApplication.translate("PaneChanges", "Working out what will change…"))
        try:
            plan = await bridge.plan_restore(turn)
        except CheckpointProblem as problem:
            self._show_problem(problem.message)
            return
        self.holder.show()
        self.bar.show_plan(plan)

    async def restore(self, turn: int) -> None:
        """Restore the files to before ``turn`` (asked), then offer Undo restore."""
        bridge = await self._bridge()
        if bridge is None:
            return
        if self.busy:
            self._show_problem(
                QCoreApplication.translate(
                    "PaneChanges", "Stop the running turn first, then restore."
                )
            )
            return
        self._working(QCoreApplication.translate("PaneChanges", "Restoring…"))
        try:
            result = await bridge.restore(turn)
        except CheckpointProblem as problem:
            self._show_problem(problem.message)
            return
        self.bar.show_result(result, undone=False)

    async def undo_restore(self) -> None:
        """Put back the files as they were before the last restore."""
        bridge = await self._bridge()
        if bridge is None:
            return
        self._working(QCoreApplication.translate("PaneChanges", "Undoing the restore…"))
        try:
            result = await bridge.undo_restore()
        except CheckpointProblem as problem:
            self._show_problem(problem.message)
            return
        self.bar.show_result(result, undone=True)

    def _working(self, text: str) -> None:
        self.holder.show()
        self.bar.show_working(text)

    def _show_problem(self, text: str) -> None:
        self.holder.show()
        self.bar.show_problem(text)
