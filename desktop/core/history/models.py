"""Typed records read from the history database (also the JSON export format)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from desktop.core.entries import Item


class ItemKind(StrEnum):
    """Kinds of conversation items: the ``type`` of the transcript entry each one stores."""

    USER = "user"
    ASSISTANT = "assistant"
    THINKING = "thinking"
    TOOL = "tool"
    ERROR = "error"
    NOTICE = "notice"
    TURN_END = "turn_end"
    PLAN = "plan"
    AGENT_EXITED = "agent_exited"


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True)


class StoredItem(_Record):
    """One item of a conversation: its transcript entry; ``text`` is what search sees of it,
    ``complete`` is false while it is still streaming."""

    id: int
    seq: int
    kind: ItemKind
    turn_id: str | None = None
    call_id: str | None = None
    text: str = ""
    entry: Item
    complete: bool = True
    created_at: float


class ConversationSummary(_Record):
    """A conversation without its items (for lists)."""

    id: str
    workspace: str
    title: str
    title_edited: bool = False
    agent: str
    agent_session_id: str | None = None
    created_at: float
    updated_at: float


class StoredConversation(ConversationSummary):
    """A conversation with every stored item, in order."""

    items: list[StoredItem] = Field(default_factory=list)


class SearchHit(_Record):
    """A full-text match: open ``conversation_id`` and scroll to item ``seq``."""

    conversation_id: str
    title: str
    item_id: int
    seq: int
    kind: ItemKind
    snippet: str
