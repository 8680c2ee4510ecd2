"""Typed records read from the history database (also the JSON export format)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ItemKind(StrEnum):
    """Kinds of conversation items.

    ``data`` per kind: ``user`` {files}; ``assistant``/``thinking`` {}; ``tool`` {name, category,
    args, description, preview, decision{decision, source, source_name, reason}, status
    (requested|running|success|error|cancelled), output, output_type, diff, file_path, reason};
    ``error`` {code, retryable}; ``notice`` {level}; ``turn_end`` {reason, usage, message};
    ``agent_exited`` {exit_code, signal}.
    """

    USER = "user"
    ASSISTANT = "assistant"
    THINKING = "thinking"
    TOOL = "tool"
    ERROR = "error"
    NOTICE = "notice"
    TURN_END = "turn_end"
    AGENT_EXITED = "agent_exited"


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True)


class StoredItem(_Record):
    """One item of a conversation; ``complete`` is false while it is still streaming."""

    id: int
    seq: int
    kind: ItemKind
    turn_id: str | None = None
    call_id: str | None = None
    text: str = ""
    data: dict[str, Any] = Field(default_factory=dict)
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
