"""An inline, keyboard-first approval card for one pending tool call (never a modal dialog).

Keys while the card has focus: Y or Enter approve once, A approve always (this category, this
conversation), N or Esc deny, Shift+N deny with a reason typed inline (Enter confirms, Esc goes
back), Tab/Shift+Tab or Up/Down ask the navigator for the next/previous pending card,
Page Up/Down scroll the preview. Auto-repeated keys never decide, and for a short moment after
the card took focus by itself decisions are ignored, so a keystroke meant for the composer (or
a key held a little too long on the previous card) cannot approve anything.
"""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import QElapsedTimer, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.core.events import Decision, DecisionSource, ToolDecided, ToolRequested
from desktop.ui.approvals.preview import PreviewBody
from desktop.ui.diff import TOGGLE_SHORTCUT
from desktop.ui.theme import ElidedLabel, set_role

#: Milliseconds after the card took focus by itself during which decision keys are ignored.
DEFAULT_KEY_GUARD_MS = 300
_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_CARD_KEYS = (Qt.Key.Key_Y, Qt.Key.Key_A, Qt.Key.Key_N, Qt.Key.Key_Escape, *_ENTER)
_SHIFT_KEYPAD = Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.KeypadModifier


class CardState(Enum):
    """Where a card is in its life."""

    PENDING = "pending"
    SUBMITTED = "submitted"  # the user decided; waiting for the session to confirm
    RESOLVED = "resolved"


def describe_decision(event: ToolDecided, category: str) -> str:
    """Who decided a tool call, in words (e.g. "Approved always (edit)")."""
    approved = event.decision != Decision.DENY
    verb = "Approved" if approved else "Denied"
    source, name = event.source, event.source_name
    if source == DecisionSource.USER:
        text = f"Approved always ({category})" if event.decision == Decision.ALWAYS else (
            f"{verb} by you")  # fmt: skip
    elif source == DecisionSource.MODE:
        text = f"{verb} by mode {name or ''}".rstrip()
    elif source == DecisionSource.ALWAYS_RULE:
        text = f"{verb} by always rule ({name or category})"
    elif source == DecisionSource.EXTENSION:
        text = f"{verb} by extension {name or ''}".rstrip()
    elif source == DecisionSource.POLICY:
        text = f"{verb} by policy {name or ''}".rstrip()
    else:
        text = f"{verb}: the session was closed"
    return f"{text}: {event.reason}" if event.reason else text


