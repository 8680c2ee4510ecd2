"""The history side of a workspace window: list, record, reopen, search, rename.

``HistoryEngine`` sits between the window, its conversation panes, the sidebar widget and the
shared ``HistoryService``. Every database call runs in the window's task scope through the
service (off the event loop); nothing modal is ever run (file dialogs use ``open()``). Delete,
undo and export, the actions a row offers, are its ``actions`` (``ConversationActions``);
reopening a stored conversation is its ``reopener``'s (``reopen.ConversationReopener``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QWidget

from desktop.core.events import Notice, TurnStarted
from desktop.core.history import HistoryRecording, SearchHit
from desktop.core.history.titles import distinct_title, title_from_prompt
from desktop.ui.conversation.highlight import mark, scroll_to
from desktop.ui.sidebar.actions import ConversationActions
from desktop.ui.sidebar.entries import Entry
from desktop.ui.sidebar.host import HistoryWindow
from desktop.ui.sidebar.panel import HistorySidebar
from desktop.ui.sidebar.reopen import ConversationReopener
from desktop.ui.sidebar.replay import locate
from desktop.ui.sidebar.service import HistoryClosedError, HistoryService

if TYPE_CHECKING:
    from desktop.ui.pane import ConversationPane

log = logging.getLogger(__name__)


def _trouble_notice(error: str | None) -> Notice:
    """What a conversation says when its history writes fail (``error``), then work again."""
    if error is None:
        return Notice(
            message=QCoreApplication.translate(
                "HistoryEngine",
                "The history is saved again; nothing of this conversation was lost.",
            )
        )
    saved = QCoreApplication.translate(
        "HistoryEngine", "Nothing shown here is lost; it is saved when that works again."
    )
    message = QCoreApplication.translate(
        "HistoryEngine", "This conversation could not be saved to the history ({error}). {saved}"
    ).format(error=error, saved=saved)
    return Notice(level="warning", message=message)


#: Turn starts and ends are followed by a list refresh this much later (one per burst).
RELOAD_DELAY_MS = 250


def _new_title() -> str:
    """The draft title of a conversation until its first prompt names it."""
    return QCoreApplication.translate("HistoryEngine", "New conversation")


class HistoryEngine:
    """The history of one window (made by ``WindowHistory`` once the event loop runs).

    Delete with undo, export and the rows' context menu: ``actions`` (``ConversationActions``);
    stored conversations shown again: ``reopener`` (``ConversationReopener``).

    Args:
        window: The workspace window.
        sidebar: The window's sidebar widget.
    """

    def __init__(self, window: HistoryWindow, sidebar: HistorySidebar) -> None:
        self.window = window
        self.workspace = window.workspace
        self.service = HistoryService.shared(window.runtime)
        self.sidebar = sidebar
        self.entries: list[Entry] = []
        self.recordings: dict[ConversationPane, HistoryRecording] = {}
        self._search: asyncio.Task[None] | None = None
        self._closed = False
        self._reload_timer = QTimer(self.sidebar)
        self._reload_timer.setSingleShot(True)
        self._reload_timer.setInterval(RELOAD_DELAY_MS)
        self.actions = ConversationActions(
            window, self.service, sidebar, discard=self._discard, reload=self._reload
        )
        self.reopener = ConversationReopener(
            window, self.service, record=self._record, shown=self.select, gone=self._schedule_reload
        )
        sidebar.search_requested.connect(self._on_search)
        sidebar.results.hit_chosen.connect(self.open_hit)
        sidebar.list.entry_chosen.connect(self._on_chosen)
        sidebar.list.rename_requested.connect(self.rename)
        self._reload_timer.timeout.connect(self.reload)
        window.scope.spawn(self._open(), name="history-open")
        if sidebar.search.text().strip():  # typed before the history was there
            self._on_search(sidebar.search.text().strip())

    async def _open(self) -> None:
        try:
            await self.service.ready()
        except HistoryClosedError as exc:
            self.sidebar.show_hint(str(exc))
            return
        writer = self.service.writer
        if self._closed or writer is None:  # the window closed while the history opened
            return
        for recording in self.recordings.values():
            recording.bind(writer)
        if writer.recovered:  # a damaged database was moved aside: say where it is
            self.sidebar.show_hint(writer.recovered)
        await self._reload()
        self._on_search(self.sidebar.search.text().strip())

    # ------------------------------------------------------------------ live conversations
    def track(self, pane: ConversationPane, agent: str) -> None:
        """A new conversation in the window: list it (as a draft) and record it."""
        entry = Entry(None, _new_title(), agent, time.time(), pane)
        self._record(pane, agent).on_created = lambda conv_id: self._on_created(entry, conv_id)
        self.entries.insert(0, entry)
        self._fill()

    def _record(
        self, pane: ConversationPane, agent: str, continues: tuple[str, int] | None = None
    ) -> HistoryRecording:
        """Record ``pane``'s conversation as ``exec`` records its own (``Conversation.record``),
        new or continuing a stored one; history write failures are told in it."""
        recording = HistoryRecording(
            self.workspace,
            agent,
            redactor=self.service.redactor,
            continues=continues,
            on_trouble=lambda error: pane.transcript.apply(_trouble_notice(error)),
        )
        pane.conversation.record(recording)
        if self.service.writer is not None:
            recording.bind(self.service.writer)
        self.recordings[pane] = recording
        pane.bridge.turn_started.connect(partial(self._on_turn_started, pane))
        pane.bridge.turn_ended.connect(self._schedule_reload)
        return recording

    def _on_created(self, entry: Entry, conversation_id: str) -> None:
        entry.conversation_id = conversation_id
        self.sidebar.list.refresh_entry(entry)
        self._schedule_reload()

    def _on_turn_started(self, pane: ConversationPane, event: TurnStarted) -> None:
        entry = self.entry_of(pane)
        if entry is not None:
            if entry.title == _new_title():  # the first prompt names it at once
                # Numbered as the store numbers it, so the row does not change at the reload.
                taken = (e.title for e in self.entries if e is not entry)
                entry.title = distinct_title(title_from_prompt(event.prompt), taken) or entry.title
                pane.title = entry.title
            entry.updated_at = time.time()
            self.sidebar.list.refresh_entry(entry)
        self._schedule_reload()

    def entry_of(self, pane: ConversationPane) -> Entry | None:
        """The sidebar entry of ``pane``."""
        return next((e for e in self.entries if e.pane is pane), None)

    def select(self, pane: ConversationPane) -> None:
        """Mark ``pane``'s row as the current one."""
        entry = self.entry_of(pane)
        if entry is not None:
            self.sidebar.list.select(entry)

    # ------------------------------------------------------------------ the list
    def _schedule_reload(self, *_args: object) -> None:
        if not self._closed:
            self._reload_timer.start()

    def reload(self) -> None:
        """Read the workspace's conversations again (newest first) and show them."""
        if self._closed or self.service.store is None:
            return
        try:
            self.window.scope.spawn(self._reload(), name="history-reload")
        except RuntimeError:  # the window's scope or the loop ended: nothing left to show
            log.debug("history reload dropped: the window is closing")

    async def _reload(self) -> None:
        if self.sidebar.list.editing:
            self._schedule_reload()  # never pull the row from under the title editor
            return
        try:
            summaries = await self.service.conversations(self.workspace)
        except HistoryClosedError as exc:
            if not self._closed:  # closing releases the database under a pending reload
                self.sidebar.show_hint(str(exc))
            return
        by_id = {e.conversation_id: e for e in self.entries if e.conversation_id}
        drafts = [e for e in self.entries if not e.stored]
        listed: list[Entry] = []
        for summary in summaries:
            if summary.id in self.actions.deleting:
                continue
            entry = by_id.pop(summary.id, None) or Entry(
                summary.id, summary.title, summary.agent, summary.updated_at
            )
            entry.title = summary.title or entry.title
            entry.agent, entry.updated_at = summary.agent, summary.updated_at
            listed.append(entry)
        # Open conversations missing from the database (its write failed) stay listed.
        kept = [e for e in by_id.values() if e.pane is not None]
        self.entries = drafts + kept + listed
        self._fill()

    async def _discard(self, entry: Entry) -> None:
        """Take ``entry`` off the list and close its pane (the conversation is being deleted)."""
        if entry in self.entries:
            self.entries.remove(entry)
            self._fill()
        if (pane := entry.pane) is not None:
            if (recording := self.recordings.pop(pane, None)) is not None:
                recording.detach()
            await pane.aclose()
            self.reopener.forget(pane)
            entry.pane = None
            self.window.remove_pane(pane)

    def _fill(self) -> None:
        shown = self.window_current()
        current = next((e for e in self.entries if e.pane is shown), None)
        self.sidebar.list.fill(self.entries, current or self.sidebar.list.current_entry())

    def window_current(self) -> ConversationPane | None:
        """The pane the window shows."""
        current = getattr(self.window, "current", None)
        return current if current is not None else None

    def _on_chosen(self, entry: Entry) -> None:
        if entry.pane is not None:
            self.window.show_pane(entry.pane)
        elif entry.conversation_id is not None:
            self.window.scope.spawn(self.open_stored(entry), name="history-open-conversation")

    # ------------------------------------------------------------------ reopening
    async def open_stored(self, entry: Entry) -> ConversationPane | None:
        """Show a stored conversation (rebuilt from history), ready to continue."""
        return await self.reopener.open(entry)

    # ------------------------------------------------------------------ search
    def _on_search(self, query: str) -> None:
        if self._search is not None and not self._search.done():
            self._search.cancel()
        self._search = None
        if query and self.service.store is not None:
            self._search = self.window.scope.spawn(self._run_search(query), name="history-search")

    async def _run_search(self, query: str) -> None:
        hits = await self.service.search(query, self.workspace)
        if self.sidebar.search.text().strip() != query:
            return
        self.sidebar.results.show_hits(hits)
        self.sidebar.show_hint(
            ""
            if hits
            else QCoreApplication.translate("HistoryEngine", "No matches for “{query}”").format(
                query=query
            )
        )

    def open_hit(self, hit: SearchHit) -> None:
        """Open the hit's conversation, scrolled to the hit, which is highlighted."""
        self.window.scope.spawn(self.show_hit(hit), name="history-open-hit")

    async def show_hit(self, hit: SearchHit) -> QWidget | None:
        """``open_hit`` as a coroutine; returns the highlighted widget."""
        entry = next((e for e in self.entries if e.conversation_id == hit.conversation_id), None)
        if entry is None:
            await self._reload()
            entry = next(
                (e for e in self.entries if e.conversation_id == hit.conversation_id), None
            )
            if entry is None:
                return None
        pane = entry.pane or await self.open_stored(entry)
        if pane is None:
            return None
        self.window.show_pane(pane)
        whole = self.reopener.whole(pane)
        stored = await whole if whole is not None else None
        if stored is None or not any(i.seq == hit.seq for i in stored.items):
            stored, _ = await self.service.load(hit.conversation_id)
        item = locate(pane.transcript, stored, hit.seq)
        widget = pane.view.bring(item.key) if item is not None else None  # built if far
        if widget is None:
            return None
        pane.view.flush()
        await scroll_to(pane.view, widget)
        mark(widget)
        return widget

    # ------------------------------------------------------------------ rename
    def rename(self, conversation_id: str, title: str) -> None:
        """Store a title the user chose."""
        for entry in self.entries:
            if entry.conversation_id == conversation_id and entry.pane is not None:
                entry.pane.title = title
        self.window.scope.spawn(self._rename(conversation_id, title), name="history-rename")

    async def _rename(self, conversation_id: str, title: str) -> None:
        await self.service.rename(conversation_id, title)
        await self._reload()

    # ------------------------------------------------------------------ shutdown
    async def aclose(self) -> None:
        """The window closes: stop recording (what is open is written), release the database."""
        self._closed = True
        self._reload_timer.stop()
        for recording in self.recordings.values():
            recording.detach()
        self.recordings.clear()
        self.actions.deleted.clear()
        await self.service.release()
