"""Small transcript item widgets: the user's prompt, inline messages, the agent-exit panel."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.context.images import split_images
from desktop.core.entries import ExitItem, Item, MessageItem, UserItem
from desktop.ui.composer_context.chips import ImageThumbs
from desktop.ui.conversation.markdown import renderer
from desktop.ui.i18n.core_text import shown
from desktop.ui.theme import ElidedLabel, set_role, text_label

__all__ = ["ElidedLabel", "ExitPanel", "MessageRow", "UserBubble", "set_role", "text_label"]


def exit_message(item: ExitItem) -> str:
    """What an unexpected exit says: "The agent exited unexpectedly (exit code 3)."."""
    if item.signal is not None:
        return QCoreApplication.translate(
            "ExitPanel", "The agent exited unexpectedly (signal {0})."
        ).format(item.signal)
    return QCoreApplication.translate(
        "ExitPanel", "The agent exited unexpectedly (exit code {0})."
    ).format(item.exit_code)


class UserBubble(QFrame):
    """The user's prompt, right-aligned; says "queued" until its turn starts.

    As wide as its text, up to the limit the view gives (``set_width_limit``), then it wraps.
    """

    def __init__(self, item: UserItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._limit = 0  # no limit yet (``set_width_limit``)
        #: The natural width, and what it was measured with (its labels' fonts, queued or not).
        self._natural: tuple[tuple[object, ...], int] | None = None
        self.item = item
        set_role(self, "user")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 14, 10)
        layout.setSpacing(4)
        self._margins = layout.contentsMargins()
        self.text = text_label(renderer(False).plain(item.text), rich=True)
        layout.addWidget(self.text)
        images, files = split_images(item.files)
        if images:  # thumbnails, also when the conversation is reopened from history
            layout.addWidget(ImageThumbs(images))
        if files:
            names = ", ".join(Path(f).name for f in files)
            layout.addWidget(text_label(f"📎 {names}", role="muted"))
        self.queued = text_label(self.tr("queued: sent when the agent is free"), role="muted")
        layout.addWidget(self.queued)
        self.setAccessibleName(QCoreApplication.translate("UserBubble", "Your message"))
        self.setAccessibleDescription(item.text)
        self.refresh()

    def natural_width(self) -> int:
        """The width the bubble needs to show every line without wrapping (measured again only
        when a label's font changed: the style changes each time the row is put in a column)."""
        self.ensurePolished()
        labels = self.findChildren(QLabel)
        for label in labels:
            label.ensurePolished()
        thumbs = [t.sizeHint().width() for t in self.findChildren(ImageThumbs)]
        key = (self.item.queued, *thumbs, *(label.font().key() for label in labels))
        if self._natural is not None and self._natural[0] == key:
            return self._natural[1]
        widest = 0
        for label in labels:
            if label is self.queued and not self.item.queued:
                continue
            document = QTextDocument()
            document.setDefaultFont(label.font())
            document.setDocumentMargin(0)
            if label.textFormat() == Qt.TextFormat.RichText:
                document.setHtml(label.text())
            else:
                document.setPlainText(label.text())
            widest = max(widest, int(document.idealWidth()) + 2)
        widest = max(widest, *thumbs) if thumbs else widest
        width = widest + self._margins.left() + self._margins.right()
        self._natural = (key, width)
        return width

    def set_width_limit(self, limit: int) -> None:
        """Be as wide as the text, at most ``limit`` pixels (then the text wraps)."""
        self._limit = limit
        self.setFixedWidth(max(1, min(limit, self.natural_width())))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange) and self._limit:
            self.set_width_limit(self._limit)  # zoom: the text's width changed

    def refresh(self) -> None:
        """Show or hide the queued hint."""
        self.queued.setVisible(self.item.queued)
        if self._limit:
            self.set_width_limit(self._limit)


class MessageRow(QLabel):
    """An inline notice, warning or error: a message, a turn that did not complete, an exit
    from history (``level``, ``text``: what it says; ``item``: the entry it shows)."""

    _ICONS = {"info": "ℹ", "warning": "⚠", "error": "✖"}  # noqa: RUF012 - constant table

    def __init__(self, item: Item, level: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.show_message(level, text)

    def show_message(self, level: str, text: str) -> None:
        """Say ``text`` at ``level``."""
        self.setText(f"{self._ICONS.get(level, '•')}  {text}")
        set_role(self, "message", level=level)
        self.setAccessibleName(f"{level}: {text}")

    def refresh(self) -> None:
        """Follow a changed message (an extension updates its post in place)."""
        if isinstance(self.item, MessageItem):
            self.show_message(self.item.level, shown(self.item.text, self.item.i18n))


class ExitPanel(QFrame):
    """The agent exited: exit code, stderr tail, and Restart.

    Signals:
        restart_requested(ExitItem): the user pressed Restart.
    """

    restart_requested = Signal(object)

    def __init__(self, item: ExitItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        set_role(self, "exit")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 14, 10)
        title = text_label(exit_message(item))
        title.setStyleSheet("font-weight: 600;")
        layout.addWidget(title)
        tail = "\n".join(item.stderr_tail.strip().splitlines()[-12:])
        if tail:
            stderr = text_label(tail, role="muted")
            stderr.setStyleSheet("font-family: monospace; font-size: 9pt;")
            layout.addWidget(stderr)
        row = QHBoxLayout()
        row.addStretch(1)
        self.restart = QPushButton(self.tr("Restart agent"))
        self.restart.setAccessibleName(self.tr("Restart the agent"))
        set_role(self.restart, "primary")
        self.restart.clicked.connect(self._on_restart)
        row.addWidget(self.restart)
        layout.addLayout(row)
        self.refresh()

    def _on_restart(self) -> None:
        self.restart_requested.emit(self.item)

    def refresh(self) -> None:
        """Disable Restart once used."""
        self.restart.setEnabled(not self.item.restarted)
        if self.item.restarted:
            self.restart.setText(self.tr("Restarted"))
