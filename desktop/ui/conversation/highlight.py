"""Scroll a conversation view to an item and show a search hit in it.

Used by the sidebar's search across conversations and by the find bar inside one
(``find_bar``). The mark is an overlay over the item's widget, so no item widget needs to know
about search: a rounded accent frame that does not take mouse events, follows the widget's
size, and goes away after a few seconds. ``TextHits`` finds the query in the text widgets of a
row (answers' documents, a prompt's label, a tool's output) and paints the occurrences with
extra selections, the current one stronger; ``reveal`` scrolls the current one into view.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QTextCursor, QTextDocument
from PySide6.QtWidgets import QFrame, QLabel, QPlainTextEdit, QTextEdit, QWidget
from shiboken6 import isValid

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


# ---------------------------------------------------------------------- text inside a row
#: Alpha of the accent behind every occurrence in a row, and behind the current one.
_ALL_ALPHA = 60
_CURRENT_ALPHA = 150

TextWidget = QTextEdit | QPlainTextEdit | QLabel


@dataclass(frozen=True, slots=True)
class Occurrence:
    """The query in one text widget of a row: the widget and where in its text."""

    widget: TextWidget
    start: int
    length: int


def _texts(row: QWidget) -> list[TextWidget]:
    """The visible text widgets of ``row`` (itself included), top to bottom."""
    found: list[TextWidget] = [row] if isinstance(row, TextWidget) else []
    found.extend(w for w in row.findChildren(QTextEdit) if w.isVisibleTo(row))
    found.extend(w for w in row.findChildren(QPlainTextEdit) if w.isVisibleTo(row))
    found.extend(w for w in row.findChildren(QLabel) if w.isVisibleTo(row))

    def place(widget: QWidget) -> tuple[int, int]:
        at = widget.mapTo(row, QPoint(0, 0)) if widget is not row else QPoint(0, 0)
        return at.y(), at.x()

    return sorted(found, key=place)


def _document(widget: TextWidget) -> QTextDocument:
    if isinstance(widget, QLabel):
        document = QTextDocument(widget)
        if widget.textFormat() == Qt.TextFormat.PlainText:
            document.setPlainText(widget.text())
        else:
            document.setHtml(widget.text())
        return document
    return widget.document()


def occurrences(row: QWidget, query: str, *, match_case: bool) -> list[Occurrence]:
    """Every occurrence of ``query`` in the text ``row`` shows, top to bottom."""
    flags = QTextDocument.FindFlag.FindCaseSensitively if match_case else QTextDocument.FindFlag(0)
    found: list[Occurrence] = []
    for widget in _texts(row):
        document = _document(widget)
        cursor = document.find(query, 0, flags)
        while not cursor.isNull():
            start = cursor.selectionStart()
            found.append(Occurrence(widget, start, cursor.selectionEnd() - start))
            cursor = document.find(query, cursor, flags)
        if isinstance(widget, QLabel):
            document.deleteLater()
    return found


def _selection(
    widget: QTextEdit | QPlainTextEdit, hit: Occurrence, alpha: int
) -> QTextEdit.ExtraSelection:
    colour = QColor(theme.current().accent)
    colour.setAlpha(alpha)
    selection = QTextEdit.ExtraSelection()
    cursor = QTextCursor(widget.document())
    cursor.setPosition(hit.start)
    cursor.setPosition(hit.start + hit.length, QTextCursor.MoveMode.KeepAnchor)
    selection.cursor = cursor
    selection.format.setBackground(colour)
    return selection


class TextHits:
    """The occurrences painted in one row at a time (``show``; ``clear`` takes them away)."""

    def __init__(self) -> None:
        self._painted: list[TextWidget] = []

    def show(self, found: list[Occurrence], current: int) -> QRect | None:
        """Paint ``found`` (``found[current]`` stronger); the current one's rectangle in its
        widget's coordinates (None if ``found`` is empty)."""
        self.clear()
        if not found:
            return None
        chosen = found[current]
        by_widget: dict[int, list[Occurrence]] = {}
        for hit in found:
            by_widget.setdefault(id(hit.widget), []).append(hit)
        for hits in by_widget.values():
            widget = hits[0].widget
            if isinstance(widget, QLabel):
                if widget is chosen.widget:
                    widget.setSelection(chosen.start, chosen.length)
            else:
                strong = [_selection(widget, chosen, _CURRENT_ALPHA)] if chosen in hits else []
                faint = [_selection(widget, h, _ALL_ALPHA) for h in hits if h is not chosen]
                widget.setExtraSelections(faint + strong)
            self._painted.append(widget)
        return _rect(chosen)

    def clear(self) -> None:
        """Take the painted occurrences away (from widgets still alive)."""
        for widget in self._painted:
            if not isValid(widget):
                continue
            if isinstance(widget, QLabel):
                widget.setSelection(0, 0)
            else:
                widget.setExtraSelections([])
        self._painted.clear()


def _rect(hit: Occurrence) -> QRect:
    widget = hit.widget
    if isinstance(widget, QLabel):
        return widget.rect()
    cursor = QTextCursor(widget.document())
    cursor.setPosition(hit.start)
    rect = widget.cursorRect(cursor)
    return QRect(widget.viewport().mapTo(widget, rect.topLeft()), rect.size())


def reveal(view: ConversationView, widget: QWidget, rect: QRect) -> None:
    """Scroll ``view`` so that ``rect`` (in ``widget``'s coordinates) is well inside it: a
    third of the viewport from its top if it was out of view."""
    body = view.widget()
    if body is None or not isValid(widget):
        return
    top = widget.mapTo(body, rect.topLeft()).y()
    bar = view.verticalScrollBar()
    height = view.viewport().height()
    margin = min(48, height // 4)
    if bar.value() + margin <= top and top + rect.height() <= bar.value() + height - margin:
        return
    bar.setValue(max(0, min(top - height // 3, bar.maximum())))
