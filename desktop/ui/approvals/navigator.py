"""Keyboard focus among the pending approval cards of one conversation, and the composer.

A small controller, not a container: the conversation view owns and lays out the cards and
hands each to ``add``. The navigator keeps the pending ones in arrival order, shows "i of N" on
each, and moves focus: Tab from the composer to the first pending card, Tab/Up/Down between
pending cards, Shift+Tab from a card back to the composer, and after a decision to the next
pending card (or back to the composer when none is left). The focused card is always scrolled
into view. Nothing here blocks or opens a dialog.

The keyboard contract: a key typed into the composer is never a decision. A new request takes
focus only when the composer is not in use (empty, and no key typed into it for 1.5 s; see
``desktop.ui.composer.PromptEdit.in_use``); otherwise focus stays and the first pending card
shows "Tab to review" until the composer is empty and idle (then the card takes focus: send a
prompt, wait, press Y) or the user moves the keyboard himself (Tab, Shift+Tab, a click).
"""

from __future__ import annotations

import logging
from typing import Protocol, runtime_checkable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QTextEdit,
    QWidget,
)
from shiboken6 import isValid

from desktop.ui.approvals.card import ApprovalCard

log = logging.getLogger(__name__)

#: Pixels kept around a card scrolled into view, so its focus ring and a bit of context show.
REVEAL_MARGIN = 24
#: How often a request that could not take focus asks again whether the composer is idle.
RECHECK_MS = 100
_TEXT_INPUTS = (QLineEdit, QPlainTextEdit, QTextEdit, QAbstractSpinBox)


@runtime_checkable
class ComposerInUse(Protocol):
    """The composer, as far as the navigator needs it: may a request take focus from it?"""

    def in_use(self) -> bool:
        """True while the user writes in it (text in it, or a key typed very recently)."""
        ...


