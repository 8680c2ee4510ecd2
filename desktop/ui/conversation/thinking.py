"""The model's reasoning: a header line, its last words while it streams, the whole on demand.

Collapsed (the default), a block that is still streaming shows its latest words under the
header, so the user sees what the model is working on; once done it is one line. Expanded, the
reasoning reads as text (the body font, wrapped, as tall as it is), not as a log in a box.

Like an answer (``stream_view``), new reasoning is appended in steps of ``STEP_CHARS`` for at
most ``stream_view.TICK_BUDGET_S`` a turn of the loop, the rest at the next turn: a long burst
of reasoning (or a reopened one) never holds the loop.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QSizeF, Qt, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QSizePolicy,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.entries import StreamItem
from desktop.ui.conversation import stream_view
from desktop.ui.theme import set_role

#: Characters of the latest reasoning shown under the header while it streams (two or three
#: lines in a usual column).
PREVIEW_CHARS = 220
#: Characters appended to the text at once.
STEP_CHARS = 1_000
_SPACES = re.compile(r"\s+")


def preview_of(text: str, limit: int = PREVIEW_CHARS) -> str:
    """The last words of ``text`` on one line: at most ``limit`` characters, cut at a word."""
    tail = _SPACES.sub(" ", text[-(limit * 2) :]).strip()
    if len(tail) <= limit and len(text) <= limit * 2:
        return tail
    tail = tail[-limit:]
    space = tail.find(" ")
    return "…" + (tail[space + 1 :] if 0 <= space < limit // 3 else tail)


class _Text(QTextBrowser):
    """Plain reasoning text, as tall as its content (no box, no scroll bar)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("thinkingText")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        self.document().setDocumentMargin(0)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.setFixedHeight(0)

    def _fit(self, size: QSizeF) -> None:
        margins = self.contentsMargins()
        self.setFixedHeight(int(size.height()) + 2 + margins.top() + margins.bottom())


class ThinkingView(QWidget):
    """The model's reasoning: collapsed to a header line (and its latest words), expandable."""

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
        self.toggle.setCursor(Qt.CursorShape.PointingHandCursor)
        self.toggle.setAccessibleName(QCoreApplication.translate("ThinkingView", "Show thinking"))
        self.toggle.toggled.connect(self._on_toggled)
        set_role(self.toggle, "thinkingToggle", polished=False)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        self.preview.setTextFormat(Qt.TextFormat.PlainText)
        self.preview.setAccessibleName(
            QCoreApplication.translate("ThinkingView", "Latest thinking")
        )
        set_role(self.preview, "thinkingPreview", polished=False)
        layout.addWidget(self.preview)
        self.body = _Text()
        self.body.setAccessibleName(QCoreApplication.translate("ThinkingView", "Thinking"))
        self.body.setVisible(False)
        layout.addWidget(self.body)
        self._chars = 0
        self._tail = ""  # the latest reasoning, for the preview
        self._unshown = ""  # reasoning not appended to the text yet
        self._more = QTimer(self)  # appends the rest at the next turn of the loop
        self._more.setSingleShot(True)
        self._more.setInterval(0)
        self._more.timeout.connect(self.refresh)
        self.setAccessibleName(QCoreApplication.translate("ThinkingView", "Thinking"))
        self.refresh()

    def _on_toggled(self, shown: bool) -> None:
        self.body.setVisible(shown)
        self._update()

    def _update(self) -> None:
        shown = self.toggle.isChecked()
        arrow = "▾" if shown else "▸"
        state = (
            QCoreApplication.translate("ThinkingView", "Thought")
            if self.item.done
            else QCoreApplication.translate("ThinkingView", "Thinking…")
        )
        self.toggle.setText(f"{arrow} {state}")
        self.toggle.setToolTip(
            QCoreApplication.translate("ThinkingView", "{count} characters").format(
                count=f"{self._chars:,}"
            )
        )
        self.toggle.setAccessibleName(
            QCoreApplication.translate("ThinkingView", "Hide thinking")
            if shown
            else QCoreApplication.translate("ThinkingView", "Show thinking")
        )
        live = not self.item.done and not shown and bool(self._tail.strip())
        if live:
            self.preview.setText(preview_of(self._tail))
        self.preview.setVisible(live)

    def refresh(self) -> None:
        """Append new reasoning at the end (no re-layout of what is there)."""
        new = self._take_new(self.item.key)
        if new:
            self._chars += len(new)
            self._tail = (self._tail + new)[-2 * PREVIEW_CHARS :]
            self._unshown += new
        deadline = time.perf_counter() + stream_view.TICK_BUDGET_S
        while self._unshown:  # at least one step a turn
            step, self._unshown = self._unshown[:STEP_CHARS], self._unshown[STEP_CHARS:]
            cursor = QTextCursor(self.body.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(step)
            if time.perf_counter() >= deadline:
                break
        if self._unshown and not self._more.isActive():
            self._more.start()
        self._update()

    @property
    def busy(self) -> bool:
        """Reasoning waits to be appended (at the next turn of the loop)."""
        return bool(self._unshown)
