"""History database: pragmas, and schema migrations from every earlier version."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from desktop.core.entries import (
    ExitItem,
    MessageItem,
    StreamItem,
    ToolItem,
    ToolStatus,
    TurnEndItem,
    UserItem,
)
from desktop.core.events import TurnEndReason
from desktop.core.history import SCHEMA_VERSION, HistorySchemaError, HistoryStore, history_path
from desktop.core.history.schema import MIGRATIONS, connect, user_version

FIXTURES = Path(__file__).parent / "fixtures"


def load_fixture(path: Path, name: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.executescript((FIXTURES / name).read_text())
    conn.close()


def test_fresh_database_pragmas(agentdesk_home: Path) -> None:
    assert history_path() == agentdesk_home / "data" / "history.sqlite3"
    conn = connect(history_path())
    assert user_version(conn) == SCHEMA_VERSION == len(MIGRATIONS)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO items(conversation_id, seq, kind, created_at) "
            "VALUES ('missing', 0, 'user', 0)"
        )
    conn.close()


def test_every_earlier_version_is_covered() -> None:
    # version 0 is an empty file (tested below); each later one needs a fixture
    fixtures = {int(p.stem.split("_v")[1]) for p in FIXTURES.glob("history_v*.sql")}
    assert fixtures == set(range(1, SCHEMA_VERSION))


def test_migrates_from_version_0_an_empty_file() -> None:
    path = history_path()
    path.parent.mkdir(parents=True)
    path.touch()
    store = HistoryStore()
    assert store.list_conversations() == []
    store.close()
    assert user_version(sqlite3.connect(path)) == SCHEMA_VERSION


def test_migrates_from_version_1_and_keeps_data_and_unknown_tables() -> None:
    path = history_path()
    load_fixture(path, "history_v1.sql")
    store = HistoryStore()
    conv = store.get("c0ffee00aa")
    assert (conv.title, conv.agent_session_id, len(conv.items)) == ("Port the parser", "sess-42", 2)
    hits = store.search("tokeniz", "/srv/old-project")
    assert [(h.conversation_id, h.seq) for h in hits] == [("c0ffee00aa", 0), ("c0ffee00aa", 1)]
    store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT payload FROM extension_jobs").fetchall() == [("keep me",)]
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_failed_migration_rolls_back_to_the_previous_version() -> None:
    path = history_path()
    load_fixture(path, "history_v1.sql")
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE items_fts (x)")  # makes the v2 step fail half-way
    conn.commit()
    conn.close()
    with pytest.raises(HistorySchemaError, match="from version 1"):
        connect(path)
    conn = sqlite3.connect(path)
    assert user_version(conn) == 1
    assert conn.execute("SELECT count(*) FROM items").fetchone()[0] == 2
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    assert names == set()


def test_newer_database_is_refused_untouched() -> None:
    path = history_path()
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(HistorySchemaError, match="newer"):
        HistoryStore()
    assert path.read_bytes() == before


def test_extension_table_created_by_another_connection_survives() -> None:
    store = HistoryStore()
    other = sqlite3.connect(store.path)
    other.execute("CREATE TABLE IF NOT EXISTS ext_queue (id INTEGER PRIMARY KEY)")
    other.execute("INSERT INTO ext_queue VALUES (1)")
    other.commit()
    other.close()
    store.close()
    reopened = connect(history_path())
    assert reopened.execute("SELECT id FROM ext_queue").fetchall() == [(1,)]


def fts_rowids(conn: sqlite3.Connection, word: str) -> list[int]:
    return [
        r[0] for r in conn.execute("SELECT rowid FROM items_fts WHERE items_fts MATCH ?", (word,))
    ]


def test_migrates_from_version_2_and_unindexes_incomplete_items() -> None:
    path = history_path()
    load_fixture(path, "history_v2.sql")
    store = HistoryStore()
    conv = store.get("d00dfeed01")
    assert [(i.seq, i.complete) for i in conv.items] == [(0, True), (1, True), (2, False)]
    assert [h.seq for h in store.search("lexer", "/srv/streaming")] == [0, 1]
    # the item a crash cut off is no longer in the index, but search still finds it
    [hit] = store.search("scanner tok", "/srv/streaming")
    assert (hit.seq, hit.snippet) == (2, "Then the [scanner] groups them into tokens, and the")
    store.close()
    conn = sqlite3.connect(path)
    assert user_version(conn) == SCHEMA_VERSION
    assert fts_rowids(conn, "scanner") == [] and fts_rowids(conn, "runes") == [2]
    conn.execute("INSERT INTO items_fts(items_fts) VALUES ('integrity-check')")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT payload FROM extension_jobs").fetchall() == [("keep me",)]


def test_only_complete_items_are_indexed_and_rewrites_of_streaming_text_are_not() -> None:
    store = HistoryStore()
    conv = store.create_conversation("/w", "fake")
    store.close()
    conn = connect(history_path())

    def write(seq: int, text: str, complete: bool) -> None:
        conn.execute(
            "INSERT INTO items(conversation_id, seq, kind, text, complete, created_at) "
            "VALUES (?, ?, 'assistant', ?, ?, 0) ON CONFLICT(conversation_id, seq) DO UPDATE "
            "SET text = excluded.text, complete = excluded.complete",
            (conv, seq, text, int(complete)),
        )

    def index_size() -> int:
        return int(conn.execute("SELECT count(*) FROM items_fts_data").fetchone()[0])

    empty = index_size()
    for n in range(1, 50):  # streaming: the text grows, the index does not change at all
        write(0, "alpha " * n, complete=False)
    assert index_size() == empty and fts_rowids(conn, "alpha") == []
    write(0, "alpha " * 50 + "omega", complete=True)
    [row] = conn.execute("SELECT id FROM items WHERE seq = 0").fetchall()
    assert fts_rowids(conn, "omega") == [row[0]] == fts_rowids(conn, "alpha")
    write(0, "rewritten", complete=True)  # a complete item edited later is re-indexed
    assert fts_rowids(conn, "omega") == [] and fts_rowids(conn, "rewritten") == [row[0]]
    conn.execute("DELETE FROM items")
    assert fts_rowids(conn, "rewritten") == []
    conn.execute("INSERT INTO items_fts(items_fts, rank) VALUES ('integrity-check', 1)")
    conn.close()


def test_migrates_from_version_3_and_stores_transcript_entries() -> None:
    path = history_path()
    load_fixture(path, "history_v3.sql")
    store = HistoryStore()
    items = store.get("feedc0de03").items
    entries = [i.entry for i in items]
    assert [e.type for e in entries] == [
        "user", "thinking", "notice", "tool", "notice", "assistant", "turn_end", "user", "tool",
        "notice", "error", "turn_end", "agent_exited", "user", "tool", "assistant", "notice",
    ]  # fmt: skip
    user, thinking, echo, bash, done, answer, end = entries[:7]
    assert isinstance(user, UserItem) and user.files == ["Makefile"] and user.turn_id == "t1"
    assert isinstance(thinking, StreamItem) and thinking.thinking
    assert thinking.text == "Look at the Makefile first."
    assert isinstance(echo, MessageItem) and echo.echo and echo.text == "Tool call: Bash"
    assert isinstance(bash, ToolItem) and bash.status == ToolStatus.SUCCEEDED
    assert bash.request.args == {"command": "make clean"} and bash.request.preview is not None
    assert bash.decision is not None and bash.decision.source == "user"
    assert bash.decided_at == 1720000010.5
    assert bash.result is not None and bash.result.output == "ran make clean"
    assert isinstance(done, MessageItem) and done.echo  # "[Bash success] …" after a Bash call
    assert isinstance(answer, StreamItem) and answer.text == "# Done\n\nThe build is tidy."
    assert isinstance(end, TurnEndItem) and end.usage is not None and end.usage.input_tokens == 30
    denied, compacted, error, failed, exited = entries[8:13]
    assert isinstance(denied, ToolItem) and denied.status == ToolStatus.DENIED
    assert denied.cancel_reason == "denied by the user"
    assert denied.decided_at == 1720000101  # recorded without a time: the request's
    assert isinstance(compacted, MessageItem) and not compacted.echo
    assert compacted.level == "warning"
    assert isinstance(error, MessageItem) and (error.code, error.retryable) == (
        "provider_error",
        True,
    )
    assert isinstance(failed, TurnEndItem) and failed.reason == TurnEndReason.ERROR
    assert isinstance(exited, ExitItem) and exited.exit_code == 3
    unfinished, cut, garbled = entries[14:]
    assert isinstance(unfinished, ToolItem) and unfinished.status == ToolStatus.APPROVED
    assert isinstance(cut, StreamItem) and cut.text == "The Makefile has three targ"
    assert not items[15].complete
    assert isinstance(garbled, MessageItem) and garbled.text == "garbled"
    assert [h.seq for h in store.search("tidy", "/srv/legacy")] == [0, 5]
    [hit] = store.search("three targ", "/srv/legacy")  # incomplete: found by the substring scan
    assert hit.seq == 15
    store.close()
    conn = sqlite3.connect(path)
    assert user_version(conn) == SCHEMA_VERSION
    conn.execute("INSERT INTO items_fts(items_fts) VALUES ('integrity-check')")
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT payload FROM extension_jobs").fetchall() == [("keep me",)]
