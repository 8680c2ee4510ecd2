"""Widgets for streamed text: assistant markdown and the collapsible thinking block.

Both render only what is new since the last repaint (the view calls ``refresh`` at most 60 times
per second): finished markdown blocks become fixed labels once, and only the short open block is
re-rendered on each tick.
"""

from __future__ import annotations

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from desktop.ui import theme
from desktop.ui.conversation.items import set_role, text_label
from desktop.ui.conversation.markdown import BlockSplitter, renderer
from desktop.ui.conversation.model import StreamItem


class AssistantView(QWidget):
    """Assistant markdown, rendered while it streams."""

    def __init__(self, item: StreamItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        self._renderer = renderer(theme.current().dark)
        self._splitter = BlockSplitter()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(2, 0, 2, 0)
        self._layout.setSpacing(0)
        self._live: QLabel = text_label(rich=True)
        self._live_source = ""
        self._layout.addWidget(self._live)
        self.setAccessibleName("Assistant message")
        self.refresh()

    @property
    def block_count(self) -> int:
        """Finished blocks rendered so far (tests and benchmarks look at it)."""
        return self._layout.count() - 1

    def refresh(self) -> None:
        """Render finished blocks once, and the open block again."""
        new = self.item.take_new()
        if not new and self._splitter.live == self._live_source:
            return
        for block in self._splitter.feed(new):
            label = text_label(self._renderer.render(block), rich=True)
            self._layout.insertWidget(self._layout.count() - 1, label)
        live = self._splitter.live
        if live != self._live_source:
            self._live_source = live
            self._live.setText(self._renderer.render(live))
            self._live.setVisible(bool(live.strip()))


class ThinkingView(QWidget):
    """The model's reasoning: collapsed to a header line, expandable."""

    def __init__(self, item: StreamItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setAccessibleName("Show thinking")
        self.toggle.toggled.connect(self._on_toggled)
        set_role(self.toggle, "muted")
        layout.addWidget(self.toggle)
        self.body = QPlainTextEdit()
        self.body.setReadOnly(True)
        self.body.setMaximumHeight(220)
        self.body.setVisible(False)
        set_role(self.body, "output")
        layout.addWidget(self.body)
        self._chars = 0
        self.refresh()

    def _on_toggled(self, shown: bool) -> None:
        self.body.setVisible(shown)
        self._update_title()

    def _update_title(self) -> None:
        arrow = "▾" if self.toggle.isChecked() else "▸"
        state = "Thought" if self.item.done else "Thinking…"
        self.toggle.setText(f"{arrow} {state} ({self._chars:,} characters)")

    def refresh(self) -> None:
        """Append new reasoning at the end (no re-layout of what is there)."""
        new = self.item.take_new()
        if new:
            self._chars += len(new)
            cursor = self.body.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(new)
        self._update_title()
