"""History store: titles, rename, delete and undo, full-text search, export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop.core.entries import ToolItem, ToolStatus, TurnEndItem, UserItem
from desktop.core.events import (
    Decision,
    DecisionSource,
    TextDelta,
    ToolCategory,
    ToolDecided,
    ToolFinished,
    ToolRequested,
    TurnEnded,
    TurnEndReason,
    TurnStarted,
    Usage,
)
from desktop.core.history import (
    ConversationNotFoundError,
    HistoryRecorder,
    HistoryStore,
    HistoryWriter,
    ItemKind,
    to_json,
    to_markdown,
)
from desktop.core.history.store import fts_query
from desktop.core.history.titles import title_from_prompt


def record(writer: HistoryWriter, workspace: str, prompt: str, reply: str) -> str:
    recorder = HistoryRecorder.start(writer, workspace, "builtin")
    recorder.on_event(TurnStarted(turn_id="t1", prompt=prompt, files=["a.py"]))
    recorder.on_event(TextDelta(turn_id="t1", text=reply))
    recorder.on_event(
        ToolRequested(
            turn_id="t1",
            call_id="c1",
            name="Bash",
            category=ToolCategory.EXEC,
            args={"command": "make test"},
        )
    )
    recorder.on_event(
        ToolDecided(turn_id="t1", call_id="c1", decision=Decision.ONCE, source=DecisionSource.USER)
    )
    recorder.on_event(
        ToolFinished(
            turn_id="t1",
            call_id="c1",
            name="Bash",
            status="success",
            output="42 passed",
            diff="--- a\n+++ b\n",
        )
    )
    recorder.on_event(
        TurnEnded(
            turn_id="t1",
            reason=TurnEndReason.COMPLETED,
            usage=Usage(input_tokens=10, output_tokens=20),
        )
    )
    assert writer.flush()
    return recorder.conversation_id


@pytest.fixture
def stores() -> tuple[HistoryStore, HistoryWriter]:
    writer = HistoryWriter()
    store = HistoryStore()
    yield store, writer
    writer.close()
    store.close()


def test_title_from_first_prompt_and_rename(stores: tuple[HistoryStore, HistoryWriter]) -> None:
    store, writer = stores
    conv_id = record(writer, "/w1", "\n  Fix   the flaky test\nin CI please", "Done.")
    assert store.get(conv_id).title == "Fix the flaky test"
    store.rename(conv_id, "CI flake")
    recorder = HistoryRecorder(writer, conv_id, next_seq=store.next_seq(conv_id))
    recorder.on_event(TurnStarted(turn_id="t2", prompt="another"))
    writer.flush()
    conv = store.get(conv_id)
    assert (conv.title, conv.title_edited) == ("CI flake", True)
    assert [i.seq for i in conv.items] == list(range(5))
    assert title_from_prompt("x" * 200).endswith("…") and len(title_from_prompt("x" * 200)) == 80
    with pytest.raises(ConversationNotFoundError):
        store.rename("nope", "x")


def test_items_are_stored_with_their_data(stores: tuple[HistoryStore, HistoryWriter]) -> None:
    store, writer = stores
    conv = store.get(record(writer, "/w1", "run the tests", "Running them."))
    assert [i.kind for i in conv.items] == [
        ItemKind.USER,
        ItemKind.ASSISTANT,
        ItemKind.TOOL,
        ItemKind.TURN_END,
    ]
    assert all(i.complete for i in conv.items)
    user, tool, end = conv.items[0].entry, conv.items[2].entry, conv.items[3].entry
    assert isinstance(user, UserItem) and isinstance(tool, ToolItem)
    assert isinstance(end, TurnEndItem) and end.usage is not None
    assert tool.result is not None and tool.decision is not None
    assert user.files == ["a.py"]
    request, result = tool.request, tool.result
    assert (request.name, request.args, tool.status, result.output, result.diff) == (
        "Bash",
        {"command": "make test"},
        ToolStatus.SUCCEEDED,
        "42 passed",
        "--- a\n+++ b\n",
    )
    assert tool.decision.decision == "once" and tool.decision.source == "user"
    assert end.usage.output_tokens == 20


def test_delete_and_restore(stores: tuple[HistoryStore, HistoryWriter]) -> None:
    store, writer = stores
    keep = record(writer, "/w1", "keep me", "ok")
    gone = record(writer, "/w1", "delete me", "ok")
    snapshot = store.delete(gone)
    assert [c.id for c in store.list_conversations("/w1")] == [keep]
    assert store.search("delete") == []
    store.restore(snapshot)
    assert store.get(gone) == snapshot
    assert [h.conversation_id for h in store.search("delete")] == [gone]


def test_search_is_scoped_to_the_workspace_and_points_at_the_item(
    stores: tuple[HistoryStore, HistoryWriter],
) -> None:
    store, writer = stores
    a = record(writer, "/w1", "explain the tokenizer", "The tokenizer splits words.")
    b = record(writer, "/w2", "tokenizer bug", "Fixed.")
    hits = store.search("tokenizer", "/w1")
    assert {(h.conversation_id, h.seq, h.kind) for h in hits} == {
        (a, 0, ItemKind.USER),
        (a, 1, ItemKind.ASSISTANT),
    }
    assert {h.conversation_id for h in store.search("tokenizer")} == {a, b}
    assert "[tokenizer]" in hits[0].snippet
    assert [h.seq for h in store.search("42 passed", "/w2")] == [2]  # tool output is searchable
    assert store.search("tokeni", "/w2")[0].conversation_id == b  # prefix of the last word
    for nasty in ['"', "AND", "a:b", "*", "NEAR(", "'; DROP TABLE items; --", ""]:
        store.search(nasty)  # never an FTS syntax error
    assert fts_query('say "hi"') == '"say" """hi"""*'


def test_export_markdown_and_json(stores: tuple[HistoryStore, HistoryWriter]) -> None:
    store, writer = stores
    conv = store.get(record(writer, "/w1", "run the tests", "Running ```them```."))
    md = to_markdown(conv)
    assert md.startswith("# run the tests\n")
    assert "## You\n\nrun the tests\n\nAttached: `a.py`" in md
    assert "Running ```them```." in md
    assert "**Tool `Bash`** — success" in md and "````\n42 passed\n````" not in md
    assert "```diff\n--- a\n+++ b\n```" in md
    assert "*10 in / 20 out*" in md
    doc = json.loads(to_json(conv))
    assert doc["format"] == 2 and doc["id"] == conv.id
    assert [i["kind"] for i in doc["items"]] == ["user", "assistant", "tool", "turn_end"]


def test_store_reads_while_a_writer_writes(tmp_path: Path) -> None:
    writer = HistoryWriter()
    recorder = HistoryRecorder.start(writer, "/w", "a")
    store = HistoryStore()
    for n in range(50):
        recorder.on_event(TurnStarted(turn_id=f"t{n}", prompt=f"prompt {n}"))
        if n % 10 == 0:
            assert len(store.list_conversations()) <= 1
    writer.close()
    assert len(store.get(recorder.conversation_id).items) == 50
    store.close()
