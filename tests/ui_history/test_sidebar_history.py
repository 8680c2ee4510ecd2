"""The history sidebar in a real window: recorded, listed, renamed, deleted, searched, exported,
reopened and resumed, with the fake aionrs agent and a real SQLite file in AGENTDESK_HOME."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLineEdit
from pytestqt.qtbot import QtBot

from desktop.core.conversation import ResumeStarter
from desktop.core.entries import StreamItem, UserItem
from desktop.core.events import SessionState
from desktop.core.history import HistoryStore, ItemKind, StoredConversation
from desktop.ui.app import AppContext
from desktop.ui.conversation.highlight import HitMark
from desktop.ui.conversation.thinking import ThinkingView
from desktop.ui.pane import ConversationPane
from desktop.ui.sidebar.engine import HistoryEngine
from desktop.ui.window import WorkspaceWindow
from tests.ui.conftest import Driver, _shutdown
from tests.waiting import until


def _idle(pane: ConversationPane) -> bool:
    return pane.session.state == SessionState.IDLE and pane.session.active_turn is None


def _shape(conversations: list[StoredConversation]) -> list[tuple[Any, ...]]:
    return [(c.id, c.title, [(i.seq, i.kind, i.text) for i in c.items]) for c in conversations]


def _stored(workspace: Path) -> list[StoredConversation]:
    store = HistoryStore()
    try:
        return [store.get(c.id) for c in store.list_conversations(workspace)]
    finally:
        store.close()


async def _window(
    driver: Driver, scenario: dict[str, Any], profile: str = "spec"
) -> tuple[AppContext, WorkspaceWindow, HistoryEngine]:
    context = await driver.acontext(scenario, profile)
    window = context.open_workspace(driver.workspace())
    engine = window.history.engine
    assert engine is not None
    await until(lambda: engine.service.store is not None, what="history open")
    return context, window, engine


async def _converse(window: WorkspaceWindow, *prompts: str) -> ConversationPane:
    pane = window.current
    assert pane is not None
    for prompt in prompts:
        pane.submit(prompt, [])
        await until(lambda: _idle(pane) and pane.session.queued == [], what=f"answer to {prompt}")
    return pane


async def _settled(engine: HistoryEngine, title: str) -> None:
    await until(
        lambda: any(e.stored and e.title == title for e in engine.entries), what=f"row {title}"
    )


def test_conversation_is_recorded_listed_and_renamed(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context, window, engine = await _window(
            driver, {"turns": [[{"thinking": "hmm"}, {"text": "Hello back"}]]}
        )
        await _converse(window, "hello history")
        await _settled(engine, "hello history")
        await until(  # the writer thread commits the items a moment after the row appears
            lambda: len(_stored(driver.workspace())[0].items) >= 3, what="items committed"
        )
        (stored,) = _stored(driver.workspace())
        assert stored.title == "hello history"
        assert stored.agent == "fake_aionrs" and stored.agent_session_id
        kinds = [i.kind for i in stored.items]
        assert kinds[:3] == [ItemKind.USER, ItemKind.THINKING, ItemKind.ASSISTANT]
        assert stored.items[2].text == "Hello back"
        window.new_conversation()  # a draft (nothing stored) listed first
        assert [e.stored for e in engine.entries] == [False, True]
        assert window.sidebar.count() == 2
        # Rename in place: F2 on the stored row, type, Enter.
        row = next(r for r, e in enumerate(window.sidebar.entries()) if e.stored)
        window.sidebar.setCurrentRow(row)
        window.show()
        window.history.rename_current()
        editor = window.sidebar.findChild(QLineEdit, "renameEditor")
        assert editor is not None and editor.text() == "hello history"
        editor.setText("Greetings, renamed")
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        await until(
            lambda: _stored(driver.workspace())[0].title == "Greetings, renamed", what="rename"
        )
        await _settled(engine, "Greetings, renamed")
        assert _stored(driver.workspace())[0].title_edited
        await _shutdown(context)

    driver.run(body(), 90)


def test_delete_with_confirmation_and_undo(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context, window, engine = await _window(driver, {})
        pane = await _converse(window, "doomed conversation")
        await _settled(engine, "doomed conversation")
        await until(
            lambda: (
                [i.kind for c in _stored(driver.workspace()) for i in c.items][-1:]
                == [ItemKind.TURN_END]
            ),
            what="stored",
        )
        before = _shape(_stored(driver.workspace()))
        entry = engine.entry_of(pane)
        assert entry is not None and entry.stored
        engine.actions.ask_delete(entry)
        bar = engine.sidebar.confirm
        assert bar.isVisibleTo(window) and "doomed conversation" in bar.message.text()
        assert _shape(_stored(driver.workspace())) == before  # nothing before the answer
        qtbot.mouseClick(bar.delete, Qt.MouseButton.LeftButton)
        await until(lambda: _stored(driver.workspace()) == [], what="deleted")
        await until(lambda: pane not in window.panes, what="pane closed")
        await until(lambda: engine.sidebar.undo.isVisibleTo(window), what="undo offered")
        assert all(e.conversation_id != entry.conversation_id for e in engine.entries)
        assert all(e.conversation_id != entry.conversation_id for e in window.sidebar.entries())
        assert window.current is not None  # a fresh conversation took its place
        qtbot.mouseClick(engine.sidebar.undo.undo, Qt.MouseButton.LeftButton)
        await until(lambda: _shape(_stored(driver.workspace())) == before, what="restored")
        await _settled(engine, "doomed conversation")
        assert not engine.sidebar.undo.isVisibleTo(window)
        await _shutdown(context)

    driver.run(body(), 90)


def _long(word: str, lines: int = 60) -> str:
    return "\n\n".join(
        f"Paragraph {n}: " + ("filler " * 12) + (word if n == 45 else "") for n in range(lines)
    )


def test_search_opens_the_conversation_at_the_hit(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        turns = [[{"text": _long("")}], [{"text": _long("zanzibar")}], [{"text": _long("")}]]
        context, window, _ = await _window(driver, {"turns": turns})
        await _converse(window, "first", "second", "third")
        await _shutdown(context)  # the next window reads it from the database only
        context, window, engine = await _window(driver, {})
        window.resize(1000, 700)
        window.show()
        await until(lambda: any(e.stored for e in engine.entries), what="listed")
        qtbot.keyClick(
            window,
            Qt.Key.Key_F,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )
        assert engine.sidebar.search.hasFocus()
        qtbot.keyClicks(engine.sidebar.search, "zanzib")
        await until(lambda: engine.sidebar.results.count() > 0, what="hits")
        (hit,) = engine.sidebar.results.hits()
        assert "[zanzibar]" in hit.snippet and hit.kind == ItemKind.ASSISTANT
        panes_before = len(window.panes)
        qtbot.keyClick(engine.sidebar.search, Qt.Key.Key_Return)
        await until(
            lambda: len(window.panes) == panes_before + 1 and window.current is window.panes[-1],
            what="opened and shown",
        )
        pane = window.current
        assert pane is not None and pane.title == "first"
        await until(lambda: pane.view.findChildren(HitMark), what="highlight")
        (mark,) = pane.view.findChildren(HitMark)
        target = mark.parentWidget()
        assert target is not None and "zanzibar" in target.item.text  # type: ignore[attr-defined]
        texts = [i.text for i in pane.transcript.items if isinstance(i, StreamItem)]
        assert len(texts) == 3 and texts[1].endswith("Paragraph 59: " + "filler " * 12)
        await until(lambda: pane.view.verticalScrollBar().value() > 0, what="scrolled to the hit")
        viewport = pane.view.viewport()
        top = target.mapTo(viewport, target.rect().topLeft()).y()
        assert 0 <= top < viewport.height(), "the hit is scrolled into view"
        assert pane.view.verticalScrollBar().value() > 0
        await _shutdown(context)

    driver.run(body(), 90)


def test_export_markdown_and_json(driver: Driver, qtbot: QtBot, tmp_path: Path) -> None:
    async def body() -> None:
        context, window, engine = await _window(
            driver, {"turns": [[{"text": "**Exported** reply"}]]}
        )
        await _converse(window, "export me")
        await _settled(engine, "export me")
        entry = next(e for e in engine.entries if e.stored)
        for fmt in ("md", "json"):
            dialog = engine.actions.export(entry, fmt)
            assert isinstance(dialog, QFileDialog) and dialog.isVisible()
            assert dialog.isModal()  # window-modal through open(), not a nested exec() loop
            target = tmp_path / f"out.{fmt}"
            dialog.selectFile(str(target))
            dialog.accept()
            await until(target.exists, what=f"{fmt} written")
        markdown = (tmp_path / "out.md").read_text()
        assert markdown.startswith("# export me") and "## You\n\nexport me" in markdown
        assert "**Exported** reply" in markdown
        doc = json.loads((tmp_path / "out.json").read_text())
        assert doc["format"] == 2 and doc["title"] == "export me"
        assert [i["kind"] for i in doc["items"]][:2] == ["user", "assistant"]
        await until(lambda: "Exported to" in window.statusBar().currentMessage(), what="message")
        await _shutdown(context)

    driver.run(body(), 90)


def test_reopened_conversation_shows_the_transcript_and_resumes_the_session(
    driver: Driver, qtbot: QtBot
) -> None:
    async def body() -> None:
        first = [
            {"thinking": "considering"},
            {"text": "Answer one"},
            {"usage": {"input_tokens": 11, "output_tokens": 4}},
        ]
        context, window, _ = await _window(driver, {"turns": [first]})
        old = await _converse(window, "question one")
        session_id = old.session.agent_session_id
        assert session_id
        await _shutdown(context)
        context, window, engine = await _window(driver, {"turns": [[{"text": "Answer two"}]]})
        await until(lambda: any(e.stored for e in engine.entries), what="listed")
        entry = next(e for e in engine.entries if e.stored)
        window.sidebar.select(entry)
        window.sidebar.entry_chosen.emit(entry)
        await until(lambda: entry.pane is not None, what="reopened")
        pane = entry.pane
        assert pane is not None and window.current is pane
        assert pane.session.state == SessionState.NEW  # no agent until a prompt is sent
        users = [i for i in pane.transcript.items if isinstance(i, UserItem)]
        assert [u.text for u in users] == ["question one"]
        await until(  # its rows are built over the next turns of the loop
            lambda: any(isinstance(w, ThinkingView) for w in pane.view.widgets.values()),
            what="the thinking shown",
        )
        assert [
            i.text for i in pane.transcript.items if isinstance(i, StreamItem) and not i.thinking
        ] == ["Answer one"]
        assert "in 11" in window.status_labels["tokens"].text()
        pane.submit("question two", [])
        await until(lambda: _idle(pane) and pane.session.ready_info is not None, what="answer two")
        assert pane.session.ready_info.session_id == session_id  # the agent ran with --resume
        assert isinstance(pane.starter, ResumeStarter) and pane.starter.used is not None
        assert pane.starter.used.resume_id == session_id and pane.starter.used.init_history is None
        (stored,) = _stored(driver.workspace())
        users_stored = [i.text for i in stored.items if i.kind == ItemKind.USER]
        assert users_stored == ["question one", "question two"]
        assert [i.seq for i in stored.items] == list(range(len(stored.items)))
        await _shutdown(context)

    driver.run(body(), 90)


def test_agent_without_sessions_gets_init_history(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        scenario = {"no_session": True, "turns": [[{"text": "I will remember tangerine"}]]}
        context, window, _ = await _window(driver, scenario)
        await _converse(window, "remember tangerine")
        await _shutdown(context)
        assert _stored(driver.workspace())[0].agent_session_id is None
        context, window, engine = await _window(driver, {"no_session": True})
        await until(lambda: any(e.stored for e in engine.entries), what="listed")
        pane = await engine.open_stored(next(e for e in engine.entries if e.stored))
        assert pane is not None
        pane.submit("what is history?", [])  # the fake agent answers with what it was given
        await until(lambda: _idle(pane) and pane.session.ready_info is not None, what="answer")
        answer = [i.text for i in pane.transcript.items if isinstance(i, StreamItem)][-1]
        assert (
            "User: remember tangerine" in answer
            and "Assistant: I will remember tangerine" in answer
        )
        assert isinstance(pane.starter, ResumeStarter) and pane.starter.used is not None
        assert pane.starter.used.resume_id is None and pane.starter.used.init_history
        await _shutdown(context)

    driver.run(body(), 90)
