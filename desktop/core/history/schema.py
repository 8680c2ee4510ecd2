"""The history database: connection settings and versioned schema migrations.

The schema version is ``PRAGMA user_version``. ``MIGRATIONS[n]`` brings a version-``n`` database
to version ``n + 1`` inside one transaction, so a failed step leaves the previous version intact.
Only our own tables are ever created or changed: other parts of Agent Desk (the extension job
queue) keep their tables in the same file, and unknown tables are left alone.

Versions:
    1: workspaces, conversations, items.
    2: the FTS5 index ``items_fts`` over item text, kept current by triggers.
    3: only complete items are in ``items_fts``. Streamed text is written every 0.25 s while
       it grows; re-indexing all of it on each rewrite made long answers quadratic (and grew
       the writer's memory). An item is indexed once, when it is complete; search finds items
       still streaming (or cut off by a crash) with a substring scan of the few incomplete
       rows, through the partial index ``items_incomplete``.
    4: ``items.data`` holds the item's transcript entry as typed JSON
       (``desktop.core.history.items``) instead of a free-form dict per kind; every stored item
       is converted (``from_legacy``), in order, so a notice that only echoed a tool call is
       recognised as it is live.

``open_history`` is how the store and the writer open the file: a damaged, truncated or
unreadable database is moved aside (``history.sqlite3.damaged-<time>``, with its WAL) and a fresh
one started, with one sentence for the user saying where the old one is; a folder that cannot
hold the database (read-only) raises ``HistoryUnavailableError`` so callers run without history.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from desktop.core.history.items import entry_json, from_legacy
from desktop.core.paths import app_paths

log = logging.getLogger(__name__)

_V1 = """
CREATE TABLE workspaces (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL,
    opened_at REAL NOT NULL
);
CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    workspace_id INTEGER NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    title TEXT NOT NULL DEFAULT '',
    title_edited INTEGER NOT NULL DEFAULT 0,
    agent TEXT NOT NULL,
    agent_session_id TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX conversations_by_workspace ON conversations(workspace_id, updated_at DESC);
