"""The history database as the window sees it: one writer and one reader per app, off the loop.

``HistoryStore`` and ``HistoryWriter`` block (SQLite, fsync), so every call here runs in a
worker thread; the database is opened the same way, so opening a window never waits for it.
The worker is the service's own plain ``ThreadPoolExecutor``, not ``asyncio.to_thread``: under
qasync that uses the loop's default ``QThreadExecutor`` (ten ``QThread``s per loop), and with it
the UI test suite crashed (segmentation fault) once a few loops had come and gone.

The service belongs to the app's ``AsyncRuntime`` (it is a child ``QObject`` of it): windows of
one app share it without a global registry and without the app module knowing about it. The
last window to release it flushes and closes the writer.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import ParamSpec, TypeVar

from PySide6.QtCore import QCoreApplication, QObject

from desktop.core.history import (
    ConversationSummary,
    HistorySchemaError,
    HistoryStore,
    HistoryWriter,
    SearchHit,
    StoredConversation,
    to_json,
    to_markdown,
)
from desktop.core.history.items import UnparsedItems
from desktop.core.traffic_log import Redactor, secret_values
from desktop.ui.qt_async import AsyncRuntime

_P = ParamSpec("_P")
_T = TypeVar("_T")


class HistoryClosedError(Exception):
    """The history database cannot be opened (conversations are then kept in memory only)."""


class HistoryService(QObject):
    """Shared access to the conversation history of one app.

    Args:
        path: The database file (default: the data folder's ``history.sqlite3``).
    """

    def __init__(self, parent: QObject | None = None, path: Path | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.writer: HistoryWriter | None = None
        self.store: HistoryStore | None = None
        self.error: str | None = None
        self._opening: asyncio.Task[None] | None = None
        self._users = 0
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="history-read")
        #: Removes the environment's secrets from what the history writes.
        self.redactor = Redactor(secret_values(os.environ))

    async def _call(self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """``fn(*args)`` in the service's worker thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(*args, **kwargs))

    @classmethod
    def shared(cls, runtime: AsyncRuntime) -> HistoryService:
        """The service of the app that owns ``runtime`` (made on first use)."""
        service = runtime.findChild(HistoryService)
        if service is None:
            service = HistoryService(runtime)
        service._users += 1
        return service

    # ------------------------------------------------------------------ lifetime
    async def ready(self) -> None:
        """Open the database (once; concurrent callers wait for the same opening).

        Raises:
            HistoryClosedError: the database is unusable (the reason is in ``error``).
        """
        if self.store is None and (self._opening is None or self._opening.done()):
            self._opening = asyncio.get_running_loop().create_task(self._open())
        if self._opening is not None:
            await asyncio.shield(self._opening)
        if self.store is None:
            raise HistoryClosedError(self.error or "the history is closed")

    async def _open(self) -> None:
        try:
            self.writer = await self._call(HistoryWriter, self.path)
            self.store = await self._call(HistoryStore, self.path)
        except (HistorySchemaError, OSError, RuntimeError) as exc:
            self.error = QCoreApplication.translate(
                "HistoryService", "The conversation history cannot be opened: {exc}"
            ).format(exc=exc)
            if self.writer is not None:
                await self._call(self.writer.close)
                self.writer = None

    async def release(self) -> None:
        """A window is done with the service; the last one writes everything and closes it."""
        self._users -= 1
        if self._users > 0:
            return
        if self._opening is not None and not self._opening.done():
            await asyncio.wait([self._opening])
        writer, store = self.writer, self.store
        self.writer = self.store = None
        if writer is not None:
            await self._call(writer.close)
        if store is not None:
            await self._call(store.close)
        self._executor.shutdown(wait=False)
        self.setParent(None)
        self.deleteLater()

    def _store(self) -> HistoryStore:
        if self.store is None:
            raise HistoryClosedError(self.error or "the history is not open")
        return self.store

    # ------------------------------------------------------------------ reading and editing
    async def flush(self) -> None:
        """Wait until everything recorded so far is committed (before reading it back)."""
        if self.writer is not None:
            await self._call(self.writer.flush)

    async def conversations(self, workspace: Path) -> list[ConversationSummary]:
        """The workspace's conversations, most recently updated first."""
        await self.flush()
        return await self._call(self._store().list_conversations, workspace)

    async def load(
        self, conversation_id: str, *, last: int | None = None
    ) -> tuple[StoredConversation, int]:
        """A conversation with its items (or its ``last`` ones), and the sequence number its
        next item gets."""
        await self.flush()
        store = self._store()

        def both() -> tuple[StoredConversation, int]:
            return store.get(conversation_id, last=last), store.next_seq(conversation_id)

        return await self._call(both)

    async def items_before(self, conversation_id: str, seq: int) -> UnparsedItems:
        """The items of a conversation before ``seq``, read (parsed by the caller, in slices)."""
        return await self._call(self._store().items_before, conversation_id, seq)

    async def rename(self, conversation_id: str, title: str) -> None:
        """Give a conversation the user's title."""
        await self._call(self._store().rename, conversation_id, title)

    async def delete(self, conversation_id: str) -> StoredConversation:
        """Delete a conversation; returns it for ``restore`` (undo)."""
        await self.flush()
        return await self._call(self._store().delete, conversation_id)

    async def restore(self, conversation: StoredConversation) -> None:
        """Put a deleted conversation back."""
        await self._call(self._store().restore, conversation)

    async def search(self, query: str, workspace: Path) -> list[SearchHit]:
        """Full-text hits in the workspace's conversations, best first."""
        await self.flush()
        return await self._call(self._store().search, query, workspace)

    async def export(self, conversation_id: str, path: Path, fmt: str) -> None:
        """Write the conversation to ``path`` as Markdown (``md``) or JSON (``json``)."""
        conversation, _ = await self.load(conversation_id)
        text = to_json(conversation) if fmt == "json" else to_markdown(conversation)
        await self._call(path.write_text, text, encoding="utf-8")