class ApprovalNavigator(QObject):
    """Tracks and focuses the pending approval cards of one conversation.

    Signals:
        pending_count_changed(int): The number of pending cards changed.
    """

    pending_count_changed = Signal(int)

    def __init__(self, composer: QWidget | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._composer: QWidget | None = None
        self._pending: list[ApprovalCard] = []
        self._revealing: ApprovalCard | None = None
        self._watched: list[QScrollArea] = []
        # A request that arrived while the user wrote takes focus once the composer is empty
        # and idle (send, wait, press Y), unless the user moved the keyboard himself first.
        self._waiting = QTimer(self)
        self._waiting.setInterval(RECHECK_MS)
        self._waiting.timeout.connect(self._take_when_idle)
        self.set_composer(composer)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)

    def set_composer(self, composer: QWidget | None) -> None:
        """The widget that gets focus back when no request is pending (Tab there: cards)."""
        if self._composer is not None and isValid(self._composer):
            self._composer.removeEventFilter(self)
        self._composer = composer
        if composer is not None:
            composer.installEventFilter(self)

    def pending(self) -> list[ApprovalCard]:
        """The pending cards, oldest first."""
        self._prune()
        return list(self._pending)

    def current(self) -> ApprovalCard | None:
        """The pending card that has keyboard focus (or contains it), if any."""
        return self._card_of(QApplication.focusWidget())

    def may_take_focus(self) -> bool:
        """Whether a new request may take the keyboard: nobody is writing anywhere.

        Not while the composer is in use, and not from another text field that has focus.
        """
        composer = self._composer
        editor: object = composer if composer is not None and isValid(composer) else None
        if isinstance(editor, ComposerInUse) and editor.in_use():
            return False
        focus = QApplication.focusWidget()
        return focus is None or focus is composer or not isinstance(focus, _TEXT_INPUTS)

    def add(self, card: ApprovalCard) -> None:
        """Track a new card; focus it if no card has focus and the composer is not in use.

        Args:
            card: A card already placed in the conversation view. Cards that are not pending
                (e.g. restored history) are ignored.
        """
        if not card.is_pending() or card in self._pending:
            return
        self._pending.append(card)
        card.settled.connect(self._on_settled)
        card.navigate_requested.connect(self._on_navigate)
        card.leave_requested.connect(self._on_leave)
        card.typed_through.connect(self._on_typed_through)
        card.destroyed.connect(self._prune)
        self._update_positions()
        if self.current() is not None:
            return
        if self.may_take_focus():
            self._focus(self._pending[0], guard=True)
        else:
            log.info("approval %s waits: the keyboard stays where the user writes", card.call_id)
            self._update_hints()
            self._waiting.start()

    def remove(self, card: ApprovalCard) -> None:
        """Stop tracking a card (e.g. it is removed from the view) without moving focus."""
        if card in self._pending:
            self._disconnect(card)
            self._pending.remove(card)
            self._update_positions()
            self._update_hints()

    def focus_step(self, step: int) -> None:
        """Move focus ``step`` pending cards forward (negative: back), wrapping around."""
        pending = self.pending()
        if not pending:
            return
        current = self.current()
        index = pending.index(current) + step if current is not None else 0
        self._focus(pending[index % len(pending)], guard=False)

    def focus_first(self) -> bool:
        """Focus the oldest pending card (Tab from the composer); False when there is none."""
        pending = self.pending()
        if pending:
            self._focus(pending[0], guard=False)
        return bool(pending)

    def focus_composer(self) -> None:
        """Give the keyboard back to the composer (Shift+Tab on a card)."""
        if self._composer is not None and isValid(self._composer):
            self._composer.setFocus(Qt.FocusReason.BacktabFocusReason)

    # -- internals -----------------------------------------------------------------------

    def _focus(self, card: ApprovalCard, *, guard: bool) -> None:
        self._waiting.stop()
        card.take_focus(guard=guard)
        self._update_hints()
        self._revealing = card
        self._reveal()

    def _reveal(self) -> None:
        """Scroll the card being focused into view, again whenever the scroll range changes
        until it is in view (a card just added has no place in the layout yet)."""
        card = self._revealing
        if card is None or not isValid(card) or not card.hasFocus():
            self._revealing = None
            return
        area = card.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if not isinstance(area, QScrollArea):
            self._revealing = None
            return
        if area not in self._watched:
            self._watched.append(area)
            area.verticalScrollBar().rangeChanged.connect(self._reveal)
            area.destroyed.connect(lambda: self._watched.clear())
        area.ensureWidgetVisible(card, 0, REVEAL_MARGIN)
        top = card.mapTo(area.viewport(), QPoint(0, 0)).y()
        if card.height() > 0 and 0 <= top < area.viewport().height():
            self._revealing = None  # in view: later scrolling is the user's
            log.info("approval %s has the keyboard, in view", card.call_id)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Tab in the composer goes to the first pending card (without one: the usual Tab).
        if (
            watched is self._composer
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Tab
            and event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            == Qt.KeyboardModifier.NoModifier
        ):
            return self.focus_first()
        return super().eventFilter(watched, event)

    def _on_navigate(self, step: int) -> None:
        sender = self.sender()
        if isinstance(sender, ApprovalCard) and sender in self._pending:
            pending = self._pending
            self._focus(pending[(pending.index(sender) + step) % len(pending)], guard=False)
        else:
            self.focus_step(step)

    def _on_leave(self) -> None:
        self._waiting.stop()  # the user chose the composer: no card takes focus by itself
        self.focus_composer()

    def _take_when_idle(self) -> None:
        focus = QApplication.focusWidget()
        if not self.pending() or (focus is not None and focus is not self._composer):
            self._waiting.stop()  # decided elsewhere, or the keyboard went somewhere else
        elif self.may_take_focus():
            self._focus(self._pending[0], guard=True)

    def _on_typed_through(self, event: QKeyEvent) -> None:
        # A key that reached a card which had just taken focus by itself was meant for the
        # composer: it goes there, and so does the keyboard.
        composer = self._composer
        if composer is None or not isValid(composer):
            return
        composer.setFocus(Qt.FocusReason.OtherFocusReason)
        copy = QKeyEvent(event.type(), event.key(), event.modifiers(), event.text(),
                         event.isAutoRepeat(), event.count())  # fmt: skip
        QApplication.sendEvent(composer, copy)
        self._update_hints()
        self._waiting.start()

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
        if had_focus and self._pending:
            self._focus(self._pending[min(index, len(self._pending) - 1)], guard=True)
        elif had_focus:
            self.focus_composer()
        self._update_hints()

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is not None and (new is self._composer or self._card_of(new) is not None):
            self._update_hints()

    def _update_hints(self) -> None:
        """Show "Tab to review" on the first pending card while no card has the keyboard."""
        pending = self.pending()
        on_card = self.current() is not None
        for number, card in enumerate(pending):
            card.set_review_hint(number == 0 and not on_card)

    def _card_of(self, widget: QWidget | None) -> ApprovalCard | None:
        if widget is None:
            return None
        for card in self.pending():
            if widget is card or card.isAncestorOf(widget):
                return card
        return None

    def _disconnect(self, card: ApprovalCard) -> None:
        if isValid(card):
            card.settled.disconnect(self._on_settled)
            card.navigate_requested.disconnect(self._on_navigate)
            card.leave_requested.disconnect(self._on_leave)
            card.typed_through.disconnect(self._on_typed_through)
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
