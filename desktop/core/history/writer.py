"""A background thread that owns the history database's write connection.

Writers on the event loop only ``submit`` small records; the thread drains whatever has queued
up, keeps the last version of each item, and commits it all in one transaction. So SQLite (and
its fsync) never runs on the event loop, a burst of updates becomes one commit, and a record is
durable a few milliseconds after it is submitted.

A write that fails (a full disk, a locked or damaged file) loses nothing: the records stay queued
(coalesced, bounded by ``MAX_PENDING``) and are retried until they are written, and listeners
(``add_listener``) are told when writing fails and when it works again, so the user sees it.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from desktop.core.history.schema import connect, history_path, open_history
from desktop.core.history.store import ensure_workspace
from desktop.core.history.titles import distinct_title

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
    """Change a conversation's automatic title, agent session id, and/or last-update time.

    An automatic title is numbered if another conversation of the workspace has it already.
    """

    conversation_id: str
    title: str | None = None
    agent_session_id: str | None = None
    updated_at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class ItemWrite:
    """The full current state of one item (inserted or replaced by ``(conversation, seq)``),
    or with ``append`` its text so far and more text for it: a streamed answer is written a piece
    at a time, not rewritten whole while it grows (``HistoryRecorder``)."""

    conversation_id: str
    seq: int
    kind: str
    text: str
    data: str
    complete: bool
    created_at: float
    turn_id: str | None = None
    call_id: str | None = None
    #: Applied to ``text`` and ``data`` in the writer thread, once per commit (a long tool
    #: output redacted on the event loop would stall the window). An appended piece comes
    #: redacted: a secret split across two pieces is only seen by ``StreamRedaction``.
    redact: Callable[[str], str] | None = None
    #: ``text`` is more text for the item (added to what is stored), not all of it.
    append: bool = False

    def redacted(self) -> tuple[str, str]:
        """``text`` and ``data`` as they are stored."""
        if self.redact is None:
            return self.text, self.data
        return self.redact(self.text), self.redact(self.data)


Write = CreateConversation | UpdateConversation | ItemWrite


@dataclass(frozen=True)
class _Flush:
    done: threading.Event


_STOP = object()

#: Records kept while writing fails; beyond this the oldest item states are dropped (counted).
MAX_PENDING = 20_000
#: Longest wait between two attempts while writing fails.
MAX_RETRY_DELAY = 2.0


@dataclass(frozen=True)
class WriterStatus:
    """Whether the history is being written: ``error`` says why not, ``unsaved`` how many
    records wait to be retried, ``dropped`` how many were given up (the queue bound)."""

    error: str | None = None
    unsaved: int = 0
    dropped: int = 0

    @property
    def ok(self) -> bool:
        """Everything submitted so far is written."""
        return self.error is None and self.dropped == 0


StatusListener = Callable[[WriterStatus], None]


class HistoryWriter:
    """Commits ``Write`` records from any thread, in submission order, off the event loop.

    Args:
        path: The database file (default: ``history_path()``).
        on_commit: Called in the writer thread with each committed batch (tests, metrics).

    Raises:
        HistoryUnavailableError: the database cannot be opened or created (a read-only folder).
        HistorySchemaError: the file is from a newer Agent Desk.
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        on_commit: Callable[[list[Write]], None] | None = None,
    ) -> None:
        self.path = path or history_path()
        self.last_error: str | None = None
        #: The last reported status (written by the writer thread).
        self.status = WriterStatus()
        self._listeners: list[StatusListener] = []
        self._listeners_lock = threading.Lock()
        self._on_commit = on_commit
        self._queue: queue.SimpleQueue[Write | _Flush | object] = queue.SimpleQueue()
        # Open (and migrate, or move a damaged file aside) here so the caller hears of it.
        conn, recovered = open_history(self.path)
        conn.close()
        #: One sentence for the user when a damaged database was moved aside, else None.
        self.recovered = recovered
        self._thread = threading.Thread(target=self._run, name="history-writer", daemon=True)
        self._thread.start()

    def submit(self, write: Write) -> None:
        """Queue a record; it is committed within milliseconds."""
        self._queue.put(write)

    def add_listener(self, listener: StatusListener) -> Callable[[], None]:
        """Be told (in the writer thread) when writing starts failing, changes its reason, or
        works again; returns a function that removes the listener."""
        with self._listeners_lock:
            self._listeners.append(listener)

        def remove() -> None:
            with self._listeners_lock, contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return remove

    def flush(self, timeout: float = 10.0) -> bool:
        """Block until everything submitted so far was tried once (``status`` says whether it
        was written); False on timeout."""
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
        pending: list[Write] = []
        dropped = 0
        delay = 0.1
        try:
            stop = False
            while not stop:
                batch: list[Write | _Flush | object] = []
                with contextlib.suppress(queue.Empty):  # Empty: time to retry what is pending
                    batch.append(self._queue.get(timeout=delay if pending else None))
                while True:
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                stop = _STOP in batch
                pending = _coalesce([*pending, *(w for w in batch if isinstance(w, Write))])
                if len(pending) > MAX_PENDING:
                    pending, lost = _bound(pending)
                    dropped += lost
                if pending:
                    error = self._try_commit(conn, pending)
                    if error is None:
                        pending, delay = [], 0.1
                    else:
                        delay = min(delay * 2, MAX_RETRY_DELAY)
                    self._report(WriterStatus(error, len(pending), dropped))
                for item in batch:
                    if isinstance(item, _Flush):
                        item.done.set()
            if pending:
                log.error("history: %d records not saved: %s", len(pending), self.last_error)
        finally:
            conn.close()

    def _try_commit(self, conn: sqlite3.Connection, writes: list[Write]) -> str | None:
        """Commit ``writes``; the error in words when it failed."""
        try:
            _commit(conn, writes)
        except sqlite3.Error as exc:
            self.last_error = f"saving the conversation failed: {exc}"
            log.warning("history write failed (%d records kept): %s", len(writes), exc)
            return str(exc)
        self.last_error = None
        if self._on_commit is not None:
            self._on_commit(writes)
        return None

    def _report(self, status: WriterStatus) -> None:
        """Tell the listeners when the status changed (not on every retry)."""
        previous, self.status = self.status, status
        if (status.error, status.dropped) == (previous.error, previous.dropped):
            return
        with self._listeners_lock:
            listeners = tuple(self._listeners)
        for listener in listeners:
            try:
                listener(status)
            except Exception:
                log.exception("a history status listener failed")


