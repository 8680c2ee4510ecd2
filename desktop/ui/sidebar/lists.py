"""The conversations list of the sidebar: the workspace's conversations, renamed in place.

Rows are painted by ``rows.TwoLineDelegate`` (title and a muted meta line); the search hits
shown instead while searching are ``results.SearchResults`` (re-exported here).
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QCoreApplication, QRect, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QStyleOptionViewItem,
    QWidget,
)

from desktop.ui.sidebar.entries import Entry, meta_line
from desktop.ui.sidebar.results import SearchResults, snippet_html
from desktop.ui.sidebar.rows import ENTRY_ROLE, Index, TwoLineDelegate

__all__ = ["ENTRY_ROLE", "ConversationList", "SearchResults", "snippet_html"]


class _ConversationDelegate(TwoLineDelegate):
    """Conversation rows; editing (F2) is a plain line edit over the title.

    Signals:
        title_edited(str, str): the user renamed a stored conversation (id, new title).
    """

    title_edited = Signal(str, str)

    def _lines(self, index: Index) -> tuple[str, str]:
        entry = index.data(ENTRY_ROLE)
        if isinstance(entry, Entry):
            return entry.title or QCoreApplication.translate(
                "UndoBar", "Untitled conversation"
            ), meta_line(entry)
        return super()._lines(index)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        editor = QLineEdit(parent)
        editor.setObjectName("renameEditor")
        editor.setAccessibleName(self.tr("Conversation title"))
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
        self.setAccessibleName(self.tr("Conversations"))
        self.setAccessibleDescription(
            QCoreApplication.translate(
                "ConversationList", "Arrow keys open a conversation, F2 renames, Delete deletes"
            )
        )
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
                item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, meta_line(entry))
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
                item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, meta_line(entry))
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
