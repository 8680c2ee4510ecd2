"""The panel under the composer's mode button: the approval mode and the always-rules.

It tells the truth about what runs without asking in this conversation: the three modes (the
current one checked) and every always-rule the user made with "approve always" or "deny always"
(what it allows or denies, since when, from which call), each with Revoke, and Revoke all. It
only shows what the session published (``ModeChanged``, ``RulesChanged``) and emits what the
user chose; the pane sends the commands. A popup, operated from the keyboard: ↑/↓ or Tab move,
Space/Enter choose, Esc closes.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.events import AlwaysRule
from desktop.ui.composer import (  # the composer's labels (it paints before the core loads)
    _MODES,
    mode_label,
)
from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.theme import set_role

#: What each mode means, under its name.
_MODE_HINTS = {
    "default": QT_TRANSLATE_NOOP("RulesPanel", "Every tool call waits for you."),
    "auto_edit": QT_TRANSLATE_NOOP("RulesPanel", "Reading and editing files run without asking."),
    "yolo": QT_TRANSLATE_NOOP("RulesPanel", "Every tool call runs without asking."),
}
EMPTY_TEXT = QT_TRANSLATE_NOOP(
    "RulesPanel", "No always-rules yet — press A on a request to add one."
)
_CODE = re.compile(r"`([^`]*)`")


def since(created_at: float, now: float | None = None) -> str:
    """``since 14:02`` today, ``since 3 May 14:02`` before."""
    made = time.localtime(created_at)
    today = time.localtime(time.time() if now is None else now)
    same_day = (made.tm_year, made.tm_yday) == (today.tm_year, today.tm_yday)
    return QCoreApplication.translate("RuleRow", "since {time}").format(
        time=time.strftime("%H:%M" if same_day else "%-d %b %H:%M", made)
    )


def _call_html(made_from: str) -> str:
    return _CODE.sub(r"<code>\1</code>", html.escape(made_from, quote=False))


class RuleRow(QFrame):
    """One always-rule: what it allows (or denies), since when and from which call, and Revoke."""

    def __init__(self, rule: AlwaysRule, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rule = rule
        set_role(self, "ruleRow", polished=False)
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 4, 4, 4)
        row.setSpacing(8)
        text = QVBoxLayout()
        text.setSpacing(0)
        what = rule.label[:1].upper() + rule.label[1:]
        self.title = QLabel(
            self.tr("Denied: {label}").format(label=rule.label) if rule.denies else what
        )
        set_role(self.title, "ruleTitle", polished=False)
        detail = since(rule.created_at)
        spoken = detail + (f", from {rule.made_from.replace('`', '')}" if rule.made_from else "")
        if rule.made_from:
            detail += f" · from {_call_html(rule.made_from)}"
        self.detail = QLabel(detail)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        set_role(self.detail, "ruleDetail", polished=False)
        text.addWidget(self.title)
        text.addWidget(self.detail)
        row.addLayout(text, 1)
        self.revoke = QPushButton(self.tr("Revoke"))
        kind = "deny rule" if rule.denies else "always-rule"
        self.revoke.setAccessibleName(
            self.tr("Revoke the {kind} for {label}").format(kind=kind, label=rule.label)
        )
        self.revoke.setToolTip(
            self.tr("Ask again for the next request like this (a pending one stays)")
        )
        self.revoke.setAutoDefault(False)
        set_role(self.revoke, "revoke", polished=False)
        row.addWidget(self.revoke, 0, Qt.AlignmentFlag.AlignVCenter)
        verdict = "denied" if rule.denies else "allowed"
        self.setAccessibleName(
            self.tr("Always {verdict}: {label}, {spoken}").format(
                verdict=verdict, label=rule.label, spoken=spoken
            )
        )


class RulesPanel(QFrame):
    """Popup with the approval modes and the conversation's always-rules.

    Signals:
        mode_chosen(str): the user picked a mode (an ``ApprovalMode`` value).
        revoke_requested(str): the user revoked the rule with this id.
        revoke_all_requested(): the user revoked every rule.
    """

    mode_chosen = Signal(str)
    revoke_requested = Signal(str)
    revoke_all_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("rulesPanel")
        self.setAccessibleName(self.tr("Approval mode and always-rules"))
        self.setMinimumWidth(380)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 8)
        layout.setSpacing(2)
        layout.addWidget(self._section(self.tr("Approval mode")))
        self.modes: dict[str, QRadioButton] = {}
        for mode, _label in _MODES:
            label = mode_label(mode)
            radio = QRadioButton(label)
            radio.setAutoExclusive(False)  # arrows move focus; only Space/Enter/click choose
            radio.setAccessibleName(label)
            radio.setAccessibleDescription(self.tr(_MODE_HINTS[mode]))
            radio.clicked.connect(lambda _c=False, m=mode: self._choose(m))
            hint = QLabel(self.tr(_MODE_HINTS[mode]))
            set_role(hint, "ruleDetail", polished=False)
            hint.setContentsMargins(28, 0, 0, 4)
            layout.addWidget(radio)
            layout.addWidget(hint)
            self.modes[mode] = radio
        line = QFrame()
        set_role(line, "separator", polished=False)
        line.setFixedHeight(1)
        layout.addSpacing(4)
        layout.addWidget(line)
        layout.addSpacing(2)
        layout.addWidget(self._section(self.tr("Always-rules in this conversation")))
        self._rows = QVBoxLayout()
        self._rows.setSpacing(0)
        layout.addLayout(self._rows)
        self.empty = QLabel(self.tr(EMPTY_TEXT))
        self.empty.setContentsMargins(10, 2, 10, 6)
        set_role(self.empty, "ruleDetail", polished=False)
        layout.addWidget(self.empty)
        self.revoke_all = QPushButton(self.tr("Revoke all"))
        self.revoke_all.setAccessibleName(self.tr("Revoke all always-rules"))
        self.revoke_all.setAutoDefault(False)
        set_role(self.revoke_all, "revoke", polished=False)
        self.revoke_all.clicked.connect(self.revoke_all_requested)
        bottom = QHBoxLayout()
        bottom.setContentsMargins(0, 4, 4, 0)
        bottom.addStretch(1)
        bottom.addWidget(self.revoke_all)
        layout.addLayout(bottom)
        self.rows: list[RuleRow] = []
        self._mode = _MODES[0][0]
        self._anchor: QWidget | None = None
        self.show_mode(self._mode)
        self.show_rules([])

    @staticmethod
    def _section(text: str) -> QLabel:
        label = QLabel(text)
        set_role(label, "sectionTitle", polished=False)
        return label

    # ------------------------------------------------------------------ state
    def show_mode(self, mode: str) -> None:
        """Check the session's mode."""
        self._mode = mode
        for value, radio in self.modes.items():
            radio.setChecked(value == mode)

    def show_rules(self, rules: Sequence[AlwaysRule]) -> None:
        """List the session's always-rules (the whole list, as ``RulesChanged`` carries it)."""
        refocus = any(row.revoke.hasFocus() for row in self.rows) or self.revoke_all.hasFocus()
        for row in self.rows:
            self._rows.removeWidget(row)
            row.hide()
            row.deleteLater()
        self.rows = []
        for rule in rules:
            row = RuleRow(rule, self)
            row.revoke.clicked.connect(lambda _c=False, r=rule.id: self.revoke_requested.emit(r))
            self._rows.addWidget(row)
            self.rows.append(row)
        self.empty.setVisible(not rules)
        self.revoke_all.setVisible(len(rules) > 1)
        if self.isVisible():
            self.adjustSize()
            self._place()
            if refocus:  # the focused Revoke went away: keep the keyboard in the panel
                target = self.rows[0].revoke if self.rows else self.modes[self._mode]
                target.setFocus(Qt.FocusReason.OtherFocusReason)

    # ------------------------------------------------------------------ popup
    def popup_at(self, anchor: QWidget) -> None:
        """Open above ``anchor`` (the mode button) with the current mode focused."""
        self._anchor = anchor
        self.adjustSize()
        self._place()
        self.show()
        self.modes[self._mode].setFocus(Qt.FocusReason.PopupFocusReason)

    def _place(self) -> None:
        anchor = self._anchor
        if anchor is None:
            return
        top_left = anchor.mapToGlobal(QPoint(0, 0))
        self.move(top_left.x(), top_left.y() - self.height() - 4)

    def _choose(self, mode: str) -> None:
        self.show_mode(self._mode)  # stays true to the session until it confirms the change
        self.mode_chosen.emit(mode)
        self.close()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        focused = self.focusWidget()
        if key == Qt.Key.Key_Escape:
            self.close()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and isinstance(focused, QAbstractButton):
            focused.click()
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.focusNextPrevChild(key == Qt.Key.Key_Down)
        else:
            super().keyPressEvent(event)


