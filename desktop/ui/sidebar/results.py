"""The sidebar's search results: full-text hits, each a title and a highlighted snippet.

Kept apart from the conversation list (``lists``): the hits are drawn as rich text (the FTS
match markers become highlights), clipped to a few lines so a snippet never shows a cut line.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, TypeGuard

from PySide6.QtCore import QCoreApplication, QRect, QSize, Qt, Signal
from PySide6.QtGui import QAbstractTextDocumentLayout, QColor, QFontMetrics, QPainter, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyleOptionViewItem,
    QWidget,
)

from desktop.ui import theme
from desktop.ui.sidebar.rows import (
    ENTRY_ROLE,
    GAP,
    PAD_X,
    PAD_Y,
    Index,
    TwoLineDelegate,
    small_font,
)

if TYPE_CHECKING:
    from desktop.core.history import SearchHit

# Keyed by ``ItemKind`` values (a StrEnum): the history models load after the first paint.
_KIND_LABEL = {
    "user": "You",
    "assistant": "Assistant",
    "thinking": "Thinking",
    "tool": "Tool",
    "error": "Error",
    "notice": "Notice",
    "plan": "Plan",
}


def _is_hit(value: object) -> TypeGuard[SearchHit]:
    from desktop.core.history import SearchHit  # loaded by the time there are hits

    return isinstance(value, SearchHit)


def snippet_html(snippet: str, kind: str) -> str:
    """A search snippet as rich text: the FTS match markers ``[…]`` become highlights."""
    colours = theme.current()
    text = html.escape(" ".join(snippet.split()))
    mark = (
        f'<span style="background-color:{colours.user_bubble}; color:{colours.accent}; '
        'font-weight:600;">\\1</span>'
    )
    text = re.sub(r"\[([^\[\]]*)\]", mark, text)
    label = _KIND_LABEL.get(str(kind), "")
    prefix = f'<span style="color:{colours.muted};">{label}: </span>' if label else ""
    return prefix + text


def _two_lines(doc: QTextDocument, fallback: int) -> float:
    """Height of the first three laid-out lines of ``doc`` (a snippet never shows a cut line)."""
    full = doc.size().height()  # lays the document out
    layout = doc.firstBlock().layout()
    if layout is not None and layout.lineCount() > 3:
        line = layout.lineAt(2)
        return layout.position().y() + line.y() + line.height()
    return full if full > 0 else fallback


class _HitDelegate(TwoLineDelegate):
    """Search hits: the conversation's title, then the snippet (two lines at most)."""

    def _document(self, option: QStyleOptionViewItem, index: Index, width: int) -> QTextDocument:
        hit = index.data(ENTRY_ROLE)
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setDocumentMargin(0)
        if _is_hit(hit):
            doc.setHtml(snippet_html(hit.snippet, hit.kind))
        doc.setTextWidth(width)
        return doc

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        width = max(120, option.rect.width() - 2 * PAD_X)
        line = option.fontMetrics.height()
        body = _two_lines(self._document(option, index, width), line)
        small = small_font(option.font)
        head = QFontMetrics(small).height()
        return QSize(option.rect.width(), int(head + body) + 2 * PAD_Y + GAP)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        if widget is not None:
            widget.style().drawPrimitive(
                QStyle.PrimitiveElement.PE_PanelItemViewItem, opt, painter, widget
            )
        hit = index.data(ENTRY_ROLE)
        if not _is_hit(hit):
            return
        rect: QRect = option.rect.adjusted(PAD_X, PAD_Y, -PAD_X, -PAD_Y)
        painter.save()
        small = small_font(option.font)
        painter.setFont(small)
        painter.setPen(QColor(theme.current().muted))
        metrics = painter.fontMetrics()
        head = QRect(rect.left(), rect.top(), rect.width(), metrics.height())
        title = metrics.elidedText(
            hit.title or QCoreApplication.translate("UndoBar", "Untitled conversation"),
            Qt.TextElideMode.ElideRight,
            rect.width(),
        )
        painter.drawText(
            head, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), title
        )
        doc = self._document(option, index, rect.width())
        painter.translate(rect.left(), head.bottom() + GAP)
        clip = QRect(0, 0, rect.width(), int(_two_lines(doc, metrics.height())))
        painter.setClipRect(clip)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(context.palette.ColorRole.Text, QColor(theme.current().text))
        doc.documentLayout().draw(painter, context)
        painter.restore()


class SearchResults(QListWidget):
    """Full-text hits with snippets.

    Signals:
        hit_chosen(SearchHit): the user activated a hit (Enter, click).
    """

    hit_chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebarList")
        self.setAccessibleName(self.tr("Search results"))
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setWordWrap(True)
        self.setItemDelegate(_HitDelegate(self))
        self.itemActivated.connect(self._on_activated)
        self.itemClicked.connect(self._on_activated)

    def show_hits(self, hits: list[SearchHit]) -> None:
        """Replace the rows with ``hits``."""
        self.clear()
        for hit in hits:
            item = QListWidgetItem(hit.snippet)
            item.setData(ENTRY_ROLE, hit)
            item.setToolTip(hit.title)
            self.addItem(item)
        if hits:
            self.setCurrentRow(0)

    def hits(self) -> list[SearchHit]:
        """The hits shown, best first."""
        return [self.item(row).data(ENTRY_ROLE) for row in range(self.count())]

    def _on_activated(self, item: QListWidgetItem) -> None:
        hit = item.data(ENTRY_ROLE)
        if _is_hit(hit):
            self.hit_chosen.emit(hit)
