"""An inline, keyboard-first approval card for one pending tool call (never a modal dialog).

Keys while the card has focus: Y or Enter approve once, A approve always (this category, this
conversation), N or Esc deny, Shift+N deny with a reason typed inline (Enter confirms, Esc goes
back), Ctrl+Shift+N deny always (where the agent's protocol offers it: ACP), Tab or Up/Down ask the
navigator for the next/previous pending card, Shift+Tab goes back to the composer, Page Up/Down
scroll the preview. Auto-repeated keys never decide, and for a short moment after the card took
focus by itself a typed key goes to the composer instead (``typed_through``), so a keystroke meant
for the composer (or a key held a little too long on the previous card) cannot approve anything. A
click never focuses a card (Tab does).

A pending card is titled with what will happen ("Edit `src/util.py` (+12 −3)", see
``summary``), then shows the diff or command and the buttons. Once decided it collapses to one
line (``line.CardLine``): what, who decided, when, and how it ran; the buttons are gone and the
body is one click away behind the line's toggle.
"""

from __future__ import annotations

import time
from enum import Enum

from PySide6.QtCore import QEvent, QObject, Qt, Signal
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
from desktop.ui.approvals import spoken
from desktop.ui.approvals.key_guard import DEFAULT_KEY_GUARD_MS, KeyGuard
from desktop.ui.approvals.line import CardLine
from desktop.ui.approvals.preview import PreviewBody
from desktop.ui.approvals.summary import describe_decision, extra_description, tool_sentence
from desktop.ui.diff import TOGGLE_SHORTCUT
from desktop.ui.icons import Icon, decorate
from desktop.ui.theme import ElidedLabel, set_role

__all__ = ["ApprovalCard", "CardState", "describe_decision"]

_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_CARD_KEYS = (Qt.Key.Key_Y, Qt.Key.Key_A, Qt.Key.Key_N, Qt.Key.Key_Escape, *_ENTER)
_SHIFT_KEYPAD = Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.KeypadModifier
#: "Deny always" is Ctrl+Shift+N: two modifiers, never typed by accident (a plain letter could be).
_CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


class CardState(Enum):
    """Where a card is in its life."""

    PENDING = "pending"
    SUBMITTED = "submitted"  # the user decided; waiting for the session to confirm
    RESOLVED = "resolved"


