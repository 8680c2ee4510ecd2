"""Small transcript item widgets: the user's prompt, inline messages, the agent-exit panel."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.entries import ExitItem, Item, MessageItem, UserItem
from desktop.ui.conversation.markdown import renderer
from desktop.ui.theme import ElidedLabel, set_role, text_label

__all__ = ["ElidedLabel", "ExitPanel", "MessageRow", "UserBubble", "set_role", "text_label"]


def exit_message(item: ExitItem) -> str:
    """What an unexpected exit says: "The agent exited unexpectedly (exit code 3)."."""
    what = f"signal {item.signal}" if item.signal is not None else f"exit code {item.exit_code}"
    return f"The agent exited unexpectedly ({what})."


class UserBubble(QFrame):
    """The user's prompt, right-aligned; says "queued" until its turn starts."""

    def __init__(self, item: UserItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        set_role(self, "user")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 14, 10)
        layout.setSpacing(4)
        self.text = text_label(renderer(False).plain(item.text), rich=True)
        layout.addWidget(self.text)
        if item.files:
            names = ", ".join(Path(f).name for f in item.files)
            layout.addWidget(text_label(f"📎 {names}", role="muted"))
        self.queued = text_label("queued: sent when the agent is free", role="muted")
        layout.addWidget(self.queued)
        self.setAccessibleName("Your message")
        self.refresh()

    def refresh(self) -> None:
        """Show or hide the queued hint."""
        self.queued.setVisible(self.item.queued)


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
            self.show_message(self.item.level, self.item.text)


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
        self.restart = QPushButton("Restart agent")
        self.restart.setAccessibleName("Restart the agent")
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
            self.restart.setText("Restarted")
