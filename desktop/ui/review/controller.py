"""Puts the review view in a workspace window and carries its decisions to the approval card.

The window holds one ``ReviewController``; the view lives in the window's conversation stack,
so it takes the whole conversation area (transcript and composer) while it is open. Opening
remembers where the keyboard was; Esc (or going to another conversation) shows the
conversation again with the keyboard back there. A decision made in the review is made ON THE
CARD (``approve_once`` and friends), so the card, the navigator and the session see exactly
what a key on the card would have done; the review then shows the conversation's next pending
edit, or closes and gives the keyboard to the next pending card or the composer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtWidgets import QApplication, QStackedWidget, QWidget
from shiboken6 import isValid

from desktop.ui.approvals.card import ApprovalCard
from desktop.ui.review.hook import attach_review
from desktop.ui.review.view import ReviewView

if TYPE_CHECKING:
    from desktop.ui.pane import ConversationPane

log = logging.getLogger(__name__)


def _tr(text: str) -> str:
    return QCoreApplication.translate("ReviewController", text)


def card_diff(card: ApprovalCard) -> str | None:
    """The diff a pending card would apply, or None when its request is not an edit."""
    preview = card.body.preview
    return preview.text if preview.kind == "diff" and preview.text.strip() else None


class ChangesReviewer(Protocol):
    """Who answers the review's Revert and Undo for a change set (``open_changes``)."""

    def revert(self, file: int, hunk: int) -> None:
        """Revert the ``file``-th file of the diff (its ``hunk``-th hunk; -1: all of it)."""

    def undo(self) -> None:
        """Undo the last revert."""