class ApprovalCard(QFrame):
    """Shows what a tool call will do and collects the user's decision from keys or buttons.

    Signals:
        decided(str, str, str): ``(call_id, decision, reason)`` when the user decides;
            ``decision`` is a ``Decision`` value; ``reason`` is "" unless denied with one.
        settled(str): ``call_id`` when the card stops waiting, because the user decided or
            because the decision came from elsewhere (``mark_resolved``).
        navigate_requested(int): +1 or -1 when the user asks for the next or previous
            pending card (Tab, Down, Up).
        leave_requested(): Shift+Tab: the user goes back to the composer.
        typed_through(QKeyEvent): a typing key reached the card while it had just taken focus
            by itself (the key guard): it was meant for the composer.
    """

    decided = Signal(str, str, str)
    settled = Signal(str)
    navigate_requested = Signal(int)
    leave_requested = Signal()
    typed_through = Signal(QKeyEvent)

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
        self._guard = KeyGuard(key_guard_ms, self, self.call_id, self.is_pending)
        self.setObjectName("approvalCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        # Tab (and the navigator) focus a card, a click does not: clicking its toggles or its
        # background leaves the keyboard where it is (the composer), see the keyboard contract.
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        # A card is as tall as its content; extra room in the conversation goes elsewhere.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.sentence = tool_sentence(event)
        self.setAccessibleName(self.tr("Approval request: {what}").format(
            what=self.sentence.plain()))  # fmt: skip
        self.line = CardLine(self.sentence, self)
        self.title = self.line.title
        self.status = self.line.outcome  # who decided, in words ("Approved by you")
        self.position = QLabel(self)
        self.position.setAccessibleName(self.tr("Request position"))
        set_role(self.position, "muted", polished=False)
        self.review_hint = QLabel(self.tr("Tab to review"), self)
        self.review_hint.setAccessibleName(self.tr("Press Tab to review this request"))
        set_role(self.review_hint, "reviewHint", polished=False)
        self.review_hint.hide()
        # The agent's description only when it says more than the title (often it is the call
        # again as JSON); one muted line, the whole text in its tooltip.
        extra = extra_description(event, self.sentence)
        self.description = ElidedLabel(extra, self)
        self.description.setToolTip(event.description)
        self.description.setAccessibleDescription(event.description)
        self.description.setVisible(bool(extra))
        set_role(self.description, "muted", polished=False)
        # What is one click away once the card is decided: the preview, then the run's output.
        self.details = QWidget(self)
        self.body = PreviewBody(event, self.details)
        self.action_row = QWidget(self)
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setPlaceholderText(self.tr("Reason for denying — Enter: deny, Esc: back"))
        self.reason_edit.setAccessibleName(self.tr("Reason for denying"))
        self.reason_edit.hide()
        # Short labels keep the row narrower than the conversation column; the full wording is
        # each button's accessible name and tooltip.
        self.approve_button = self._button(
            self.tr("Approve"), self.tr("Approve once"), "Y / Enter", "Y", Icon.APPROVE
        )
        self.always_button = self._button(
            self.tr("Always"),
            self.tr("Approve always: {category} tools in this conversation").format(
                category=self.category), "A", "", Icon.APPROVE_ALWAYS)  # fmt: skip
        self.deny_button = self._button(self.tr("Deny"), self.tr("Deny"), "N / Esc", "N", Icon.DENY)
        self.reason_button = self._button(
            self.tr("Reason…"), self.tr("Deny with reason"), "Shift+N", self.tr("⇧N"),
            Icon.DENY_REASON)  # fmt: skip
        self.never_button = self._button(
            self.tr("Never"),
            self.tr("Deny always: {category} tools in this conversation").format(
                category=self.category), "Ctrl+Shift+N", "⌃⇧N", Icon.NEVER)  # fmt: skip
        self.never_button.setVisible(event.offers_reject_always)  # the protocol has it (ACP)
        self.never_button.setEnabled(event.offers_reject_always)  # else its key does nothing
        set_role(self.approve_button, "primary", polished=False)
        set_role(self.deny_button, "danger", polished=False)
        self._build_layout()
        self._connect_signals()
        set_role(self, "approval", polished=False, state=self.state.value)
        if self.state != CardState.PENDING:
            self._collapse()
        else:  # what a screen reader says with the name: what will happen, which keys
            self.setAccessibleDescription(spoken.keys(event.offers_reject_always, extra))

    def _button(self, label: str, name: str, keys: str, key_hint: str, icon: Icon) -> QPushButton:
        button = QPushButton(f"{label}  {key_hint or keys}", self.action_row)
        role = {Icon.APPROVE: "accent_text", Icon.DENY: "danger", Icon.NEVER: "danger"}
        decorate(button, icon, role=role.get(icon, "text"), size=14)
        button.setAccessibleName(name)
        button.setAccessibleDescription(self.tr("Shortcut: {keys}").format(keys=keys))
        button.setToolTip(f"{name} ({keys})")
        # Buttons take no focus: Tab moves between pending cards, and focus stays on the card.
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        return button

    def _build_layout(self) -> None:
        self.line.insert(self.review_hint)
        self.line.insert(self.position)
        self._details_layout = QVBoxLayout(self.details)
        self._details_layout.setContentsMargins(0, 0, 0, 0)
        self._details_layout.setSpacing(6)
        self._details_layout.addWidget(self.body)
        buttons = QHBoxLayout(self.action_row)
        buttons.setContentsMargins(0, 2, 0, 0)
        buttons.setSpacing(8)
        for button in (self.approve_button, self.always_button, self.deny_button,
                       self.reason_button, self.never_button):  # fmt: skip
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 9, 12, 9)
        layout.setSpacing(8)
        layout.addWidget(self.line)
        layout.addWidget(self.description)
        layout.addWidget(self.details, 1)
        layout.addWidget(self.reason_edit)
        layout.addWidget(self.action_row)

    def _connect_signals(self) -> None:
        self.approve_button.clicked.connect(self.approve_once)
        self.always_button.clicked.connect(self.approve_always)
        self.deny_button.clicked.connect(self.deny)
        self.reason_button.clicked.connect(self.start_reason)
        self.never_button.clicked.connect(lambda: self._decide(Decision.REJECT_ALWAYS))
        self.reason_edit.installEventFilter(self)
        self.line.expanded.connect(self.details.setVisible)

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
        self._collapse()
        self._show_status(self.tr("Denying…") if decision.denies else self.tr("Approving…"))
        self.decided.emit(self.call_id, decision.value, reason)
        self.settled.emit(self.call_id)

    def mark_resolved(self, event: ToolDecided, at: float | None = None) -> None:
        """Collapse to one line saying who decided (the session's ``ToolDecided``) and when
        (``at``, epoch seconds; now if not given)."""
        was_pending = self.is_pending()
        if self.reason_edit.isVisible():
            self.cancel_reason()
        self.state = CardState.RESOLVED
        self._collapse()
        self._show_status(
            describe_decision(event, self.category), time.time() if at is None else at
        )
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
        """Show "index of total" among the conversation's pending requests (not "1 of 1")."""
        self.position.setText(self.tr("{index} of {total}").format(index=index, total=total))
        self.position.setVisible(self.is_pending() and total > 1)

    def take_focus(self, *, guard: bool) -> None:
        """Focus the card; with ``guard``, ignore decision keys for ``key_guard_ms``."""
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        self._guard.start() if guard else self._guard.stop()

    def set_run_status(self, text: str, status: str) -> None:
        """How the call ran, on the card's line ("running", "succeeded", "failed")."""
        self.line.set_run_status(text, status)

    def add_detail(self, widget: QWidget) -> None:
        """Put ``widget`` (e.g. the call's output) with the body, one click away."""
        self._details_layout.addWidget(widget)
        self.line.set_expandable(True)

    def set_expanded(self, shown: bool) -> None:
        """Show or hide what is one click away (the line's toggle)."""
        self.line.toggle.setChecked(shown)
        self.details.setVisible(shown)

    def is_expanded(self) -> bool:
        """Whether the body is shown."""
        return not self.details.isHidden()

    def _collapse(self) -> None:
        """Decided: no buttons, no position or hint, the body behind the line's toggle."""
        self.action_row.hide()
        self.review_hint.hide()
        self.position.clear()
        self.position.hide()
        self.description.hide()
        self.line.set_expandable(self.body.has_content() or self._details_layout.count() > 1)
        self.set_expanded(False)
        set_role(self, "approval", state=self.state.value)

    def _show_status(self, text: str, at: float | None = None) -> None:
        self.line.set_outcome(text, at)
        self.setAccessibleDescription(text)

    # -- keys ----------------------------------------------------------------------------

    def _guarded(self) -> bool:
        return self._guard.active()

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
        elif self._guarded() and event.text().isprintable() and event.text():
            self.typed_through.emit(event)  # typed just as the card appeared: not a decision
        elif not self._decision_key(key, mods, event):
            super().keyPressEvent(event)

    def _decision_key(self, key: int, mods: Qt.KeyboardModifier, event: QKeyEvent) -> bool:
        shift = mods == Qt.KeyboardModifier.ShiftModifier
        plain = mods == Qt.KeyboardModifier.NoModifier
        once, deny = self.approve_once, self.deny
        actions = {Qt.Key.Key_Y: once, Qt.Key.Key_A: self.approve_always, Qt.Key.Key_N: deny,
                   Qt.Key.Key_Escape: deny} | dict.fromkeys(_ENTER, once)  # fmt: skip
        if shift and key == Qt.Key.Key_N:
            action = self.start_reason
        elif mods == _CTRL_SHIFT and key == Qt.Key.Key_N:
            action = self.never_button.click
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
        # Tab inside the card (or in a child that passes it up) moves to the next pending
        # card; Shift+Tab goes back to the composer.
        if self.is_pending():
            if next:
                self.navigate_requested.emit(1)
            else:
                self.leave_requested.emit()
            return True
        return super().focusNextPrevChild(next)

    def focusInEvent(self, event: QFocusEvent) -> None:
        if event.reason() == Qt.FocusReason.MouseFocusReason:
            self._guard.stop()
        self.set_review_hint(False)
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
