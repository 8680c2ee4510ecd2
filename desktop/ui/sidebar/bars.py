"""Inline bars at the foot of the sidebar: confirm a deletion, undo one.

Both are part of the window, not dialogs: nothing modal runs inside a coroutine
(desktop-engineering.md §3.3), and the conversation stays usable while a bar is shown.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.ui.sidebar.entries import set_role


def _quoted(title: str, limit: int = 48) -> str:
    title = title or "Untitled conversation"
    return "“" + (title if len(title) <= limit else title[: limit - 1] + "…") + "”"


class ConfirmDeleteBar(QFrame):
    """ "Delete “title”?" with Delete and Cancel; Enter deletes, Esc cancels.

    Signals:
        confirmed(object): Delete was pressed (the subject given to ``ask``).
        cancelled(): Cancel or Esc.
    """

    confirmed = Signal(object)
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebarBar")
        self.setAccessibleName("Confirm deletion")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(8)
        self.message = QLabel()
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        row = QHBoxLayout()
        row.addStretch(1)
        self.cancel = QPushButton("Cancel")
        self.cancel.clicked.connect(self._on_cancel)
        row.addWidget(self.cancel)
        self.delete = QPushButton("Delete")
        self.delete.setAccessibleName("Delete the conversation")
        set_role(self.delete, "danger")
        self.delete.clicked.connect(self._on_delete)
        row.addWidget(self.delete)
        layout.addLayout(row)
        self._subject: object = None
        self.hide()

    def ask(self, title: str, subject: object) -> None:
        """Ask about deleting ``subject`` (shown as ``title``)."""
        self._subject = subject
        self.message.setText(
            f"Delete {_quoted(title)}? You can undo this until you close the window."
        )
        self.show()
        self.delete.setFocus()

    @property
    def subject(self) -> object:
        """What the shown question is about."""
        return self._subject

    def _on_delete(self) -> None:
        subject, self._subject = self._subject, None
        self.hide()
        self.confirmed.emit(subject)

    def _on_cancel(self) -> None:
        self._subject = None
        self.hide()
        self.cancelled.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if event.key() == Qt.Key.Key_Escape or (enter and self.cancel.hasFocus()):
            self._on_cancel()
        elif enter:
            self._on_delete()
        else:
            super().keyPressEvent(event)


class UndoBar(QFrame):
    """ "Deleted “title”" with Undo (and a close button).

    Signals:
        undo_requested(): Undo was pressed.
    """

    undo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebarBar")
        self.setAccessibleName("Undo deletion")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 6, 6)
        layout.setSpacing(6)
        self.message = QLabel()
        self.message.setMinimumWidth(40)
        layout.addWidget(self.message, 1)
        self.undo = QPushButton("Undo")
        self.undo.setAccessibleName("Undo the deletion")
        set_role(self.undo, "primary")
        self.undo.clicked.connect(self.undo_requested)
        layout.addWidget(self.undo)
        self.dismiss = QPushButton("✕")
        self.dismiss.setObjectName("barClose")
        self.dismiss.setAccessibleName("Hide")
        self.dismiss.setFlat(True)
        self.dismiss.clicked.connect(self.hide)
        layout.addWidget(self.dismiss)
        self.hide()

    def offer(self, title: str, more: int) -> None:
        """Offer to undo the deletion of ``title`` (``more`` older deletions can follow)."""
        extra = f" (+{more} more)" if more else ""
        self.message.setText(f"Deleted {_quoted(title, 26)}{extra}")
        self.message.setToolTip(title)
        self.show()
