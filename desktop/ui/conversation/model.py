"""The window's conversation model: a Qt adapter over ``desktop.core.transcript``.

The core ``Transcript`` keeps the entries; this turns its changes into Qt signals for the view
and keeps what only the window needs: the standing start problem the user can fix (an
``ErrorEvent`` with ``fix``, shown by the welcome panel instead of a row) and, for each streamed
entry, the text the view has not rendered yet.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence

from PySide6.QtCore import QObject, Signal

from desktop.core.entries import Added, Appended, Change, Changed, Item, StreamItem, ToolItem
from desktop.core.events import ErrorEvent, SessionEvent, TurnEndReason
from desktop.core.transcript import Transcript as Entries
from desktop.ui.conversation import prebuild
from desktop.ui.turn_budget import NextTurn

#: What joining a closed stream's text costs, about (a megabyte reply: fresh memory).
JOIN_COST_S = 0.002


class TranscriptModel(QObject):
    """The entries of one conversation, as Qt signals.

    Signals:
        item_added(Item): a new entry at the end.
        item_changed(Item): an entry changed (its new state; a growing stream's text may lag:
            the view reads what is new with ``take_new``; a stream that closed comes again a
            turn of the loop later with all its text, joined then, not in the turn that ended
            the reply: a megabyte reply's join takes milliseconds).
        problem_changed(ErrorEvent | None): the start problem the user can fix, or None once
            solved.
        loaded_all(): the entries of ``load`` were all added (``loading`` is True meanwhile).
        earlier_added(list[Item]): entries came before the first one (``prepend``).
    """

    item_added = Signal(object)
    earlier_added = Signal(list)
    loaded_all = Signal()
    item_changed = Signal(object)
    problem_changed = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.entries = Entries()
        #: The standing start problem the user can fix from the window (not an entry).
        self.problem: ErrorEvent | None = None
        #: Entries below this key came from history (their exit has no Restart).
        self.loaded = 0
        #: True while ``load`` adds stored entries (the view builds none of them one by one).
        self.loading = False
        self._fresh: dict[int, list[str]] = {}
        self._stored: asyncio.Event | None = None  # a reopened conversation: set once all is in
        self._closed: list[int] = []  # streams that closed, their text not joined yet
        self._settle = NextTurn(self, self._join_closed, JOIN_COST_S)
        prebuild.schedule()  # the models its events use, built before a turn needs them

    @property
    def items(self) -> Sequence[Item]:
        """Every entry, in order."""
        return self.entries.items

    def tool(self, call_id: str) -> ToolItem | None:
        """The entry of tool call ``call_id``."""
        return self.entries.tool(call_id)

    def text(self, key: int) -> str:
        """The whole text of streamed entry ``key`` as it stands ("" for other entries)."""
        item = self.entries.item(key)
        return item.text if isinstance(item, StreamItem) else ""

    def take_new(self, key: int) -> str:
        """Streamed text of entry ``key`` that arrived since the last call."""
        pieces = self._fresh.get(key)
        if not pieces:
            return ""
        new = "".join(pieces)
        pieces.clear()
        return new

    # ------------------------------------------------------------------ changes
    def apply(self, event: SessionEvent) -> None:
        """A session event (the pane subscribes this to its session).

        The window's own concerns are read from ``event.type`` (a string compare: ``isinstance``
        on a pydantic model runs Python code, and this runs for every text delta)."""
        if event.type == "error" and event.fix is not None:
            # Announced once however often the start is retried; the window shows its fix.
            if self.problem is None or self.problem.fix != event.fix:
                self.problem = event
                self.problem_changed.emit(event)
            return
        if event.type == "agent_ready" and self.problem is not None:
            self.problem = None
            self.problem_changed.emit(None)
        elif (
            event.type == "turn_ended"
            and event.reason == TurnEndReason.ERROR
            and self.problem is not None
        ):
            event = event.model_copy(update={"message": None})  # the problem says why
        self._emit(self.entries.apply(event))

    def add_prompt(self, turn_id: str, text: str, files: list[str], *, queued: bool) -> None:
        """A prompt the user sent (queued until its turn starts)."""
        self._emit(self.entries.add_prompt(turn_id, text, files, queued=queued))

    def rekey_prompt(self, old: str, turn_id: str) -> None:
        """A prompt held back by the window got its session turn id."""
        self.entries.rekey_prompt(old, turn_id)

    def load(self, items: Iterable[Item]) -> None:
        """Entries of a conversation reopened from history."""
        self.loading = True
        try:
            self._emit(self.entries.load(items))
        finally:
            self.loading = False
        self.loaded = len(self.entries.items)
        self.loaded_all.emit()

    def expect_stored(self) -> None:
        """The conversation is being reopened from history (``stored_in`` follows once every
        stored entry is in: its end first, ``load``, then its beginning, ``prepend``)."""
        self._stored = asyncio.Event()

    def stored_in(self) -> None:
        """Every stored entry is in (``whole`` returns)."""
        if self._stored is not None:
            self._stored.set()

    async def whole(self) -> bool:
        """Wait until every stored entry of a reopened conversation is in (what counts turns
        from the first waits for it); whether it was reopened."""
        if self._stored is None:
            return False
        await self._stored.wait()
        return True

    def prepend(self, items: Sequence[Item]) -> None:
        """Stored entries before the first one, keyed by ``Transcript.keyed_before`` (a long
        conversation reopened from history: its end was loaded first)."""
        self.entries.prepend(items)
        self.earlier_added.emit(list(items))

    def update(self, item: Item, **changes: object) -> None:
        """Change fields of ``item`` (a restarted exit, an extension's message)."""
        self._emit([self.entries.update(item.key, **changes)])

    def _emit(self, changes: Iterable[Change]) -> None:
        for change in changes:
            if isinstance(change, Appended):  # the hot path: a piece of streamed text
                self._fresh[change.key].append(change.text)
                self.item_changed.emit(self.entries.peek(change.key))
            elif isinstance(change, Added):
                if isinstance(change.item, StreamItem):
                    self._fresh[change.item.key] = [change.item.text] if change.item.text else []
                self.item_added.emit(change.item)
            else:
                assert isinstance(change, Changed)
                item = change.item
                if isinstance(item, StreamItem) and item.done:
                    self._closed.append(item.key)
                    self._settle.ask()
                self.item_changed.emit(item)

    def _join_closed(self) -> None:
        keys, self._closed = self._closed, []
        for key in keys:
            self.item_changed.emit(self.entries.item(key))
