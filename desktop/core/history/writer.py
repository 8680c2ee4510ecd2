"""A background thread that owns the history database's write connection.

Writers on the event loop only ``submit`` small records; the thread drains whatever has queued
up, keeps the last version of each item, and commits it all in one transaction. So SQLite (and
its fsync) never runs on the event loop, a burst of updates becomes one commit, and a record is
durable a few milliseconds after it is submitted.
"""

from __future__ import annotations

import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from desktop.core.history.schema import connect, history_path
from desktop.core.history.store import ensure_workspace

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CreateConversation:
    """Insert a conversation row (ignored if it already exists)."""

    conversation_id: str
    workspace: str
    agent: str
    title: str = ""
    agent_session_id: str | None = None
    created_at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class UpdateConversation:
    """Change a conversation's automatic title, agent session id, and/or last-update time."""

    conversation_id: str
    title: str | None = None
    agent_session_id: str | None = None
    updated_at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class ItemWrite:
    """The full current state of one item (inserted or replaced by ``(conversation, seq)``)."""

    conversation_id: str
    seq: int
    kind: str
    text: str
    data: str
    complete: bool
    created_at: float
    turn_id: str | None = None
    call_id: str | None = None
    #: Applied to ``text`` and ``data`` in the writer thread, once per commit: redacting a long
    #: streamed answer on every flush would stall the event loop (and the window).
    redact: Callable[[str], str] | None = None


Write = CreateConversation | UpdateConversation | ItemWrite


@dataclass(frozen=True)
class _Flush:
    done: threading.Event


_STOP = object()


class HistoryWriter:
    """Commits ``Write`` records from any thread, in submission order, off the event loop.

    Args:
        path: The database file (default: ``history_path()``).
        on_commit: Called in the writer thread with each committed batch (tests, metrics).
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        on_commit: Callable[[list[Write]], None] | None = None,
    ) -> None:
        self.path = path or history_path()
        self.last_error: str | None = None
        self._on_commit = on_commit
        self._queue: queue.SimpleQueue[Write | _Flush | object] = queue.SimpleQueue()
        # Open (and migrate) here so a broken database is reported to the caller, not the log.
        connect(self.path).close()
        self._thread = threading.Thread(target=self._run, name="history-writer", daemon=True)
        self._thread.start()

    def submit(self, write: Write) -> None:
        """Queue a record; it is committed within milliseconds."""
        self._queue.put(write)

    def flush(self, timeout: float = 10.0) -> bool:
        """Block until everything submitted so far is committed; False on timeout."""
        done = threading.Event()
        self._queue.put(_Flush(done))
        return done.wait(timeout)

    def close(self, timeout: float = 10.0) -> None:
        """Commit what is queued and stop the thread."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join(timeout)

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        conn = connect(self.path)
        try:
            stop = False
            while not stop:
                batch: list[Write | _Flush | object] = [self._queue.get()]
                while True:
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                stop = _STOP in batch
                writes = [w for w in batch if isinstance(w, Write)]
                self._commit_with_retry(conn, writes)
                for item in batch:
                    if isinstance(item, _Flush):
                        item.done.set()
        finally:
            conn.close()

    def _commit_with_retry(self, conn: sqlite3.Connection, writes: list[Write]) -> None:
        if not writes:
            return
        for attempt in range(5):
            try:
                _commit(conn, writes)
            except sqlite3.Error as exc:
                self.last_error = f"saving the conversation failed: {exc}"
                log.warning("history write failed (attempt %d): %s", attempt + 1, exc)
                time.sleep(0.2 * (attempt + 1))
                continue
            self.last_error = None
            if self._on_commit is not None:
                self._on_commit(writes)
            return
        log.error("history: giving up on %d records: %s", len(writes), self.last_error)


def _coalesce(writes: list[Write]) -> list[Write]:
    """Keep only the last state of each item; everything else stays in order."""
    last: dict[tuple[str, int], int] = {}
    for index, write in enumerate(writes):
        if isinstance(write, ItemWrite):
            last[(write.conversation_id, write.seq)] = index
    return [
        w
        for i, w in enumerate(writes)
        if not isinstance(w, ItemWrite) or last[(w.conversation_id, w.seq)] == i
    ]


def _commit(conn: sqlite3.Connection, writes: list[Write]) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        for write in _coalesce(writes):
            _apply(conn, write)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _apply(conn: sqlite3.Connection, write: Write) -> None:
    if isinstance(write, ItemWrite):
        conn.execute(
            "INSERT INTO items(conversation_id, seq, kind, turn_id, call_id, text, data, "
            "complete, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(conversation_id, seq) DO UPDATE SET text = excluded.text, "
            "data = excluded.data, complete = excluded.complete",
            (
                write.conversation_id,
                write.seq,
                write.kind,
                write.turn_id,
                write.call_id,
                write.redact(write.text) if write.redact else write.text,
                write.redact(write.data) if write.redact else write.data,
                int(write.complete),
                write.created_at,
            ),
        )
    elif isinstance(write, UpdateConversation):
        conn.execute(
            "UPDATE conversations SET "
            "title = CASE WHEN ? IS NOT NULL AND title_edited = 0 THEN ? ELSE title END, "
            "agent_session_id = COALESCE(?, agent_session_id), updated_at = ? WHERE id = ?",
            (
                write.title,
                write.title,
                write.agent_session_id,
                write.updated_at,
                write.conversation_id,
            ),
        )
    else:
        workspace_id = ensure_workspace(conn, write.workspace)
        conn.execute(
            "INSERT OR IGNORE INTO conversations(id, workspace_id, title, agent, "
            "agent_session_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                write.conversation_id,
                workspace_id,
                write.title,
                write.agent,
                write.agent_session_id,
                write.created_at,
                write.created_at,
            ),
        )


def dumps(data: object) -> str:
    """JSON for the ``data`` column (compact; non-ASCII kept readable)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
