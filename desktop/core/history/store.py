"""Reading and editing stored conversations: list, open, rename, delete/restore, search.

``HistoryStore`` methods block (each is one short SQLite transaction); from the event loop call
them through ``asyncio.to_thread``. The connection is shared between threads behind a lock.
Streaming writes go through ``HistoryWriter`` (``desktop.core.history.writer``) instead.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from desktop.core.entries import TurnEndItem
from desktop.core.history.items import (
    ITEM_COLUMNS,
    UnparsedItems,
    entry_from_row,
    entry_json,
    stored_item,
)
from desktop.core.history.models import (
    ConversationSummary,
    ItemKind,
    SearchHit,
    StoredConversation,
)
from desktop.core.history.schema import history_path, open_history

_CONVERSATION_COLUMNS = (
    "c.id, w.path, c.title, c.title_edited, c.agent, c.agent_session_id, c.created_at, c.updated_at"
)


class ConversationNotFoundError(LookupError):
    """No conversation (or more than one, for a prefix) matches."""


def fts_query(text: str) -> str:
    """Turn what a user typed into a safe FTS5 query: every word must match, the last as prefix.

    Quoting each word keeps FTS5 operators (``AND``, ``*``, ``"``, ``:``) from being parsed.
    """
    words = [w for w in re.split(r"\s+", text.strip()) if w]
    if not words:
        return ""
    quoted = ['"' + w.replace('"', '""') + '"' for w in words]
    quoted[-1] += "*"
    return " ".join(quoted)


def _substring_snippet(text: str, word: str, context: int = 60) -> str:
    """A snippet around the first occurrence of ``word`` (matched case-insensitively)."""
    at = text.lower().find(word.lower())
    if at < 0:
        return text[: 2 * context]
    start, end = max(0, at - context), at + len(word)
    snippet = text[start:at] + "[" + text[at:end] + "]" + text[end : end + context]
    return ("…" if start else "") + snippet + ("…" if end + context < len(text) else "")


def ensure_workspace(conn: sqlite3.Connection, path: str) -> int:
    """The id of the workspace row for ``path`` (created if new). Runs in the caller's txn."""
    now = time.time()
    conn.execute(
        "INSERT INTO workspaces(path, created_at, opened_at) VALUES (?, ?, ?) "
        "ON CONFLICT(path) DO UPDATE SET opened_at = excluded.opened_at",
        (path, now, now),
    )
    row = conn.execute("SELECT id FROM workspaces WHERE path = ?", (path,)).fetchone()
    return int(row[0])


def _summary(row: sqlite3.Row | tuple[Any, ...]) -> dict[str, Any]:
    return {
        "id": row[0],
        "workspace": row[1],
        "title": row[2],
        "title_edited": bool(row[3]),
        "agent": row[4],
        "agent_session_id": row[5],
        "created_at": row[6],
        "updated_at": row[7],
    }


class HistoryStore:
    """The stored conversations.

    Args:
        path: The database file (default: ``history_path()``).

    Raises:
        HistoryUnavailableError: the database cannot be opened or created (a read-only folder).
        HistorySchemaError: the file is from a newer Agent Desk.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or history_path()
        self._conn, recovered = open_history(self.path, check_same_thread=False)
        #: One sentence for the user when a damaged database was moved aside, else None.
        self.recovered = recovered
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._conn.close()

    @contextmanager
    def _txn(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    # ------------------------------------------------------------------ conversations

    def create_conversation(
        self, workspace: Path | str, agent: str, *, title: str = "", session_id: str | None = None
    ) -> str:
        """Create an empty conversation and return its id."""
        conv_id = uuid.uuid4().hex
        now = time.time()
        with self._txn() as conn:
            ws = ensure_workspace(conn, str(workspace))
            conn.execute(
                "INSERT INTO conversations(id, workspace_id, title, agent, agent_session_id, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (conv_id, ws, title, agent, session_id, now, now),
            )
        return conv_id

    def list_conversations(self, workspace: Path | str | None = None) -> list[ConversationSummary]:
        """Conversations, most recently updated first (of one workspace, or all)."""
        sql = (
            f"SELECT {_CONVERSATION_COLUMNS} FROM conversations c "
            "JOIN workspaces w ON w.id = c.workspace_id"
        )
        params: tuple[Any, ...] = ()
        if workspace is not None:
            sql += " WHERE w.path = ?"
            params = (str(workspace),)
        with self._lock:
            rows = self._conn.execute(sql + " ORDER BY c.updated_at DESC", params).fetchall()
        return [ConversationSummary(**_summary(r)) for r in rows]

    def turn_ends(self, workspace: Path | str | None = None) -> dict[str, list[TurnEndItem]]:
        """Each conversation's stored turn ends (usage and model), in order, by id."""
        sql = "SELECT i.conversation_id, i.data, i.text FROM items i"
        params: tuple[Any, ...] = ()
        if workspace is not None:
            sql += (
                " JOIN conversations c ON c.id = i.conversation_id"
                " JOIN workspaces w ON w.id = c.workspace_id WHERE w.path = ? AND"
            )
            params = (str(workspace),)
        else:
            sql += " WHERE"
        with self._lock:
            rows = self._conn.execute(
                sql + " i.kind = 'turn_end' ORDER BY i.conversation_id, i.seq", params
            ).fetchall()
        ends: dict[str, list[TurnEndItem]] = {}
        for conv_id, data, text in rows:
            entry = entry_from_row(data, text)
            if isinstance(entry, TurnEndItem):
                ends.setdefault(conv_id, []).append(entry)
        return ends

    def workspaces(self) -> list[str]:
        """Workspace folders that have conversations, most recently opened first."""
        with self._lock:
            rows = self._conn.execute("SELECT path FROM workspaces ORDER BY opened_at DESC")
            return [r[0] for r in rows.fetchall()]

    def resolve(self, id_or_prefix: str) -> str:
        """The full id of the conversation whose id starts with ``id_or_prefix``.

        Raises:
            ConversationNotFoundError: none, or more than one, matches.
        """
        pattern = id_or_prefix.replace("\\", "").replace("%", "").replace("_", "") + "%"
        with self._lock:
            rows = self._conn.execute(
                "SELECT id FROM conversations WHERE id LIKE ? LIMIT 2", (pattern,)
            ).fetchall()
        if len(rows) != 1 or not id_or_prefix:
            what = "no" if not rows else "more than one"
            raise ConversationNotFoundError(f"{what} conversation matches {id_or_prefix!r}")
        return str(rows[0][0])

    def get(self, conv_id: str, *, last: int | None = None) -> StoredConversation:
        """A conversation with all its items, or only its ``last`` ones (a long conversation
        shows its end first; ``items_before`` reads the rest).

        Raises:
            ConversationNotFoundError: there is no such conversation.
        """
        with self._lock:
            row = self._conn.execute(
                f"SELECT {_CONVERSATION_COLUMNS} FROM conversations c "
                "JOIN workspaces w ON w.id = c.workspace_id WHERE c.id = ?",
                (conv_id,),
            ).fetchone()
            if row is None:
                raise ConversationNotFoundError(f"no conversation {conv_id!r}")
            if last is None:
                rows = self._conn.execute(
                    f"SELECT {ITEM_COLUMNS} FROM items WHERE conversation_id = ? ORDER BY seq",
                    (conv_id,),
                ).fetchall()
            else:
                rows = self._conn.execute(
                    f"SELECT {ITEM_COLUMNS} FROM items WHERE conversation_id = ? "
                    "ORDER BY seq DESC LIMIT ?",
                    (conv_id, last),
                ).fetchall()
                rows.reverse()
        return StoredConversation(**_summary(row), items=[stored_item(i) for i in rows])

    def items_before(self, conv_id: str, seq: int) -> UnparsedItems:
        """The items of ``conv_id`` before sequence number ``seq``, in order, not yet parsed."""
        with self._lock:
            rows = self._conn.execute(
                f"SELECT {ITEM_COLUMNS} FROM items WHERE conversation_id = ? AND seq < ? "
                "ORDER BY seq",
                (conv_id, seq),
            ).fetchall()
        return UnparsedItems(rows)

    def rename(self, conv_id: str, title: str) -> None:
        """Give a conversation a title of the user's choosing (kept from then on).

        Raises:
            ConversationNotFoundError: there is no such conversation.
        """
        with self._txn() as conn:
            cursor = conn.execute(
                "UPDATE conversations SET title = ?, title_edited = 1 WHERE id = ?",
                (title.strip(), conv_id),
            )
            if cursor.rowcount == 0:
                raise ConversationNotFoundError(f"no conversation {conv_id!r}")

    def set_agent_session(self, conv_id: str, session_id: str | None) -> None:
        """Remember the agent's session id, so the conversation can be resumed with it."""
        with self._txn() as conn:
            conn.execute(
                "UPDATE conversations SET agent_session_id = ? WHERE id = ?", (session_id, conv_id)
            )

    def delete(self, conv_id: str) -> StoredConversation:
        """Delete a conversation and its items; returns what was deleted (for ``restore``).

        Raises:
            ConversationNotFoundError: there is no such conversation.
        """
        snapshot = self.get(conv_id)
        with self._txn() as conn:
            conn.execute("DELETE FROM conversations WHERE id = ?", (conv_id,))
        return snapshot

    def restore(self, conversation: StoredConversation) -> None:
        """Put a deleted conversation back exactly as it was (the sidebar's undo)."""
        c = conversation
        with self._txn() as conn:
            ws = ensure_workspace(conn, c.workspace)
            conn.execute(
                "INSERT INTO conversations(id, workspace_id, title, title_edited, agent, "
                "agent_session_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    c.id,
                    ws,
                    c.title,
                    int(c.title_edited),
                    c.agent,
                    c.agent_session_id,
                    c.created_at,
                    c.updated_at,
                ),
            )
            conn.executemany(
                "INSERT INTO items(conversation_id, seq, kind, turn_id, call_id, text, data, "
                "complete, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        c.id,
                        i.seq,
                        i.kind.value,
                        i.turn_id,
                        i.call_id,
                        i.text,
                        entry_json(i.entry),
                        int(i.complete),
                        i.created_at,
                    )
                    for i in c.items
                ],
            )

    def next_seq(self, conv_id: str) -> int:
        """The sequence number the next item of ``conv_id`` gets."""
        with self._lock:
            row = self._conn.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM items WHERE conversation_id = ?", (conv_id,)
            ).fetchone()
        return int(row[0])

    # ------------------------------------------------------------------ search

    def search(
        self, query: str, workspace: Path | str | None = None, *, limit: int = 50
    ) -> list[SearchHit]:
        """Full-text search over item text, best match first (one workspace, or all).

        Every word must appear; the last one may be a prefix. Each hit names the conversation and
        the item to scroll to, with a short snippet where the match is wrapped in ``[`` ``]``.
        Complete items come from the FTS index, ranked; items still streaming (or cut off by a
        crash) are not indexed yet and follow, found by a case-insensitive substring scan.
        """
        match = fts_query(query)
        if not match:
            return []
        sql = (
            "SELECT c.id, c.title, i.id, i.seq, i.kind, "
            "snippet(items_fts, 0, '[', ']', '…', 12) "
            "FROM items_fts JOIN items i ON i.id = items_fts.rowid "
            "JOIN conversations c ON c.id = i.conversation_id "
            "JOIN workspaces w ON w.id = c.workspace_id "
            "WHERE items_fts MATCH ?"
        )
        params: list[Any] = [match]
        if workspace is not None:
            sql += " AND w.path = ?"
            params.append(str(workspace))
        sql += " ORDER BY bm25(items_fts), c.updated_at DESC LIMIT ?"
        params.append(limit)
        with self._lock:
            rows = self._conn.execute(sql, params).fetchall()
            if len(rows) < limit:
                rows += self._search_incomplete(query, workspace, limit - len(rows))
        return [
            SearchHit(
                conversation_id=r[0],
                title=r[1],
                item_id=r[2],
                seq=r[3],
                kind=ItemKind(r[4]),
                snippet=r[5],
            )
            for r in rows
        ]

    def _search_incomplete(
        self, query: str, workspace: Path | str | None, limit: int
    ) -> list[tuple[Any, ...]]:
        """Incomplete items containing every word (the caller holds the lock)."""
        words = [w for w in re.split(r"\s+", query.strip()) if w]
        sql = (
            "SELECT c.id, c.title, i.id, i.seq, i.kind, i.text "
            # CROSS JOIN fixes the order: the few incomplete ids first, never a scan of items.
            "FROM (SELECT id FROM items INDEXED BY items_incomplete WHERE complete = 0) p "
            "CROSS JOIN items i ON i.id = p.id "
            "JOIN conversations c ON c.id = i.conversation_id "
            "JOIN workspaces w ON w.id = c.workspace_id WHERE 1"
        )
        params: list[Any] = []
        for word in words:
            sql += " AND i.text LIKE ? ESCAPE '\\'"
            params.append("%" + re.sub(r"([\\%_])", r"\\\1", word) + "%")
        if workspace is not None:
            sql += " AND w.path = ?"
            params.append(str(workspace))
        sql += " ORDER BY c.updated_at DESC, i.seq LIMIT ?"
        params.append(limit)
        rows = self._conn.execute(sql, params).fetchall()
        return [(*r[:5], _substring_snippet(r[5], words[0])) for r in rows]
