"""Inline bars at the foot of the sidebar: confirm a deletion, undo one.

Both are part of the window, not dialogs: nothing modal runs inside a coroutine
(desktop-engineering.md §3.3), and the conversation stays usable while a bar is shown.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.sidebar.entries import set_role


def _quoted(title: str, limit: int = 48) -> str:
    title = title or QCoreApplication.translate("UndoBar", "Untitled conversation")
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
        self.setAccessibleName(self.tr("Confirm deletion"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(8)
        self.message = QLabel()
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        row = QHBoxLayout()
        row.addStretch(1)
        self.cancel = QPushButton(self.tr("Cancel"))
        self.cancel.clicked.connect(self._on_cancel)
        row.addWidget(self.cancel)
        self.delete = QPushButton(self.tr("Delete"))
        self.delete.setAccessibleName(self.tr("Delete the conversation"))
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
            self.tr("Delete {title}? You can undo this until you close the window.").format(
                title=_quoted(title)
            )
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


class TitleLine(QLabel):
    """One line ``prefix + title + suffix`` that never cuts: the title is elided in the middle
    to the width there is (the whole text is in the tooltip)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._parts = ("", "", "")
        self.setMinimumWidth(40)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def show_title(self, prefix: str, title: str, suffix: str, tooltip: str = "") -> None:
        """Show ``prefix“title”suffix``, the title shortened as the width needs."""
        self._parts = (prefix, title, suffix)
        self.setToolTip(tooltip or f"{prefix}“{title}”{suffix}")
        self._fit()

    @property
    def full_text(self) -> str:
        """The text with the whole title (what the tooltip says)."""
        return self.toolTip()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        prefix, title, suffix = self._parts
        metrics = self.fontMetrics()
        fixed = metrics.horizontalAdvance(f"{prefix}“”{suffix}")
        room = max(self.contentsRect().width() - fixed, metrics.horizontalAdvance("M…M"))
        short = metrics.elidedText(title, Qt.TextElideMode.ElideMiddle, room)
        self.setText(f"{prefix}“{short}”{suffix}")


class UndoBar(QFrame):
    """ "Deleted “title”" with Undo (and a close button); the title is elided, never cut.

    Signals:
        undo_requested(): Undo was pressed.
        shown(bool): the bar was shown (True) or hidden (False): Undo is offered while shown.
    """

    undo_requested = Signal()
    shown = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebarBar")
        self.setAccessibleName(QCoreApplication.translate("UndoBar", "Undo deletion"))
        # Two rows: the title gets the bar's whole width (a sidebar can be narrow).
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 6, 8)
        layout.setSpacing(4)
        top, bottom = QHBoxLayout(), QHBoxLayout()
        top.setSpacing(6)
        bottom.setContentsMargins(0, 0, 6, 0)
        layout.addLayout(top)
        layout.addLayout(bottom)
        self.message = TitleLine()
        top.addWidget(self.message, 1)
        self.hint = QLabel(QCoreApplication.translate("UndoBar", "Deleted"))
        set_role(self.hint, "muted")
        bottom.addWidget(self.hint)
        bottom.addStretch(1)
        self.undo = QPushButton(QCoreApplication.translate("UndoBar", "Undo"))
        self.undo.setAccessibleName(QCoreApplication.translate("UndoBar", "Undo the deletion"))
        self.undo.setToolTip(QCoreApplication.translate("UndoBar", "Undo the deletion (Ctrl+Z)"))
        set_role(self.undo, "primary")
        self.undo.clicked.connect(self.undo_requested)
        bottom.addWidget(self.undo)
        self.dismiss = QPushButton("✕")
        self.dismiss.setObjectName("barClose")
        self.dismiss.setAccessibleName(QCoreApplication.translate("UndoBar", "Hide"))
        self.dismiss.setFlat(True)
        self.dismiss.clicked.connect(self.hide)
        top.addWidget(self.dismiss)
        self._up = False
        self.hide()

    def offer(self, title: str, more: int) -> None:
        """Offer to undo the deletion of ``title`` (``more`` older deletions can follow)."""
        extra = QCoreApplication.translate("UndoBar", " +{0}").format(more) if more else ""
        title = title or QCoreApplication.translate("UndoBar", "Untitled conversation")
        full = QCoreApplication.translate("UndoBar", "Deleted “{0}”").format(title)
        self.message.show_title("", title, extra, full)
        self.setAccessibleDescription(full)
        self.show()

    def setVisible(self, visible: bool) -> None:
        super().setVisible(visible)
        if visible != self._up:
            self._up = visible
            self.shown.emit(visible)