def _bound(writes: list[Write]) -> tuple[list[Write], int]:
    """Drop the oldest item states beyond ``MAX_PENDING`` (conversation rows are kept)."""
    excess = len(writes) - MAX_PENDING
    kept: list[Write] = []
    for write in writes:
        if excess > 0 and isinstance(write, ItemWrite):
            excess -= 1
            continue
        kept.append(write)
    return kept, len(writes) - len(kept)


def _coalesce(writes: list[Write]) -> list[Write]:
    """One record per item (its last full state, and the text appended after it joined onto
    it) and the last bare "updated now" of each conversation, each where its last record was;
    everything else stays in order."""
    kept: list[Write | None] = []
    at: dict[tuple[str, int], int] = {}
    for write in writes:
        if isinstance(write, ItemWrite) or _bare(write):
            key = (write.conversation_id, write.seq if isinstance(write, ItemWrite) else -1)
            index = at.get(key)
            if index is not None:
                earlier, kept[index] = kept[index], None
                if isinstance(write, ItemWrite) and write.append:
                    assert isinstance(earlier, ItemWrite)
                    write = _joined(earlier, write)
            at[key] = len(kept)
        kept.append(write)
    return [write for write in kept if write is not None]


def _joined(earlier: ItemWrite, more: ItemWrite) -> ItemWrite:
    """``earlier`` followed by the appended ``more`` (whose text and data come redacted)."""
    text, _ = earlier.redacted()
    return replace(more, text=text + more.text, append=earlier.append, redact=None)


def _bare(write: Write) -> bool:
    return (
        isinstance(write, UpdateConversation)
        and write.title is None
        and write.agent_session_id is None
    )


def _commit(conn: sqlite3.Connection, writes: list[Write]) -> None:
    conn.execute("BEGIN IMMEDIATE")
    try:
        for write in _coalesce(writes):
            _apply(conn, write)
        conn.execute("COMMIT")
    except BaseException:
        # SQLite may already have rolled back (a full disk does): ROLLBACK would then fail with
        # "no transaction is active" and hide the real error.
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise


#: An item's row written: its whole state, or with more text appended (``ItemWrite.append``).
_WRITE_ITEM = (
    "INSERT INTO items(conversation_id, seq, kind, turn_id, call_id, text, data, complete, "
    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(conversation_id, seq) DO UPDATE "
    "SET text = {text}, data = excluded.data, complete = excluded.complete"
)
_REPLACE_ITEM = _WRITE_ITEM.format(text="excluded.text")
_APPEND_ITEM = _WRITE_ITEM.format(text="items.text || excluded.text")


def _apply(conn: sqlite3.Connection, write: Write) -> None:
    if isinstance(write, ItemWrite):
        text, data = write.redacted()
        conn.execute(
            _APPEND_ITEM if write.append else _REPLACE_ITEM,
            (
                write.conversation_id,
                write.seq,
                write.kind,
                write.turn_id,
                write.call_id,
                text,
                data,
                int(write.complete),
                write.created_at,
            ),
        )
    elif isinstance(write, UpdateConversation):
        title = None if write.title is None else _distinct(conn, write.conversation_id, write.title)
        conn.execute(
            "UPDATE conversations SET "
            "title = CASE WHEN ? IS NOT NULL AND title_edited = 0 THEN ? ELSE title END, "
            "agent_session_id = COALESCE(?, agent_session_id), updated_at = ? WHERE id = ?",
            (
                title,
                title,
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


def _distinct(conn: sqlite3.Connection, conversation_id: str, title: str) -> str:
    """``title`` numbered if another conversation of the same workspace already has it."""
    rows = conn.execute(
        "SELECT title FROM conversations WHERE id != ? AND workspace_id = "
        "(SELECT workspace_id FROM conversations WHERE id = ?)",
        (conversation_id, conversation_id),
    ).fetchall()
    return distinct_title(title, (row[0] for row in rows))
