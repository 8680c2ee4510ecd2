"""Keyboard focus among the pending approval cards of one conversation.

A small controller, not a container: the conversation view owns and lays out the cards and
hands each to ``add``. The navigator keeps the pending ones in arrival order, shows "i of N" on
each, gives focus to the first pending card when a request appears, moves focus between pending
cards on Tab/Shift+Tab/Up/Down, and after a decision moves on to the next pending card, or back
to the composer when none is left. Nothing here blocks or opens a dialog.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

from desktop.ui.approvals.card import ApprovalCard


class ApprovalNavigator(QObject):
    """Tracks and focuses the pending approval cards of one conversation.

    Signals:
        pending_count_changed(int): The number of pending cards changed.
    """

    pending_count_changed = Signal(int)

    def __init__(self, composer: QWidget | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._composer = composer
        self._pending: list[ApprovalCard] = []

    def set_composer(self, composer: QWidget | None) -> None:
        """The widget that gets focus back when no request is pending."""
        self._composer = composer

    def pending(self) -> list[ApprovalCard]:
        """The pending cards, oldest first."""
        self._prune()
        return list(self._pending)

    def current(self) -> ApprovalCard | None:
        """The pending card that has keyboard focus (or contains it), if any."""
        focus = QApplication.focusWidget()
        for card in self.pending():
            if focus is not None and (focus is card or card.isAncestorOf(focus)):
                return card
        return None

    def add(self, card: ApprovalCard) -> None:
        """Track a new card; focus it if it is the only pending one or none has focus.

        Args:
            card: A card already placed in the conversation view. Cards that are not pending
                (e.g. restored history) are ignored.
        """
        if not card.is_pending() or card in self._pending:
            return
        self._pending.append(card)
        card.settled.connect(self._on_settled)
        card.navigate_requested.connect(self._on_navigate)
        card.destroyed.connect(self._prune)
        self._update_positions()
        if self.current() is None:
            self._pending[0].take_focus(guard=True)

    def remove(self, card: ApprovalCard) -> None:
        """Stop tracking a card (e.g. it is removed from the view) without moving focus."""
        if card in self._pending:
            self._disconnect(card)
            self._pending.remove(card)
            self._update_positions()

    def focus_step(self, step: int) -> None:
        """Move focus ``step`` pending cards forward (negative: back), wrapping around."""
        pending = self.pending()
        if not pending:
            return
        current = self.current()
        index = pending.index(current) + step if current is not None else 0
        pending[index % len(pending)].take_focus(guard=False)

    def focus_first(self) -> None:
        """Focus the oldest pending card, e.g. when the conversation regains focus."""
        pending = self.pending()
        if pending:
            pending[0].take_focus(guard=False)

    # -- internals -----------------------------------------------------------------------

    def _on_navigate(self, step: int) -> None:
        sender = self.sender()
        if isinstance(sender, ApprovalCard) and sender in self._pending:
            pending = self._pending
            pending[(pending.index(sender) + step) % len(pending)].take_focus(guard=False)
        else:
            self.focus_step(step)

    def _on_settled(self, call_id: str) -> None:
        index = next((i for i, c in enumerate(self._pending) if c.call_id == call_id), None)
        if index is None:
            return
        card = self._pending[index]
        focus = QApplication.focusWidget()
        had_focus = focus is None or focus is card or card.isAncestorOf(focus)
        self._disconnect(card)
        del self._pending[index]
        self._update_positions()
        if not had_focus:
            return
        if self._pending:
            self._pending[min(index, len(self._pending) - 1)].take_focus(guard=True)
        elif self._composer is not None and isValid(self._composer):
            self._composer.setFocus(Qt.FocusReason.OtherFocusReason)

    def _disconnect(self, card: ApprovalCard) -> None:
        if isValid(card):
            card.settled.disconnect(self._on_settled)
            card.navigate_requested.disconnect(self._on_navigate)
            card.destroyed.disconnect(self._prune)

    def _prune(self) -> None:
        alive = [card for card in self._pending if isValid(card)]
        if len(alive) != len(self._pending):
            self._pending = alive
            self._update_positions()

    def _update_positions(self) -> None:
        self._pending = [card for card in self._pending if isValid(card)]
        total = len(self._pending)
        for number, card in enumerate(self._pending, start=1):
            card.set_position(number, total)
        self.pending_count_changed.emit(total)
