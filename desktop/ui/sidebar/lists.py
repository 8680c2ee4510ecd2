"""The two lists of the sidebar: conversations (rename in place) and search hits (snippets).

Rows are painted by delegates: a title and a muted second line, with the row background from
the style sheet (``QListWidget#sidebarList::item``), so the lists follow the theme.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, TypeGuard

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QPainter,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from desktop.ui import theme
from desktop.ui.sidebar.entries import Entry, meta_line

if TYPE_CHECKING:
    from desktop.core.history import SearchHit

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
_PAD_X, _PAD_Y, _GAP = 10, 7, 2
# Keyed by ``ItemKind`` values (a StrEnum): the history models load after the first paint.
_KIND_LABEL = {
    "user": "You",
    "assistant": "Assistant",
    "thinking": "Thinking",
    "tool": "Tool",
    "error": "Error",
    "notice": "Notice",
}

Index = QModelIndex | QPersistentModelIndex


def _is_hit(value: object) -> TypeGuard[SearchHit]:
    from desktop.core.history import SearchHit  # loaded by the time there are hits

    return isinstance(value, SearchHit)


def _small(font: QFont) -> QFont:
    small = QFont(font)
    small.setPointSizeF(max(7.0, font.pointSizeF() * 0.86))
    return small


class _TwoLineDelegate(QStyledItemDelegate):
    """Background from the style, then a bold title and a muted line under it."""

    def _lines(self, index: Index) -> tuple[str, str]:
        return str(index.data(Qt.ItemDataRole.DisplayRole) or ""), ""

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        title, small = option.fontMetrics.height(), _small(option.font)
        return QSize(option.rect.width(), title + QFontMetrics(small).height() + 2 * _PAD_Y + _GAP)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, opt, painter, widget)
        title, second = self._lines(index)
        colours = theme.current()
        rect = option.rect.adjusted(_PAD_X, _PAD_Y, -_PAD_X, -_PAD_Y)
        painter.save()
        bold = QFont(option.font)
        bold.setWeight(QFont.Weight.DemiBold)
        painter.setFont(bold)
        painter.setPen(QColor(colours.text))
        metrics = painter.fontMetrics()
        top = QRect(rect.left(), rect.top(), rect.width(), metrics.height())
        elided = metrics.elidedText(title, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(
            top, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), elided
        )
        self._paint_second(painter, option, index, rect, top.bottom() + _GAP, second)
        painter.restore()

    def _paint_second(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: Index,
        rect: QRect,
        y: int,
        text: str,
    ) -> None:
        small = _small(option.font)
        painter.setFont(small)
        painter.setPen(QColor(theme.current().muted))
        metrics = painter.fontMetrics()
        line = QRect(rect.left(), y, rect.width(), metrics.height())
        elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(
            line, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), elided
        )


class _ConversationDelegate(_TwoLineDelegate):
    """Conversation rows; editing (F2) is a plain line edit over the title.

    Signals:
        title_edited(str, str): the user renamed a stored conversation (id, new title).
    """

    title_edited = Signal(str, str)

    def _lines(self, index: Index) -> tuple[str, str]:
        entry = index.data(ENTRY_ROLE)
        if isinstance(entry, Entry):
            return entry.title or "Untitled conversation", meta_line(entry)
        return super()._lines(index)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        editor = QLineEdit(parent)
        editor.setObjectName("renameEditor")
        editor.setAccessibleName("Conversation title")
        return editor

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        if isinstance(editor, QLineEdit):
            entry = index.data(ENTRY_ROLE)
            editor.setText(entry.title if isinstance(entry, Entry) else "")
            editor.selectAll()

    def updateEditorGeometry(
        self, editor: QWidget, option: QStyleOptionViewItem, index: Index
    ) -> None:
        rect: QRect = option.rect
        height = option.fontMetrics.height() + 10
        editor.setGeometry(rect.left() + 4, rect.top() + 3, rect.width() - 8, height)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:
        entry = index.data(ENTRY_ROLE)
        if not isinstance(editor, QLineEdit) or not isinstance(entry, Entry):
            return
        title = " ".join(editor.text().split())
        if title and title != entry.title and entry.conversation_id is not None:
            entry.title = title
            model.setData(index, title, Qt.ItemDataRole.DisplayRole)
            self.title_edited.emit(entry.conversation_id, title)


class ConversationList(QListWidget):
    """The workspace's conversations, newest first.

    Signals:
        entry_chosen(Entry): the user selected a row (open or show that conversation).
        rename_requested(str, str): a stored conversation got a new title (id, title).
        delete_requested(Entry): Delete was pressed on a stored conversation.
    """

    entry_chosen = Signal(object)
    rename_requested = Signal(str, str)
    delete_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebarList")
        self.setAccessibleName("Conversations")
        self.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setUniformItemSizes(True)
        self.delegate = _ConversationDelegate(self)
        self.setItemDelegate(self.delegate)
        self._filling = False
        self.delegate.title_edited.connect(self.rename_requested)
        self.currentItemChanged.connect(self._on_current)

    def entries(self) -> list[Entry]:
        """The rows, top to bottom."""
        return [self.entry(self.item(row)) for row in range(self.count())]

    @staticmethod
    def entry(item: QListWidgetItem) -> Entry:
        """The entry of a row."""
        entry = item.data(ENTRY_ROLE)
        assert isinstance(entry, Entry)
        return entry

    def current_entry(self) -> Entry | None:
        """The selected row's entry."""
        item = self.currentItem()
        return self.entry(item) if item is not None else None

    def fill(self, entries: list[Entry], current: Entry | None) -> None:
        """Show ``entries`` (selection kept on ``current``) without reporting a choice."""
        self._filling = True
        try:
            self.clear()
            for entry in entries:
                item = QListWidgetItem(entry.title)
                item.setData(ENTRY_ROLE, entry)
                item.setToolTip(entry.title)
                flags = item.flags()
                if entry.stored:
                    flags |= Qt.ItemFlag.ItemIsEditable
                item.setFlags(flags)
                self.addItem(item)
                if entry is current:
                    self.setCurrentItem(item)
        finally:
            self._filling = False

    def select(self, entry: Entry) -> None:
        """Select ``entry``'s row without reporting a choice."""
        for row in range(self.count()):
            if self.entry(self.item(row)) is entry:
                self._filling = True
                try:
                    self.setCurrentRow(row)
                finally:
                    self._filling = False
                return

    def refresh_entry(self, entry: Entry) -> None:
        """Repaint ``entry``'s row (its title or meta line changed)."""
        for row in range(self.count()):
            item = self.item(row)
            if self.entry(item) is entry:
                item.setText(entry.title)
                item.setToolTip(entry.title)
                item.setFlags(
                    item.flags() | Qt.ItemFlag.ItemIsEditable
                    if entry.stored
                    else item.flags() & ~Qt.ItemFlag.ItemIsEditable
                )

    def rename_current(self) -> None:
        """Start editing the selected title in place (F2)."""
        item = self.currentItem()
        if item is not None and self.entry(item).stored:
            self.editItem(item)

    @property
    def editing(self) -> bool:
        """Whether a title is being edited (the list is not refilled meanwhile)."""
        return self.state() == QAbstractItemView.State.EditingState

    def _on_current(self, item: QListWidgetItem | None, _previous: object) -> None:
        if item is not None and not self._filling:
            self.entry_chosen.emit(self.entry(item))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        entry = self.current_entry()
        if event.key() == Qt.Key.Key_Delete and entry is not None and entry.stored:
            self.delete_requested.emit(entry)
            return
        super().keyPressEvent(event)


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


class _HitDelegate(_TwoLineDelegate):
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
        width = max(120, option.rect.width() - 2 * _PAD_X)
        line = option.fontMetrics.height()
        body = _two_lines(self._document(option, index, width), line)
        small = _small(option.font)
        head = QFontMetrics(small).height()
        return QSize(option.rect.width(), int(head + body) + 2 * _PAD_Y + _GAP)

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
        rect: QRect = option.rect.adjusted(_PAD_X, _PAD_Y, -_PAD_X, -_PAD_Y)
        painter.save()
        small = _small(option.font)
        painter.setFont(small)
        painter.setPen(QColor(theme.current().muted))
        metrics = painter.fontMetrics()
        head = QRect(rect.left(), rect.top(), rect.width(), metrics.height())
        title = metrics.elidedText(
            hit.title or "Untitled conversation", Qt.TextElideMode.ElideRight, rect.width()
        )
        painter.drawText(
            head, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), title
        )
        doc = self._document(option, index, rect.width())
        painter.translate(rect.left(), head.bottom() + _GAP)
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
        self.setAccessibleName("Search results")
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
