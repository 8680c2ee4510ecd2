"""``agentdesk PATH --conversation ID``: a window opened on a stored conversation.

``stored_workspace`` runs before the window exists: it finds the conversation (its id, or a
unique prefix, as ``agentdesk history list`` prints it) and checks that it belongs to PATH, so an
unknown id or another workspace's conversation is one clear line on stderr, not an empty window.
Without PATH the window opens on the conversation's own workspace. ``open_in`` then shows it
through the window's history, exactly as a click on its sidebar row does (the agent continues
it with the first prompt), with the keyboard in its composer.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from desktop.ui.pane import ConversationPane
    from desktop.ui.window import WorkspaceWindow


log = logging.getLogger(__name__)


class StoredConversationError(Exception):
    """The conversation cannot be opened in this window; the message says why, for the user."""


def stored_workspace(reference: str, path: Path | None) -> tuple[str, Path]:
    """The full id of the conversation ``reference`` and the workspace it belongs to.

    Raises:
        StoredConversationError: no such conversation (or the prefix is ambiguous), or it
            belongs to another workspace than ``path``, or the history cannot be read.
    """
    import sqlite3

    from desktop.core.history.schema import HistorySchemaError
    from desktop.core.history.store import ConversationNotFoundError, HistoryStore

    try:
        store = HistoryStore()
    except (HistorySchemaError, sqlite3.Error) as exc:
        raise StoredConversationError(f"the history cannot be read: {exc}") from exc
    try:
        conv_id = store.resolve(reference)
        summary = next(c for c in store.list_conversations() if c.id == conv_id)
    except (ConversationNotFoundError, StopIteration):
        raise StoredConversationError(
            f"no stored conversation {reference!r} (agentdesk history list shows them)"
        ) from None
    finally:
        store.close()
    home = Path(summary.workspace)
    if path is not None and path.expanduser().resolve() != home.resolve():
        raise StoredConversationError(
            f"conversation {reference!r} belongs to the workspace {home}, not {path}"
        )
    return conv_id, home


async def open_in(window: WorkspaceWindow, conv_id: str) -> ConversationPane | None:
    """Show the stored conversation ``conv_id`` in ``window`` (None: it is gone).

    Raises:
        HistoryClosedError: the history database cannot be opened.
    """
    from desktop.ui.sidebar.entries import Entry

    engine = window.history.start()
    await engine.service.ready()  # the history database opens with the window's first step
    entry = next((e for e in engine.entries if e.conversation_id == conv_id), None)
    if entry is None:  # the list is still loading: the reload keeps this entry (same id)
        entry = Entry(conv_id, "", "", 0.0)
        engine.entries.insert(0, entry)
    pane = await engine.open_stored(entry)
    log.info("opened the stored conversation %s: %s", conv_id, "shown" if pane else "gone")
    if pane is not None:
        pane.composer.editor.setFocus()  # asked for to be continued: typing goes to its prompt
    return pane
