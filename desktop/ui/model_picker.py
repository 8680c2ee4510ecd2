"""The status bar's model (and agent mode) picker: "Claude Sonnet 4 ▾".

It shows the current model of the shown conversation and, where the agent offers a choice
(ACP session models and modes, Codex ``model/list``, aionrs ``available_models``), lists them in
a menu; choosing one tells the agent (``ConversationPane.set_choice``). It is hidden where the
agent names no model, and a plain label where it names one but offers no other. Click it, or
reach it with Tab and press Space (``open_menu`` opens it for a command such as ``/model``).
It is built when a conversation first offers a choice; the status bar itself comes with the
first frame, so the core's events are read by their fields, never imported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from desktop.ui import theme
from desktop.ui.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from desktop.core.events import ChoicesChanged

#: What the button is about, by ``ChoiceKind`` value.
KIND_NAMES = {
    "model": QT_TRANSLATE_NOOP("ModelPicker", "Model"),
    "mode": QT_TRANSLATE_NOOP("ModelPicker", "Agent mode"),
}

_SHEET = """
QToolButton[role="choicePicker"] {{ padding: 0 6px; border: none; color: {text}; }}
QToolButton[role="choicePicker"]:hover, QToolButton[role="choicePicker"]:focus {{
    background: {surface}; border-radius: 4px; }}
QToolButton[role="choicePicker"]::menu-indicator {{ image: none; width: 0; }}
"""


class ChoicePicker(QToolButton):
    """One picker (``kind``: "model" or "mode").

    Signals:
        chosen(str, str): the user chose one (kind, its id).
    """

    chosen = Signal(str, str)

    def __init__(self, kind: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self.setObjectName(f"status_{kind}_picker")
        self.setProperty("role", "choicePicker")
        theme.follow(self, _SHEET)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_ = QMenu(self)
        self.menu_.triggered.connect(lambda action: self.chosen.emit(self.kind, action.data()))
        self.current: str | None = None
        self.hide()

    def show_choices(self, choices: ChoicesChanged | None) -> None:
        """Show what the agent offers (None, or nothing named: hidden)."""
        available = list(choices.available) if choices is not None else []
        current = choices.current if choices is not None else None
        if current is None and not available:
            self.current = None
            self.setMenu(cast(QMenu, None))  # Qt takes no menu (nullptr); the stubs do not say
            self.hide()
            return
        self.current = current
        names = {c.id: c.name or c.id for c in available}
        shown = names.get(current or "", current) or QCoreApplication.translate(
            "ModelPicker", "Choose…"
        )
        what = QCoreApplication.translate("ModelPicker", KIND_NAMES.get(self.kind, self.kind))
        self.menu_.clear()
        for choice in available:
            action = self.menu_.addAction(choice.name or choice.id)
            action.setData(choice.id)
            action.setCheckable(True)
            action.setChecked(choice.id == current)
            if choice.description:
                action.setToolTip(choice.description)
        self.menu_.setToolTipsVisible(True)
        offers = len(available) > 1 or (len(available) == 1 and available[0].id != current)
        self.setMenu(self.menu_ if offers else cast(QMenu, None))
        self.setText(f"{shown} ▾" if offers else shown)
        self.setAccessibleName(f"{what}: {shown}")
        if offers:
            tip = QCoreApplication.translate(
                "ModelPicker", "{what} of this conversation: click to switch"
            )
        else:
            tip = QCoreApplication.translate(
                "ModelPicker", "{what} of this conversation (the agent offers no other)"
            )
        self.setToolTip(tip.format(what=what))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus if offers else Qt.FocusPolicy.NoFocus)
        self.show()

    def open_menu(self) -> bool:
        """Open the menu (keyboard); False when there is nothing to choose."""
        if not self.isVisible() or self.menu() is None:
            return False
        self.setFocus()
        self.showMenu()
        return True
