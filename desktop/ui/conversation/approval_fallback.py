"""Stand-in for ``desktop.ui.approvals`` and ``desktop.ui.diff`` until those land.

Same interface as the real widgets (``ApprovalCard(request)`` with ``decided(call_id, decision,
reason)`` and ``show_decision(event)``; ``DiffView.set_diff(text)``), deliberately minimal.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout

from desktop.core.events import ToolDecided, ToolRequested


class DiffView(QPlainTextEdit):
    """A read-only unified diff."""

    def set_diff(self, text: str) -> None:
        """Show ``text``."""
        self.setReadOnly(True)
        self.setPlainText(text)


class ApprovalCard(QFrame):
    """Y/Enter approve once, A always, N/Esc deny; buttons for each.

    Signals:
        decided(str, str, str): call id, decision (once/always/deny), reason.
    """

    decided = Signal(str, str, str)

    def __init__(self, request: ToolRequested, parent: QFrame | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        preview = request.preview
        if preview is not None:
            body = DiffView()
            body.set_diff(preview.text)
            body.setMaximumHeight(240)
            layout.addWidget(body)
        row = QHBoxLayout()
        self.status = QLabel("")
        row.addWidget(self.status, 1)
        self.buttons: list[QPushButton] = []
        for text, decision in (
            ("Approve (Y)", "once"),
            ("Always (A)", "always"),
            ("Deny (N)", "deny"),
        ):
            button = QPushButton(text)
            button.setAccessibleName(text)
            button.setProperty("decision", decision)
            button.clicked.connect(self._on_button)
            row.addWidget(button)
            self.buttons.append(button)
        layout.addLayout(row)

    def _on_button(self) -> None:
        sender = self.sender()
        self._decide(str(sender.property("decision")) if sender else "deny")

    def _decide(self, decision: str) -> None:
        if any(b.isEnabled() for b in self.buttons):
            self.decided.emit(self.request.call_id, decision, "")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        keys = {
            Qt.Key.Key_Y: "once",
            Qt.Key.Key_Return: "once",
            Qt.Key.Key_Enter: "once",
            Qt.Key.Key_A: "always",
            Qt.Key.Key_N: "deny",
            Qt.Key.Key_Escape: "deny",
        }
        decision = keys.get(Qt.Key(event.key()))
        if decision is None:
            super().keyPressEvent(event)
            return
        self._decide(decision)

    def show_decision(self, event: ToolDecided) -> None:
        """Freeze the card with the final decision."""
        for button in self.buttons:
            button.setEnabled(False)
        self.status.setText(f"{event.decision} ({event.source})")