class ReviewController(QObject):
    """Opens and closes the window's review view (a ``WindowPlugin``: it follows the panes)."""

    def __init__(self, stack: QStackedWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stack = stack
        self.view = ReviewView(stack)
        stack.addWidget(self.view)
        self._pane: ConversationPane | None = None
        self._card: ApprovalCard | None = None
        self._return_to: QWidget | None = None
        self._deciding = False
        self._watched: list[ConversationPane] = []
        #: Answers Revert and Undo while a change set is under review (``open_changes``).
        self.reviewer: ChangesReviewer | None = None
        #: Opens the review of a conversation's changes (set by the checkpoints plug-in).
        self.conversation_review: Callable[[ConversationPane], bool] | None = None
        self.view.revert.revert_requested.connect(self._revert)
        self.view.revert.undo_requested.connect(self._undo)
        self.view.close_requested.connect(self.close)
        self.view.decision_requested.connect(self._decide)
        stack.currentChanged.connect(self._on_stack_changed)

    # -- public API ----------------------------------------------------------------------

    def install(self, window: QWidget) -> None:
        """Nothing to add beyond the view, which is in the window's stack already (so the
        window's type is not needed here: the window imports this module)."""

    def pane_added(self, pane: ConversationPane) -> None:
        """Let the pending cards of ``pane`` open the review (their Review button and key),
        and its finished edits (their Review button)."""
        if pane not in self._watched:
            self._watched.append(pane)
            pane.navigator.pending_count_changed.connect(partial(self._hook_cards, pane))
            pane.view.review_requested.connect(partial(self.open, pane))
            self._hook_cards(pane, 0)

    def pane_removed(self, pane: ConversationPane) -> None:
        """A closed conversation: its review (if open) ends."""
        if pane in self._watched:
            self._watched.remove(pane)
        if pane is self._pane:
            self.reviewer = None
            self._return_to = None
            self._set_card(None)
            self._pane = None

    def is_open(self) -> bool:
        """Whether the review is shown."""
        return self._stack.currentWidget() is self.view

    @property
    def card(self) -> ApprovalCard | None:
        """The pending request under review, if any."""
        return self._card

    def open(
        self, pane: ConversationPane, diff: str, title: str, card: ApprovalCard | None = None
    ) -> ReviewView:
        """Show ``diff`` full-window in place of ``pane``'s conversation.

        Args:
            pane: The conversation the diff belongs to (shown again when the review closes).
            diff: Unified diff text.
            title: What is reviewed, in words ("Edit `app.py` (+3 −1)").
            card: The pending request whose decision keys work in the review, if any.
        """
        if not self.is_open():
            focus = QApplication.focusWidget()
            self._return_to = focus if focus is not None and pane.isAncestorOf(focus) else None
        self._pane = pane
        self.reviewer = None
        self._set_card(card)
        pending = card is not None and card.is_pending()
        offers_never = card is not None and card.never_button.isEnabled()
        self.view.show_diff(title, diff, pending=pending, offers_never=offers_never)
        self._stack.setCurrentWidget(self.view)
        self.view.focus_diff()
        log.info("review opened: %s", title)
        return self.view

    def open_changes(
        self, pane: ConversationPane, diff: str, title: str, *, hunks: bool,
        reviewer: ChangesReviewer,
    ) -> ReviewView:  # fmt: skip
        """Show a change set (a turn's, a conversation's) full-window, every file of it, with
        Revert file, Revert hunk (``hunks``) and Undo answered by ``reviewer``."""
        if not self.is_open():
            focus = QApplication.focusWidget()
            self._return_to = focus if focus is not None and pane.isAncestorOf(focus) else None
        self._pane = pane
        self._set_card(None)
        self.reviewer = reviewer
        self.view.show_changes(title, diff, hunks=hunks)
        self._stack.setCurrentWidget(self.view)
        self.view.focus_diff()
        log.info("review of changes opened: %s", title)
        return self.view

    def review_conversation(self, pane: ConversationPane) -> bool:
        """View ▸ Review Conversation Changes: everything ``pane``'s conversation changed;
        False when there are no checkpoints to show it from."""
        return self.conversation_review is not None and self.conversation_review(pane)

    def open_card(self, pane: ConversationPane, card: ApprovalCard) -> bool:
        """Review a pending card's edit; False when it has no diff to show."""
        diff = card_diff(card)
        if diff is None:
            return False
        self.open(pane, diff, card.sentence.plain(), card)
        return True

    def open_first_pending(self, pane: ConversationPane) -> bool:
        """View ▸ Review Changes: review ``pane``'s first pending edit; False when none waits."""
        return any(self.open_card(pane, card) for card in pane.navigator.pending())

    def close(self) -> None:
        """Show the conversation again, the keyboard where it was (or where the contract
        puts it after a decision: the next pending card, else the composer)."""
        pane = self._pane
        self._set_card(None)
        self.reviewer = None
        if pane is None or not isValid(pane):
            return
        self._pane = None
        if self.is_open():
            self._stack.setCurrentWidget(pane)
        target = self._return_to
        self._return_to = None
        card = target if isinstance(target, ApprovalCard) else None
        if target is not None and isValid(target) and (card is None or card.is_pending()):
            target.setFocus(Qt.FocusReason.OtherFocusReason)
        elif not pane.navigator.focus_first():
            pane.navigator.focus_composer()

    # -- internals -----------------------------------------------------------------------

    def _revert(self, file: int, hunk: int) -> None:
        if self.reviewer is not None:
            self.reviewer.revert(file, hunk)

    def _undo(self) -> None:
        if self.reviewer is not None:
            self.reviewer.undo()

    def _hook_cards(self, pane: ConversationPane, _count: int) -> None:
        for card in pane.navigator.pending():
            attach_review(card, partial(self._on_review_requested, pane, card))

    def _on_review_requested(self, pane: ConversationPane, card: ApprovalCard) -> None:
        if isValid(card) and isValid(pane) and card.is_pending():
            self.open_card(pane, card)

    def _set_card(self, card: ApprovalCard | None) -> None:
        old = self._card
        if old is not None and isValid(old):
            old.settled.disconnect(self._on_settled)
        self._card = card
        if card is not None:
            card.settled.connect(self._on_settled)

    def _decide(self, decision: str) -> None:
        card = self._card
        if card is None or not isValid(card) or not card.is_pending():
            return
        self._deciding = True
        try:
            if decision == "reason":
                self._return_to = None
                self.close()
                card.start_reason()  # the reason is typed on the card, then Enter denies
                return
            actions = {"once": card.approve_once, "always": card.approve_always,
                       "deny": card.deny, "reject_always": card.never_button.click}  # fmt: skip
            actions[decision]()
        finally:
            self._deciding = False

    def _on_settled(self, _call_id: str) -> None:
        pane = self._pane
        card = self._card
        if pane is None or card is None:
            return
        if not self._deciding:  # decided elsewhere (a rule, the mode, a stop): say so, stay
            self.view.set_pending(
                False,
                card.status.text() or QCoreApplication.translate("ReviewController", "Decided"),
            )
            self._set_card(None)
            return
        self._return_to = None
        for candidate in pane.navigator.pending():
            if candidate is not card and self.open_card(pane, candidate):
                return
        self.close()

    def _on_stack_changed(self, _index: int) -> None:
        # Another conversation was chosen while the review was open: the review is over.
        if not self.is_open() and self._pane is not None:
            self.reviewer = None
            self._set_card(None)
            self._pane = None
            self._return_to = None