class ApprovalCard(QFrame):
    """Shows what a tool call will do and collects the user's decision from keys or buttons.

    Signals:
        decided(str, str, str): ``(call_id, decision, reason)`` when the user decides;
            ``decision`` is "once", "always" or "deny"; ``reason`` is "" unless denied with one.
        settled(str): ``call_id`` when the card stops waiting, because the user decided or
            because the decision came from elsewhere (``mark_resolved``).
        navigate_requested(int): +1 or -1 when the user asks for the next or previous
            pending card (Tab, Shift+Tab, Down, Up).
    """

    decided = Signal(str, str, str)
    settled = Signal(str)
    navigate_requested = Signal(int)

    def __init__(
        self,
        event: ToolRequested,
        parent: QWidget | None = None,
        *,
        key_guard_ms: int = DEFAULT_KEY_GUARD_MS,
    ) -> None:
        super().__init__(parent)
        self.request = event
        self.call_id = event.call_id
        self.category = event.category.value
        self.state = CardState.PENDING if event.pending else CardState.RESOLVED
        self.key_guard_ms = key_guard_ms
        self._guard = QElapsedTimer()
        self.setObjectName("approvalCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        # A card is as tall as its content; extra room in the conversation goes elsewhere.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.setAccessibleName(self.tr("Approval request: {name}").format(name=event.name))
        self.title = QLabel(self.tr("{name} wants to run ({category})").format(
            name=event.name, category=self.category), self)  # fmt: skip
        self.title.setStyleSheet("font-weight: bold;")
        self.position = QLabel(self)
        self.position.setAccessibleName(self.tr("Request position"))
        set_role(self.position, "muted", polished=False)
        self.review_hint = QLabel(self.tr("Tab to review"), self)
        self.review_hint.setAccessibleName(self.tr("Press Tab to review this request"))
        set_role(self.review_hint, "reviewHint", polished=False)
        self.review_hint.hide()
        # One line (the whole text in its tooltip): an agent's description may be a long JSON
        # dump, and the preview below shows exactly what will happen anyway.
        self.description = ElidedLabel(" ".join(event.description.split()), self)
        self.description.setToolTip(event.description)
        self.description.setAccessibleDescription(event.description)
        self.description.setVisible(bool(event.description))
        self.body = PreviewBody(event, self)
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setPlaceholderText(self.tr("Reason for denying — Enter: deny, Esc: back"))
        self.reason_edit.setAccessibleName(self.tr("Reason for denying"))
        self.reason_edit.hide()
        self.status = QLabel(self)
        self.status.setAccessibleName(self.tr("Decision"))
        self.status.hide()
        # Short labels keep the row narrower than the conversation column; the full wording is
        # each button's accessible name and tooltip.
        self.approve_button = self._button(
            self.tr("Approve"), self.tr("Approve once"), "Y / Enter", "Y"
        )
        self.always_button = self._button(
            self.tr("Always"),
            self.tr("Approve always: {category} tools in this conversation").format(
                category=self.category), "A")  # fmt: skip
        self.deny_button = self._button(self.tr("Deny"), self.tr("Deny"), "N / Esc", "N")
        self.reason_button = self._button(
            self.tr("Reason…"), self.tr("Deny with reason"), "Shift+N", self.tr("⇧N")
        )
        set_role(self.approve_button, "primary")
        set_role(self.deny_button, "danger")
        self._build_layout()
        self._connect_signals()
        if self.state != CardState.PENDING:
            self._set_buttons_enabled(False)

    def _button(self, label: str, name: str, keys: str, key_hint: str = "") -> QPushButton:
        button = QPushButton(f"{label}  {key_hint or keys}", self)
        button.setAccessibleName(name)
        button.setAccessibleDescription(self.tr("Shortcut: {keys}").format(keys=keys))
        button.setToolTip(f"{name} ({keys})")
        # Buttons take no focus: Tab moves between pending cards, and focus stays on the card.
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        return button

    def _build_layout(self) -> None:
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.review_hint)
        header.addWidget(self.position)
        buttons = QHBoxLayout()
        for button in (
            self.approve_button,
            self.always_button,
            self.deny_button,
            self.reason_button,
        ):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.description)
        layout.addWidget(self.body, 1)
        layout.addWidget(self.reason_edit)
        layout.addLayout(buttons)
        layout.addWidget(self.status)

    def _connect_signals(self) -> None:
        self.approve_button.clicked.connect(self.approve_once)
        self.always_button.clicked.connect(self.approve_always)
        self.deny_button.clicked.connect(self.deny)
        self.reason_button.clicked.connect(self.start_reason)
        self.reason_edit.installEventFilter(self)

    # -- actions -------------------------------------------------------------------------

    def is_pending(self) -> bool:
        """Whether the card still waits for a decision."""
        return self.state == CardState.PENDING

    def approve_once(self) -> None:
        """Approve this call once."""
        self._decide(Decision.ONCE)

    def approve_always(self) -> None:
        """Approve this call and every later call of its category in this conversation."""
        self._decide(Decision.ALWAYS)

    def deny(self) -> None:
        """Deny this call without a reason."""
        self._decide(Decision.DENY)

    def start_reason(self) -> None:
        """Show the inline reason field and focus it."""
        if not self.is_pending():
            return
        self.reason_edit.show()
        self.reason_edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def cancel_reason(self) -> None:
        """Hide the reason field and give focus back to the card."""
        # Focus first: hiding a focused child would make Qt move focus to the next widget.
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.reason_edit.clear()
        self.reason_edit.hide()

    def _decide(self, decision: Decision, reason: str = "") -> None:
        if not self.is_pending():
            return
        if self.reason_edit.isVisible():
            self.cancel_reason()
        self.state = CardState.SUBMITTED
        self.review_hint.hide()
        self._set_buttons_enabled(False)
        self.position.clear()
        wording = {Decision.ONCE: self.tr("Approving…"), Decision.ALWAYS: self.tr("Approving…")}
        self._show_status(wording.get(decision, self.tr("Denying…")))
        self.decided.emit(self.call_id, decision.value, reason)
        self.settled.emit(self.call_id)

    def mark_resolved(self, event: ToolDecided) -> None:
        """Show who decided (from the session's ``ToolDecided``) and disable the actions."""
        was_pending = self.is_pending()
        if self.reason_edit.isVisible():
            self.cancel_reason()
        self.state = CardState.RESOLVED
        self.review_hint.hide()
        self._set_buttons_enabled(False)
        self.position.clear()
        self._show_status(describe_decision(event, self.category))
        if was_pending:
            self.settled.emit(self.call_id)

    def mark_cancelled(self, reason: str = "") -> None:
        """The call was cancelled before a decision (e.g. the turn was stopped)."""
        self.mark_resolved(
            ToolDecided(call_id=self.call_id, decision=Decision.DENY,
                        source=DecisionSource.SHUTDOWN, reason=reason or None)
        )  # fmt: skip
        self._show_status(self.tr("Cancelled") + (f": {reason}" if reason else ""))

    def set_review_hint(self, shown: bool) -> None:
        """Show or hide the "Tab to review" hint (a request that did not take focus)."""
        self.review_hint.setVisible(shown and self.is_pending())

    def set_position(self, index: int, total: int) -> None:
        """Show "index of total" among the conversation's pending requests."""
        self.position.setText(self.tr("{index} of {total}").format(index=index, total=total))

    def take_focus(self, *, guard: bool) -> None:
        """Focus the card; with ``guard``, ignore decision keys for ``key_guard_ms``."""
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        if guard and self.key_guard_ms > 0:
            self._guard.start()
        else:
            self._guard.invalidate()

    def _set_buttons_enabled(self, enabled: bool) -> None:
        for button in (
            self.approve_button,
            self.always_button,
            self.deny_button,
            self.reason_button,
        ):
            button.setEnabled(enabled)

    def _show_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.show()
        self.setAccessibleDescription(text)

    # -- keys ----------------------------------------------------------------------------

    def _guarded(self) -> bool:
        return self._guard.isValid() and self._guard.elapsed() < self.key_guard_ms

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        plain = mods == Qt.KeyboardModifier.NoModifier
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down) and plain:
            self.navigate_requested.emit(1 if key == Qt.Key.Key_Down else -1)
        elif key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown) and plain:
            self.body.scroll_pages(1 if key == Qt.Key.Key_PageDown else -1)
        elif (
            self.body.diff_view is not None
            and QKeySequence(event.keyCombination()).matches(QKeySequence(TOGGLE_SHORTCUT))
            == QKeySequence.SequenceMatch.ExactMatch
        ):
            self.body.diff_view.toggle_layout()
        elif not self._decision_key(key, mods, event):
            super().keyPressEvent(event)

    def _decision_key(self, key: int, mods: Qt.KeyboardModifier, event: QKeyEvent) -> bool:
        shift = mods == Qt.KeyboardModifier.ShiftModifier
        plain = mods == Qt.KeyboardModifier.NoModifier
        actions = {
            Qt.Key.Key_Y: self.approve_once,
            Qt.Key.Key_A: self.approve_always,
            Qt.Key.Key_N: self.deny,
            Qt.Key.Key_Escape: self.deny,
            Qt.Key.Key_Return: self.approve_once,
            Qt.Key.Key_Enter: self.approve_once,
        }
        if shift and key == Qt.Key.Key_N:
            action = self.start_reason
        elif plain and key in actions:
            action = actions[Qt.Key(key)]
        else:
            return False
        if self.is_pending() and not event.isAutoRepeat() and not self._guarded():
            action()
        return True

    def event(self, event: QEvent) -> bool:
        # Claim our keys before window shortcuts see them (e.g. an Esc or Enter shortcut).
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() in _CARD_KEYS
            and event.modifiers() & ~_SHIFT_KEYPAD == Qt.KeyboardModifier.NoModifier
        ):
            event.accept()
            return True
        return super().event(event)

    def focusNextPrevChild(self, next: bool) -> bool:
        # Tab inside the card (or in a child that passes it up) moves between pending cards.
        if self.is_pending():
            self.navigate_requested.emit(1 if next else -1)
            return True
        return super().focusNextPrevChild(next)

    def focusInEvent(self, event: QFocusEvent) -> None:
        if event.reason() == Qt.FocusReason.MouseFocusReason:
            self._guard.invalidate()
        super().focusInEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # QLineEdit ignores Enter (for default buttons) and Esc, so both would reach the card
        # and approve or deny without a reason; the reason field handles them itself.
        if watched is self.reason_edit and isinstance(event, QKeyEvent):
            if event.type() == QEvent.Type.KeyPress and event.key() in _ENTER:
                self._decide(Decision.DENY, self.reason_edit.text().strip())
                return True
            if event.type() == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_Escape:
                self.cancel_reason()
                return True
        return super().eventFilter(watched, event)
