"""HistoryRecorder on a real Session driving the real fake aionrs agent subprocess."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from desktop.core.backend import Prompt
from desktop.core.conversation import ResumeStarter
from desktop.core.entries import ToolItem, ToolStatus
from desktop.core.events import (
    Decision,
    DecisionSource,
    SessionEvent,
    SessionState,
    ToolRequested,
)
from desktop.core.history import (
    HistoryRecorder,
    HistoryStore,
    HistoryWriter,
    ItemKind,
    apply_history,
    build_resume_summary,
    plan_resume,
)
from desktop.core.history.writer import ItemWrite, Write
from desktop.core.redaction import Redactor
from desktop.core.session import Session
from tests.core.support import fake_factory
from tests.waiting import until


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def session_for(
    workspace: Path, scenario: dict[str, Any], profile: str = "aionrs-0.2", **kwargs: Any
) -> Session:
    return Session(fake_factory(workspace, profile, scenario), workspace=workspace, **kwargs)


def approve_everything(session: Session) -> None:
    def on_event(event: SessionEvent) -> None:
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, Decision.ONCE, DecisionSource.USER)

    session.subscribe(on_event)


def items_on_disk(path: Path) -> list[tuple[str, str, int]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT kind, text, complete FROM items WHERE kind != 'notice' ORDER BY seq"
        ).fetchall()
    finally:
        conn.close()


@pytest.mark.asyncio
async def test_streamed_text_is_on_disk_within_a_second(workspace: Path) -> None:
    scenario = {"turns": [[{"text": "part one "}, {"sleep": 1.5}, {"text": "part two"}]]}
    writer = HistoryWriter()
    session = session_for(workspace, scenario)
    recorder = HistoryRecorder.start(writer, workspace, "fake")
    recorder.attach(session)
    await session.start()
    session.submit(Prompt("stream please"))
    on_disk = [("user", "stream please", 1), ("assistant", "part one ", 0)]
    # mid-turn (the agent sleeps 1.5 s after "part one "), within a second
    await until(lambda: items_on_disk(writer.path) == on_disk, 1.0, "part one on disk")
    assert items_on_disk(writer.path) == [
        ("user", "stream please", 1),
        ("assistant", "part one ", 0),
    ]
    await session.wait_idle()
    await session.close()
    recorder.detach()
    await asyncio.to_thread(writer.close)
    store = HistoryStore()
    conv = store.get(recorder.conversation_id)
    assert [(i.kind, i.text, i.complete) for i in conv.items if i.kind != "notice"][:2] == [
        (ItemKind.USER, "stream please", True),
        (ItemKind.ASSISTANT, "part one part two", True),
    ]
    assert conv.items[-1].kind == ItemKind.TURN_END
    assert conv.agent_session_id == session.agent_session_id is not None
    assert conv.title == "stream please"
    store.close()


async def recorded_turn(
    workspace: Path, steps: list[dict[str, Any]], **options: Any
) -> tuple[HistoryWriter, list[ItemWrite]]:
    """One turn of the fake agent recorded (``options``: the recorder's); the writer (closed)
    and the writes of the answer's text it committed, in order."""
    committed: list[Write] = []
    writer = HistoryWriter(on_commit=committed.extend)
    session = session_for(workspace, {"turns": [steps]})
    recorder = HistoryRecorder.start(writer, workspace, "fake", **options)
    recorder.attach(session)
    session.submit(Prompt("go"))
    await session.wait_idle()
    await session.close()
    recorder.detach()
    await asyncio.to_thread(writer.close)
    return writer, [w for w in committed if isinstance(w, ItemWrite) and w.kind == "assistant"]


@pytest.mark.asyncio
async def test_text_deltas_are_coalesced(workspace: Path) -> None:
    writer, text_writes = await recorded_turn(workspace, [{"flood": 3000, "text": "x"}])
    assert len(text_writes) < 30, len(text_writes)  # not one write per delta
    # Each write adds what came since the last one: the answer is not rewritten as it grows.
    assert all(w.append for w in text_writes) and text_writes[-1].complete
    assert "".join(w.text for w in text_writes) == "x" * 3000
    assert items_on_disk(writer.path)[1] == ("assistant", "x" * 3000, 1)


@pytest.mark.asyncio
async def test_a_key_split_across_streamed_writes_never_reaches_the_disk(workspace: Path) -> None:
    key = "sk-ant-api03-" + "Q" * 40
    secret = "correct-horse-battery-staple"  # a known secret value (an environment variable's)
    text = f"the key is {key} and the password {secret}, done"
    # One character a delta, 20 ms apart, and a write after each: the text is cut everywhere.
    chunks = [step for char in text for step in ({"text": char}, {"sleep": 0.02})]
    writer, writes = await recorded_turn(
        workspace, chunks, flush_interval=0.0, redactor=Redactor([secret])
    )
    pieces = [write.text for write in writes]
    assert len(pieces) > 5, pieces  # written as it streamed, in many pieces
    written = ""
    for piece in pieces:  # what was on disk after each commit
        written += piece
        assert "sk-ant" not in written and "horse" not in written, written
    expected = "the key is [REDACTED] and the password [REDACTED], done"
    assert written == expected
    assert items_on_disk(writer.path)[1] == ("assistant", expected, 1)
    assert b"QQQQ" not in writer.path.read_bytes() and b"horse" not in writer.path.read_bytes()


@pytest.mark.asyncio
async def test_tool_calls_are_recorded_with_decision_and_result(workspace: Path) -> None:
    scenario = {
        "turns": [
            [
                {"tool": {"name": "Write", "args": {"file_path": "out.txt", "content": "hi\n"}}},
                {"text": "wrote it"},
            ]
        ]
    }
    writer = HistoryWriter()
    session = session_for(workspace, scenario)
    approve_everything(session)
    recorder = HistoryRecorder.start(writer, workspace, "fake")
    recorder.attach(session)
    session.submit(Prompt("write a file"))
    await session.wait_idle()
    await session.close()
    recorder.detach()
    await asyncio.to_thread(writer.close)
    store = HistoryStore()
    items = store.get(recorder.conversation_id).items
    tool = next(i for i in items if i.kind == ItemKind.TOOL)
    entry = tool.entry
    assert isinstance(entry, ToolItem) and entry.decision is not None and entry.request.preview
    assert tool.complete and entry.request.name == "Write"
    assert entry.request.args["file_path"] == "out.txt"
    assert entry.decision.source == "user"
    assert entry.status == ToolStatus.SUCCEEDED
    assert entry.request.preview.kind == "diff"
    assert tool.seq in [h.seq for h in store.search("out.txt")]
    store.close()


@pytest.mark.asyncio
async def test_reopened_conversation_resumes_the_agent_session(workspace: Path) -> None:
    writer = HistoryWriter()
    first = session_for(workspace, {})
    recorder = HistoryRecorder.start(writer, workspace, "fake")
    recorder.attach(first)
    first.submit(Prompt("hello"))
    await first.wait_idle()
    await first.close()
    recorder.detach()
    await asyncio.to_thread(writer.flush)
    store = HistoryStore()
    stored = store.get(recorder.conversation_id)
    plan = plan_resume(stored, agent_has_sessions=True)
    assert plan.resume_id == first.agent_session_id and plan.init_history is None
    second = session_for(workspace, {}, resume_id=plan.resume_id)
    again = HistoryRecorder(writer, stored.id, next_seq=store.next_seq(stored.id), has_title=True)
    again.attach(second)
    ready = await second.start()
    assert ready.session_id == first.agent_session_id
    second.submit(Prompt("again"))
    await second.wait_idle()
    await second.close()
    again.detach()
    await asyncio.to_thread(writer.close)
    users = [i.text for i in store.get(stored.id).items if i.kind == ItemKind.USER]
    assert users == ["hello", "again"]
    store.close()


@pytest.mark.asyncio
async def test_agent_without_sessions_gets_the_summary(workspace: Path) -> None:
    writer = HistoryWriter()
    scenario = {"no_session": True, "turns": [[{"text": "The answer is 42."}]]}
    first = session_for(workspace, scenario, profile="spec")
    recorder = HistoryRecorder.start(writer, workspace, "fake")
    recorder.attach(first)
    first.submit(Prompt("what is the answer?"))
    await first.wait_idle()
    await first.close()
    recorder.detach()
    await asyncio.to_thread(writer.close)
    store = HistoryStore()
    stored = store.get(recorder.conversation_id)
    store.close()
    plan = plan_resume(stored, agent_has_sessions=True)
    assert plan.resume_id is None and plan.init_history is not None
    second = session_for(workspace, {"no_session": True}, profile="spec")
    seen: list[str] = []
    second.subscribe(lambda e: seen.append(e.text) if e.type == "text_delta" else None)
    await second.start()
    await apply_history(second, plan)
    second.submit(Prompt("what is history?"))
    await second.wait_idle()
    await second.close()
    remembered = "".join(seen)
    assert "User: what is the answer?" in remembered
    assert "Assistant: The answer is 42." in remembered


def test_resume_summary_is_bounded_and_keeps_the_newest() -> None:
    writer = HistoryWriter()
    recorder = HistoryRecorder.start(writer, "/w", "a")
    from desktop.core.events import TextDelta, TurnStarted

    for n in range(200):
        recorder.on_event(TurnStarted(turn_id=f"t{n}", prompt=f"question {n} " + "q" * 100))
        recorder.on_event(TextDelta(turn_id=f"t{n}", text=f"answer {n} " + "a" * 5000))
    recorder.detach()
    writer.close()
    store = HistoryStore()
    conv = store.get(recorder.conversation_id)
    store.close()
    summary = build_resume_summary(conv, max_chars=4000)
    assert len(summary) <= 4000
    body = summary.split("\n", 2)[2]
    assert "question 199" in body and "question 0 " not in body
    assert "earlier items omitted" in summary.splitlines()[1]
    assert "…" in summary  # the 5000-character answers are clipped


def fts_seqs(path: Path, word: str) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(
            "SELECT i.seq FROM items_fts JOIN items i ON i.id = items_fts.rowid "
            "WHERE items_fts MATCH ?",
            (word,),
        )
        return [r[0] for r in rows]
    finally:
        conn.close()


@pytest.mark.asyncio
async def test_streaming_text_is_indexed_once_complete_and_found_meanwhile(
    workspace: Path,
) -> None:
    scenario = {"turns": [[{"text": "quokka one "}, {"sleep": 1.5}, {"text": "wombat two"}]]}
    writer = HistoryWriter()
    session = session_for(workspace, scenario)
    recorder = HistoryRecorder.start(writer, workspace, "fake")
    recorder.attach(session)
    session.submit(Prompt("stream please"))
    # mid-turn (the agent sleeps 1.5 s after "quokka one "): on disk, incomplete
    await until(lambda: ("assistant", "quokka one ", 0) in items_on_disk(writer.path))
    assert ("assistant", "quokka one ", 0) in items_on_disk(writer.path)
    assert fts_seqs(writer.path, "quokka") == []  # not indexed while it grows
    store = HistoryStore()
    [hit] = store.search("quokka", str(workspace))  # but search finds it
    assert hit.kind == ItemKind.ASSISTANT and "[quokka]" in hit.snippet
    await session.wait_idle()
    await session.close()
    recorder.detach()
    await asyncio.to_thread(writer.close)
    assert fts_seqs(writer.path, "quokka") == fts_seqs(writer.path, "wombat") == [hit.seq]
    [done] = store.search("quokka wombat", str(workspace))
    assert done.seq == hit.seq and done.snippet.count("[") == 2
    store.close()


@pytest.mark.asyncio
async def test_a_conversation_read_end_first_is_resumed_with_a_summary_of_all_of_it(
    workspace: Path,
) -> None:
    """A long conversation opens with its last items (``get(last=)``), the rest come after
    (``items_before``); the starter made with the end alone waits for the whole and summarises
    all of it, so the summary's count of what it left out is the whole's."""
    writer = HistoryWriter()
    recorder = HistoryRecorder.start(writer, workspace, "fake")
    from desktop.core.events import TextDelta, TurnEnded, TurnEndReason, TurnStarted

    for n in range(300):
        recorder.on_event(TurnStarted(turn_id=f"t{n}", prompt=f"question {n} " + "q" * 80))
        recorder.on_event(TextDelta(turn_id=f"t{n}", text=f"answer {n} " + "a" * 80))
        recorder.on_event(TurnEnded(turn_id=f"t{n}", reason=TurnEndReason.COMPLETED))
    recorder.detach()
    await asyncio.to_thread(writer.close)
    store = HistoryStore()
    whole = store.get(recorder.conversation_id)
    tail = store.get(recorder.conversation_id, last=150)
    unparsed = store.items_before(recorder.conversation_id, tail.items[0].seq)
    earlier = unparsed.parse(0, 100) + unparsed.parse(100, len(unparsed))
    store.close()
    assert [i.seq for i in tail.items] == [i.seq for i in whole.items[-150:]]
    assert [i.seq for i in earlier] == [i.seq for i in whole.items[:-150]]
    assert build_resume_summary(tail) != build_resume_summary(whole)  # the count left out

    plan = plan_resume(tail, agent_has_sessions=True)
    assert plan.init_history is not None
    coming: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    asked = asyncio.Event()

    async def whole_when_read() -> Any:
        asked.set()  # the starter waits for the whole conversation from here
        return await coming

    starter = ResumeStarter(tail, plan, whole=whole_when_read())
    session = session_for(workspace, {"no_session": True}, profile="spec")
    start = asyncio.create_task(starter(session))
    await asyncio.wait_for(asked.wait(), 30)
    assert not start.done() and session.state == SessionState.NEW  # nothing started without it
    coming.set_result(whole)
    await asyncio.wait_for(start, 30)
    assert starter.used is not None
    assert starter.used.init_history == build_resume_summary(whole)
    await session.close()
