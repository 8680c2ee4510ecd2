"""What the user does to one stored conversation: delete (with undo), export, the context menu.

Kept apart from ``HistoryEngine``'s listing, reopening and search: these are the actions the
rows offer, each ending in a database call through the shared service. The engine constructs one
``ConversationActions`` and gives it what it needs (window, service, sidebar, and how to take a
row off the list and to reload it); the actions keep what is theirs (the deleted conversations
Undo can bring back). Nothing modal is run: deleting asks in an inline bar, and the export file
dialog is opened with ``open()``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QPoint, Qt
from PySide6.QtWidgets import QFileDialog, QMenu

from desktop.core.history import ConversationNotFoundError
from desktop.ui.sidebar.entries import Entry

if TYPE_CHECKING:
    from desktop.core.history import StoredConversation
    from desktop.ui.sidebar.host import HistoryWindow
    from desktop.ui.sidebar.panel import HistorySidebar
    from desktop.ui.sidebar.service import HistoryService

_FORMATS = {"md": ("Markdown", "Markdown (*.md)"), "json": ("JSON", "JSON (*.json)")}


class ConversationActions:
    """Delete and undo, export, and the context menu of the conversation list.

    Args:
        window: The workspace window.
        service: The shared history service.
        sidebar: The window's sidebar widget (its signals are connected here).
        discard: Takes a row off the list and closes its conversation (it is being deleted).
        reload: Reads the list again.
    """

    def __init__(
        self,
        window: HistoryWindow,
        service: HistoryService,
        sidebar: HistorySidebar,
        *,
        discard: Callable[[Entry], Awaitable[None]],
        reload: Callable[[], Awaitable[None]],
    ) -> None:
        self.window = window
        self.service = service
        self.sidebar = sidebar
        #: Deleted conversations, most recent last: what Undo brings back.
        self.deleted: list[StoredConversation] = []
        #: Conversations being deleted: a reload meanwhile does not list them again.
        self.deleting: set[str] = set()
        self._discard = discard
        self._reload = reload
        lst = sidebar.list
        sidebar.undo_requested.connect(self._on_undo)
        sidebar.confirm.confirmed.connect(self._on_delete_confirmed)
        lst.delete_requested.connect(self.ask_delete)
        lst.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        lst.customContextMenuRequested.connect(self._on_context_menu)

    # ------------------------------------------------------------------ delete and undo
    def ask_delete(self, entry: Entry | None = None) -> None:
        """Ask (inline) before deleting ``entry`` (default: the selected conversation)."""
        entry = entry or self.sidebar.list.current_entry()
        if entry is not None and entry.stored:
            self.sidebar.confirm.ask(entry.title, entry)

    def _on_delete_confirmed(self, subject: object) -> None:
        if isinstance(subject, Entry):
            self.window.scope.spawn(self.delete(subject), name="history-delete")

    async def delete(self, entry: Entry) -> None:
        """Delete a conversation (its pane is closed first); Undo can bring it back."""
        conv_id = entry.conversation_id
        if conv_id is None:
            return
        self.deleting.add(conv_id)
        try:
            await self._delete(entry, conv_id)
        finally:
            self.deleting.discard(conv_id)
        await self._reload()
        # The keyboard stays with the list (a new conversation replacing the deleted one took
        # it): Ctrl+Z there undoes the deletion, where a text field would undo its own typing.
        if self.sidebar.can_undo:
            self.sidebar.list.setFocus()

    async def _delete(self, entry: Entry, conv_id: str) -> None:
        await self._discard(entry)
        try:
            snapshot = await self.service.delete(conv_id)
        except ConversationNotFoundError:
            snapshot = None
        if snapshot is not None:
            self.deleted.append(snapshot)
            self.sidebar.undo.offer(snapshot.title, len(self.deleted) - 1)

    def _on_undo(self) -> None:
        self.window.scope.spawn(self.undo_delete(), name="history-undo")

    async def undo_delete(self) -> None:
        """Put the most recently deleted conversation back."""
        if not self.deleted:
            return
        snapshot = self.deleted.pop()
        await self.service.restore(snapshot)
        if self.deleted:
            self.sidebar.undo.offer(self.deleted[-1].title, len(self.deleted) - 1)
        else:
            self.sidebar.undo.hide()
        await self._reload()

    # ------------------------------------------------------------------ export
    def export(self, entry: Entry | None, fmt: str) -> QFileDialog | None:
        """Ask where to save ``entry`` as Markdown (``md``) or JSON (``json``), then write it.

        The dialog is opened with ``open()`` (never ``exec()``); returns it (tests answer it).
        """
        entry = entry or self.sidebar.list.current_entry()
        if entry is None or entry.conversation_id is None:
            return None
        name, pattern = _FORMATS[fmt]
        default = self.window.workspace / f"{_slug(entry.title)}.{fmt}"
        dialog = QFileDialog(
            self.sidebar.window(),
            QCoreApplication.translate("ConversationActions", "Export as {name}").format(name=name),
            str(default),
            pattern,
        )
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix(fmt)
        conv_id = entry.conversation_id

        def chosen(path: str) -> None:
            if path:
                self.window.scope.spawn(self.export_to(conv_id, Path(path), fmt), name="export")

        dialog.fileSelected.connect(chosen)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    async def export_to(self, conversation_id: str, path: Path, fmt: str) -> None:
        """Write the conversation to ``path``."""
        try:
            await self.service.export(conversation_id, path, fmt)
        except OSError as exc:
            self.window.show_message(
                QCoreApplication.translate("ConversationActions", "Export failed: {exc}").format(
                    exc=exc
                )
            )
            return
        self.window.show_message(
            QCoreApplication.translate("ConversationActions", "Exported to {path}").format(
                path=path
            )
        )

    def _on_context_menu(self, pos: QPoint) -> None:
        lst = self.sidebar.list
        item = lst.itemAt(pos)
        if item is None:
            return
        entry = lst.entry(item)
        menu = QMenu(lst)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        rename = menu.addAction(QCoreApplication.translate("ConversationActions", "Rename"))
        rename.triggered.connect(lambda: lst.editItem(item))
        md = menu.addAction(
            QCoreApplication.translate("ConversationActions", "Export as Markdown…")
        )
        md.triggered.connect(lambda: self.export(entry, "md"))
        js = menu.addAction(QCoreApplication.translate("ConversationActions", "Export as JSON…"))
        js.triggered.connect(lambda: self.export(entry, "json"))
        menu.addSeparator()
        delete = menu.addAction(QCoreApplication.translate("ConversationActions", "Delete…"))
        delete.triggered.connect(lambda: self.ask_delete(entry))
        for action in (rename, md, js, delete):
            action.setEnabled(entry.stored)
        menu.popup(lst.viewport().mapToGlobal(pos))


def _slug(title: str) -> str:
    slug = re.sub(r"[^\w\-]+", "-", title.strip().lower()).strip("-")
    return slug[:60] or "conversation"