CREATE TABLE items (
    id INTEGER PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    turn_id TEXT,
    call_id TEXT,
    text TEXT NOT NULL DEFAULT '',
    data TEXT NOT NULL DEFAULT '{}',
    complete INTEGER NOT NULL DEFAULT 1,
    created_at REAL NOT NULL,
    UNIQUE (conversation_id, seq)
);
"""

_V2 = """
CREATE VIRTUAL TABLE items_fts USING fts5(
    text, content='items', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
INSERT INTO items_fts(rowid, text) SELECT id, text FROM items;
CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
    INSERT INTO items_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
    INSERT INTO items_fts(items_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER items_fts_update AFTER UPDATE OF text ON items BEGIN
    INSERT INTO items_fts(items_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO items_fts(rowid, text) VALUES (new.id, new.text);
END;
"""

_V3 = """
DROP TRIGGER items_fts_insert;
DROP TRIGGER items_fts_delete;
DROP TRIGGER items_fts_update;
INSERT INTO items_fts(items_fts, rowid, text)
    SELECT 'delete', id, text FROM items WHERE complete = 0;
CREATE INDEX items_incomplete ON items(id) WHERE complete = 0;
CREATE TRIGGER items_fts_insert AFTER INSERT ON items WHEN new.complete = 1 BEGIN
    INSERT INTO items_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER items_fts_delete AFTER DELETE ON items WHEN old.complete = 1 BEGIN
    INSERT INTO items_fts(items_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER items_fts_update AFTER UPDATE OF text, complete ON items
WHEN old.complete = 1 OR new.complete = 1 BEGIN
    INSERT INTO items_fts(items_fts, rowid, text)
        SELECT 'delete', old.id, old.text WHERE old.complete = 1;
    INSERT INTO items_fts(rowid, text) SELECT new.id, new.text WHERE new.complete = 1;
END;
"""


def _v4(conn: sqlite3.Connection) -> None:
    """Convert every stored item's ``data`` to its transcript entry."""
    rows = conn.execute(
        "SELECT id, conversation_id, seq, kind, turn_id, text, data, created_at FROM items "
        "ORDER BY conversation_id, seq"
    ).fetchall()
    tools: set[str] = set()
    conversation = None
    for row_id, conv_id, seq, kind, turn_id, text, data, created_at in rows:
        if conv_id != conversation:
            conversation, tools = conv_id, set()
        try:
            old = json.loads(data)
        except ValueError:
            old = None
        entry = from_legacy(
            kind,
            text,
            old if isinstance(old, dict) else {},
            seq=seq,
            turn_id=turn_id,
            created_at=created_at,
            tools=tools,
        )
        conn.execute("UPDATE items SET data = ? WHERE id = ?", (entry_json(entry), row_id))


#: ``MIGRATIONS[n]`` takes the database from version ``n`` to ``n + 1``: SQL, or a function for
#: a step that converts stored values.
MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (_V1, _V2, _V3, _v4)
SCHEMA_VERSION = len(MIGRATIONS)


class HistorySchemaError(Exception):
    """The database is from a newer Agent Desk or could not be migrated."""


class HistoryUnavailableError(HistorySchemaError):
    """The history cannot be kept here (a read-only data folder, say): run without it."""


#: SQLite's primary result codes for a file that is not (or no longer) a database.
_DAMAGED_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _damaged(exc: BaseException | None) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _DAMAGED_CODES


def _unreadable(path: Path) -> bool:
    """``path`` exists but cannot be opened as a file (a folder, no read permission)."""
    return path.exists() and (not path.is_file() or not os.access(path, os.R_OK))


def move_aside(path: Path) -> Path:
    """Rename a damaged database (and its WAL and shared-memory files) out of the way.

    Raises:
        OSError: the folder does not allow it.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        n += 1
    os.replace(path, target)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        with contextlib.suppress(FileNotFoundError):
            os.replace(side, target.with_name(target.name + suffix))
    return target


def open_history(
    path: Path, *, check_same_thread: bool = True
) -> tuple[sqlite3.Connection, str | None]:
    """``connect``, recovering from a damaged file; returns the connection and, when the old
    file was moved aside, one sentence for the user saying so and where it is.

    Raises:
        HistoryUnavailableError: the database cannot be opened or created here.
        HistorySchemaError: the file is from a newer version or a migration failed.
    """
    try:
        return connect(path, check_same_thread=check_same_thread), None
    except (sqlite3.Error, HistorySchemaError, OSError) as exc:
        if isinstance(exc, HistorySchemaError) and not _damaged(exc.__cause__):
            raise
        if not (_damaged(exc) or _damaged(exc.__cause__) or _unreadable(path)):
            raise _unavailable(path, exc) from exc
        reason = exc
    try:
        aside = move_aside(path)
        conn = connect(path, check_same_thread=check_same_thread)
    except (sqlite3.Error, OSError) as exc:
        raise _unavailable(path, exc) from exc
    log.info("history database %s unusable (%s); moved to %s", path, reason, aside)
    message = (
        f"The history database could not be read ({reason}); it was moved to {aside} "
        "and a new one was started."
    )
    return conn, message


def _unavailable(path: Path, exc: BaseException) -> HistoryUnavailableError:
    folder = path.parent
    if folder.is_dir() and not os.access(folder, os.W_OK):
        why = f"the data folder {folder} is read-only"
    else:
        why = f"the history database {path} cannot be opened ({exc})"
    return HistoryUnavailableError(f"{why}; conversations are not saved to the history")


def history_path() -> Path:
    """Where the history database lives (``<data>/history.sqlite3``)."""
    return app_paths().data / "history.sqlite3"


def connect(path: Path, *, check_same_thread: bool = True) -> sqlite3.Connection:
    """Open the database with our settings and migrate it to ``SCHEMA_VERSION``.

    WAL lets the window read while a recorder writes; ``synchronous=FULL`` makes each commit
    durable against power loss (commits are small and happen off the event loop).

    Raises:
        HistorySchemaError: the file is from a newer version or a migration failed.
        sqlite3.DatabaseError: the file is not a usable database.
    """
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    conn = sqlite3.connect(
        path, isolation_level=None, check_same_thread=check_same_thread, timeout=10.0
    )
    try:
        _refuse_newer(conn)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=10000")
        migrate(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _refuse_newer(conn: sqlite3.Connection) -> None:
    version = user_version(conn)
    if version > SCHEMA_VERSION:
        raise HistorySchemaError(
            f"the history database is from a newer Agent Desk (schema {version}; this one "
            f"knows {SCHEMA_VERSION})"
        )


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version stored in the database."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> None:
    """Apply every missing migration up to ``target``, each in its own transaction.

    Raises:
        HistorySchemaError: the database is newer than ``target``, or a step failed.
    """
    # BEGIN IMMEDIATE takes the write lock first, so two processes opening the same new file
    # cannot both run a migration; the version is re-read under the lock.
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            _refuse_newer(conn)
            version = user_version(conn)
            if version >= target:
                conn.execute("COMMIT")
                return
            step = MIGRATIONS[version]
            if isinstance(step, str):
                for statement in _statements(step):
                    conn.execute(statement)
            else:
                step(conn)
            conn.execute(f"PRAGMA user_version={version + 1}")
            conn.execute("COMMIT")
        except HistorySchemaError:
            conn.execute("ROLLBACK")
            raise
        except sqlite3.Error as exc:
            conn.execute("ROLLBACK")
            raise HistorySchemaError(
                f"migrating the history database from version {version} failed: {exc}"
            ) from exc


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (``executescript`` would commit implicitly)."""
    statements: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip():
        statements.append(current.strip())
    return statements
