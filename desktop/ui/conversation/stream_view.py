"""Widgets for streamed text: assistant markdown and the collapsible thinking block.

Both render only what is new since the last repaint (the view calls ``refresh`` at most 60 times
per second): finished markdown blocks become fixed labels once, and only the short open block is
re-rendered on each tick. What is rendered depends only on the text, not on how it arrived
(``BlockSplitter`` cuts where the text says, each block keeps its own paragraph format), so a
streamed reply and the same reply reopened from history look the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QSizeF, Qt
from PySide6.QtGui import QTextCursor, QTextDocument, QTextDocumentFragment
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QPlainTextEdit,
    QSizePolicy,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.entries import StreamItem
from desktop.ui import theme
from desktop.ui.conversation.items import set_role, text_label
from desktop.ui.conversation.markdown import BlockSplitter, renderer

#: Time one repaint may spend rendering finished markdown (at least one block is rendered).
TICK_BUDGET_S = 0.006
#: Characters per document before the next finished blocks start a new one: inserting into a
#: ``QTextDocument`` costs time in proportion to its size, so documents stay small.
DOCUMENT_LIMIT = 8_000


class _Document(QTextBrowser):
    """Finished blocks of one message in one document, as tall as its content.

    One ``QTextDocument`` lays out only what is appended, where a label per block would make the
    column re-measure every label (quadratic over a long message).
    """

    def __init__(self) -> None:
        super().__init__()
        self.setOpenExternalLinks(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        self.setObjectName(
            "markdown"
        )  # transparent, from the app style sheet (no per-widget sheet)
        self.document().setDocumentMargin(0)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.setFixedHeight(0)
        self.blocks = 0

    def append_html(self, html: str) -> None:
        """Append one rendered block below the last (``insertHtml`` would merge the block's
        first paragraph into the last one of the document: a heading into the text after it)."""
        self.blocks += 1
        if not html:
            return
        block = QTextDocument()
        block.setHtml(html)
        first = block.begin()
        document = self.document()
        cursor = QTextCursor(document)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        if document.isEmpty():
            cursor.setBlockFormat(first.blockFormat())
            cursor.setBlockCharFormat(first.charFormat())
        else:
            cursor.insertBlock(first.blockFormat(), first.charFormat())
        cursor.insertFragment(QTextDocumentFragment(block))

    def _fit(self, size: QSizeF) -> None:
        self.setFixedHeight(int(size.height()) + 2)


class AssistantView(QWidget):
    """Assistant markdown, rendered while it streams (``take_new``: text not rendered yet)."""

    def __init__(
        self, item: StreamItem, take_new: Callable[[int], str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.item = item
        self._take_new = take_new
        self._renderer = renderer(theme.current().dark)
        self._splitter = BlockSplitter()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(2, 0, 2, 0)
        self._layout.setSpacing(0)
        self._documents: list[_Document] = []
        self._backlog: list[str] = []
        self._live: QLabel = text_label(rich=True)
        self._live_source = ""
        self._finished = False
        self._layout.addWidget(self._live)
        self.setAccessibleName("Assistant message")
        self.refresh()

    @property
    def block_count(self) -> int:
        """Finished blocks rendered so far (tests and benchmarks look at it)."""
        return sum(document.blocks for document in self._documents)

    def shown_html(self) -> str:
        """Everything rendered so far (finished blocks and the open one)."""
        return "".join(d.toHtml() for d in self._documents) + self._live.text()

    def _append(self, html: str) -> None:
        # Inserting into a QTextDocument costs time in proportion to its size, so a long
        # message is spread over documents of bounded size (a new one below the full one).
        last = self._documents[-1] if self._documents else None
        if last is None or last.document().characterCount() > DOCUMENT_LIMIT:
            last = _Document()
            self._documents.append(last)
            self._layout.insertWidget(self._layout.count() - 1, last)
        last.append_html(html)

    @property
    def busy(self) -> bool:
        """Finished blocks wait for the next frame (a frame renders at most ``TICK_BUDGET``)."""
        return bool(self._backlog)

    def refresh(self) -> None:
        """Render finished blocks once (bounded per frame), and the open block again."""
        new = self._take_new(self.item.key)
        finishing = self.item.done and not self._finished
        if not (new or self._backlog or finishing) and self._splitter.live == self._live_source:
            return
        self._backlog.extend(self._splitter.feed(new))
        if finishing:  # a complete message ends in a finished block, streamed or reopened
            self._finished = True
            self._backlog.extend(self._splitter.finish())
        deadline = time.perf_counter() + TICK_BUDGET_S
        taken = 0
        while taken < len(self._backlog):
            self._append(self._renderer.render(self._backlog[taken]))
            taken += 1
            if time.perf_counter() >= deadline:
                break
        del self._backlog[:taken]
        live = self._splitter.live
        if live != self._live_source:
            self._live_source = live
            self._live.setText(self._renderer.render(live))
            self._live.setVisible(bool(live.strip()))


class ThinkingView(QWidget):
    """The model's reasoning: collapsed to a header line, expandable."""

    def __init__(
        self, item: StreamItem, take_new: Callable[[int], str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.item = item
        self._take_new = take_new
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
        new = self._take_new(self.item.key)
        if new:
            self._chars += len(new)
            cursor = self.body.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(new)
        self._update_title()
