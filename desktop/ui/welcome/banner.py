"""A one-line strip above the composer: why the agent cannot start, and a button to fix it.

Used when the welcome panel would hide a conversation that already has content, or for a cause
the panel does not handle (a locked keyring): the problem shows once, however often the start is
retried, and goes away when the agent is ready.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QWidget

from desktop.ui.theme import set_role, text_label


class FixBanner(QFrame):
    """Problem text and one action.

    Signals:
        fix_requested(): the action button was pressed.
    """

    fix_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fixBanner")
        set_role(self, "fixBanner", polished=False)
        self.text = text_label("")
        self.action = QPushButton(self.tr("Fix…"))
        set_role(self.action, "primary", polished=False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(14, 8, 10, 8)
        layout.setSpacing(12)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.action)
        self.action.clicked.connect(self.fix_requested)
        self.setVisible(False)

    def show_problem(self, text: str, action: str) -> None:
        """Show ``text`` with an ``action`` button."""
        self.text.setText(text)
        self.action.setText(action)
        self.action.setAccessibleName(action)
        self.setAccessibleName(text)
        self.setVisible(True)
