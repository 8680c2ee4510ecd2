"""Scroll a conversation view to an item and mark it for a moment (a search hit).

The mark is an overlay over the item's widget, so no item widget needs to know about search:
a rounded accent frame that does not take mouse events, follows the widget's size, and goes
away after a few seconds.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer
from PySide6.QtWidgets import QFrame, QWidget

from desktop.ui import theme
from desktop.ui.conversation.view import ConversationView

#: How long the mark stays.
HIGHLIGHT_MS = 4000


class HitMark(QFrame):
    """The overlay drawn over a highlighted item."""

    def __init__(self, target: QWidget) -> None:
        super().__init__(target)
        self.setObjectName("hitMark")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        colours = theme.current()
        self.setStyleSheet(
            f"QFrame#hitMark {{ border: 2px solid {colours.accent}; border-radius: 10px;"
            " background: transparent; }"
        )
        self.setGeometry(target.rect())
        target.installEventFilter(self)
        QTimer.singleShot(HIGHLIGHT_MS, self.deleteLater)
        self.show()
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and isinstance(watched, QWidget):
            self.setGeometry(watched.rect())
        return False


def mark(widget: QWidget) -> HitMark:
    """Highlight ``widget`` (an earlier mark on it is replaced)."""
    for old in widget.findChildren(HitMark):
        old.deleteLater()
    return HitMark(widget)


async def scroll_to(view: ConversationView, widget: QWidget) -> None:
    """Bring ``widget`` near the top of ``view``.

    Items above it may still grow while their text is laid out (a rebuilt transcript renders
    over a few frames), so the position is set again until it holds still.
    """
    body = view.widget()
    if body is None:
        return
    bar = view.verticalScrollBar()
    last = -1
    for _ in range(20):
        top = widget.mapTo(body, QPoint(0, 0)).y()
        target = max(0, top - 48)
        bar.setValue(min(target, bar.maximum()))
        if top == last and bar.maximum() >= target:
            return
        last = top
        await asyncio.sleep(0.03)
