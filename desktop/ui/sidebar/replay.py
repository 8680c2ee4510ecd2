"""Show a stored conversation: load its entries into the conversation model, and find one.

Stored items are transcript entries (``desktop.core.transcript``), so a reopened conversation is
loaded as it was recorded, and shown by the same view that showed it live. What only history
knows is said on top: a reply cut off by a crash gets a warning after it, and a tool call that
never finished (the app stopped while it ran) is shown as interrupted.

A conversation of any length opens at once: the window reads its last ``TAIL`` items and shows
them (``replay``); ``load_earlier`` then reads the items before them in the history's worker
thread and parses, keys and prepends them on the loop a short slice at a time (their keys go
below the first; parsing in the thread would hold the interpreter's lock against the window).
What needs the whole conversation (the agent's summary, a search hit's place, the turns'
changes) waits for ``read_rest`` to finish.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from desktop.core.entries import (
    FINAL,
    Item,
    MessageItem,
    StreamItem,
    ToolItem,
    ToolStatus,
    TurnEndItem,
)
from desktop.core.events import Usage
from desktop.core.history import StoredConversation, StoredItem
from desktop.core.transcript import Transcript
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.garbage import keep_long_lived
from desktop.ui.sidebar.service import HistoryClosedError, HistoryService
from desktop.ui.turn_budget import TurnShare

if TYPE_CHECKING:
    from desktop.ui.pane import ConversationPane

#: Stored items a reopened conversation reads first (well over a screen); the rest follow.
TAIL = 150
#: Time one slice of the rest may take (parsed, keyed and given rows), a slice a turn of the loop
#: (one with budget left: ``turn_budget``).
SLICE_S = 0.004
#: The pause after a slice: the window paints, answers and lays out in turns of their own.
YIELD_S = 0.002

log = logging.getLogger(__name__)


def replay(transcript: TranscriptModel, conversation: StoredConversation) -> Usage:
    """Append every stored entry of ``conversation`` to ``transcript``; returns their usage."""
    transcript.load(_shown(conversation.items, _cut_off()))
    return usage_of(conversation.items)


def usage_of(items: Iterable[StoredItem]) -> Usage:
    """What the turns of ``items`` reported using."""
    usage = Usage()
    for item in items:
        if isinstance(item.entry, TurnEndItem) and item.entry.usage is not None:
            usage = usage + item.entry.usage
    return usage


async def load_earlier(
    service: HistoryService,
    transcript: TranscriptModel,
    tail: StoredConversation,
    each: Callable[[list[StoredItem], list[Item]], None],
) -> StoredConversation:
    """Prepend the stored items before ``tail``'s to ``transcript``, the nearest first, a slice
    of about ``SLICE_S`` per turn of the loop, each also given to ``each`` (stored items and
    their entries); returns the whole conversation (``tail`` when they cannot be read: what is
    shown stays, the log says why)."""
    if len(tail.items) < TAIL:
        return tail
    try:
        unparsed = await service.items_before(tail.id, tail.items[0].seq)
    except (HistoryClosedError, sqlite3.Error) as exc:
        log.warning("the beginning of conversation %s cannot be read: %s", tail.id, exc)
        return tail
    cut_off = _cut_off()
    stored: list[list[StoredItem]] = []
    stop, count = len(unparsed), 50
    share = TurnShare()  # a slice waits for a turn the rows being built have not used up
    while stop > 0:
        if not share.may_start():
            await asyncio.sleep(YIELD_S)
            continue
        began = time.perf_counter()
        start = max(0, stop - count)
        items = unparsed.parse(start, stop)
        keyed = Transcript.keyed_before(_shown(items, cut_off), transcript.entries.first_key)
        transcript.prepend(keyed)
        each(items, keyed)
        stored.append(items)
        keep_long_lived()  # they live with the pane: no collection walks them again
        took = max(time.perf_counter() - began, 1e-4)
        count = max(10, min(5_000, int((stop - start) * SLICE_S / took)))
        stop = start
        # A timer's turn, not the next one: the column's pass this slice asked for (its rows
        # built and laid out) runs in a turn of its own first, not in one with the next slice.
        await asyncio.sleep(YIELD_S)
    whole = [i for part in reversed(stored) for i in part]
    return tail.model_copy(update={"items": [*whole, *tail.items]})


async def read_rest(
    service: HistoryService,
    pane: ConversationPane,
    tail: StoredConversation,
    whole: asyncio.Future[StoredConversation],
) -> None:
    """The beginning of a reopened conversation whose end ``tail`` is shown (``load_earlier``),
    with its usage and cost; then ``whole`` has the whole conversation (only its end if the pane
    closed first) and the transcript says every entry is in."""

    def each(items: list[StoredItem], entries: list[Item]) -> None:
        pane.usage = pane.usage + usage_of(items)
        pane.take_stored(entries)

    conversation = tail
    try:
        await pane.view.rows.veil.wait()  # its last screen first, with every turn of the loop
        conversation = await load_earlier(service, pane.transcript, tail, each)
    finally:
        whole.set_result(conversation)
        pane.transcript.stored_in()


def _cut_off() -> str:
    return QCoreApplication.translate("Replay", "This reply was cut off.")


def _shown(items: Iterable[StoredItem], cut_off: str) -> Iterator[Item]:
    for stored in items:
        entry = stored.entry
        if isinstance(entry, ToolItem) and entry.status not in FINAL:
            entry = entry.model_copy(
                update={"status": ToolStatus.CANCELLED, "cancel_reason": "interrupted"}
            )
        elif isinstance(entry, StreamItem) and not entry.done:
            entry = entry.model_copy(update={"done": True})
        yield entry
        if isinstance(stored.entry, StreamItem) and not stored.complete:
            yield MessageItem(level="warning", text=cut_off)


def locate(transcript: TranscriptModel, conversation: StoredConversation, seq: int) -> Item | None:
    """The entry that shows stored item ``seq`` (live or reopened), if any.

    Prompts, replies, thinking and tool calls map one to one, in order, so the n-th of a type
    is found by counting. Errors and notices are found by their text.
    """
    target = next((i for i in conversation.items if i.seq == seq), None)
    if target is None:
        return None
    kind = target.entry.type
    if isinstance(target.entry, MessageItem | TurnEndItem) or kind == "agent_exited":
        return next(
            (i for i in transcript.items if isinstance(i, MessageItem) and target.text in i.text),
            None,
        )
    ordinal = sum(1 for i in conversation.items if i.entry.type == kind and i.seq < seq)
    shown = [item for item in transcript.items if item.type == kind]
    return shown[ordinal] if ordinal < len(shown) else None