class ModeRules:
    """The rules panel of one conversation, built the first time it is used (opening a long
    conversation must not pay for a popup it may never show): it keeps what the session last
    published (mode, always-rules) and gives them to the panel when it is made. ``parent``:
    the pane; ``choose``/``revoke``/``revoke_all``: what the panel's choices call."""

    def __init__(
        self,
        parent: QWidget,
        choose: Callable[[str], object],
        revoke: Callable[[str], object],
        revoke_all: Callable[[], object],
    ) -> None:
        self._parent = parent
        self._calls = (choose, revoke, revoke_all)
        self._mode = _MODES[0][0]
        self._rules: Sequence[AlwaysRule] = ()
        self._panel: RulesPanel | None = None

    @property
    def panel(self) -> RulesPanel:
        """The panel (made now if it was never used)."""
        if self._panel is None:
            panel = self._panel = RulesPanel(self._parent)
            choose, revoke, revoke_all = self._calls
            panel.mode_chosen.connect(choose)
            panel.revoke_requested.connect(revoke)
            panel.revoke_all_requested.connect(revoke_all)
            panel.show_mode(self._mode)
            panel.show_rules(self._rules)
        return self._panel

    def show_mode(self, mode: str) -> None:
        """The session's mode (``ModeChanged``)."""
        self._mode = mode
        if self._panel is not None:
            self._panel.show_mode(mode)

    def show_rules(self, rules: Sequence[AlwaysRule]) -> None:
        """The session's always-rules (``RulesChanged``)."""
        self._rules = tuple(rules)
        if self._panel is not None:
            self._panel.show_rules(rules)
