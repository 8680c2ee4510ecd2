"""Show a stored conversation: load its entries into the conversation model, and find one.

Stored items are transcript entries (``desktop.core.transcript``), so a reopened conversation is
loaded as it was recorded, and shown by the same view that showed it live. What only history
knows is said on top: a reply cut off by a crash gets a warning after it, and a tool call that
never finished (the app stopped while it ran) is shown as interrupted.
"""

from __future__ import annotations

from collections.abc import Iterator

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
from desktop.core.history import StoredConversation
from desktop.ui.conversation.model import TranscriptModel


def replay(transcript: TranscriptModel, conversation: StoredConversation) -> Usage:
    """Append every stored entry of ``conversation`` to ``transcript``; returns the total usage."""
    transcript.load(_shown(conversation))
    usage = Usage()
    for item in conversation.items:
        if isinstance(item.entry, TurnEndItem) and item.entry.usage is not None:
            usage = usage + item.entry.usage
    return usage


def _shown(conversation: StoredConversation) -> Iterator[Item]:
    for stored in conversation.items:
        entry = stored.entry
        if isinstance(entry, ToolItem) and entry.status not in FINAL:
            entry = entry.model_copy(
                update={"status": ToolStatus.CANCELLED, "cancel_reason": "interrupted"}
            )
        elif isinstance(entry, StreamItem) and not entry.done:
            entry = entry.model_copy(update={"done": True})
        yield entry
        if isinstance(stored.entry, StreamItem) and not stored.complete:
            yield MessageItem(
                level="warning",
                text=QCoreApplication.translate("Replay", "This reply was cut off."),
            )


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
