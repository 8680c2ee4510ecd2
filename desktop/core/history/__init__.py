"""Conversation history: a SQLite database of workspaces, conversations and their items.

- ``HistoryStore``: list, open, rename, delete/restore, full-text search (blocking; use
  ``asyncio.to_thread`` from the event loop).
- ``HistoryWriter`` + ``HistoryRecorder``: record a live ``Session`` while it streams;
  ``HistoryRecording``: a conversation's recording collaborator (window and ``exec``).
- ``to_markdown``/``to_json``: export; ``plan_resume``/``build_resume_summary``: reopen.
"""

from desktop.core.history.export import to_json, to_markdown
from desktop.core.history.models import (
    ConversationSummary,
    ItemKind,
    SearchHit,
    StoredConversation,
    StoredItem,
)
from desktop.core.history.recorder import HistoryRecorder
from desktop.core.history.recording import HistoryRecording
from desktop.core.history.resume import (
    ResumePlan,
    apply_history,
    build_resume_summary,
    plan_resume,
)
from desktop.core.history.schema import (
    SCHEMA_VERSION,
    HistorySchemaError,
    HistoryUnavailableError,
    history_path,
)
from desktop.core.history.store import ConversationNotFoundError, HistoryStore
from desktop.core.history.writer import HistoryWriter, WriterStatus

__all__ = [
    "SCHEMA_VERSION",
    "ConversationNotFoundError",
    "ConversationSummary",
    "HistoryRecorder",
    "HistoryRecording",
    "HistorySchemaError",
    "HistoryStore",
    "HistoryUnavailableError",
    "HistoryWriter",
    "ItemKind",
    "ResumePlan",
    "SearchHit",
    "StoredConversation",
    "StoredItem",
    "WriterStatus",
    "apply_history",
    "build_resume_summary",
    "history_path",
    "plan_resume",
    "to_json",
    "to_markdown",
]
