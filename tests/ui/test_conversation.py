"""Whole conversations with the fake agent, driven through the real window."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.core.entries import StreamItem, ToolStatus
from desktop.core.events import SessionState
from desktop.ui.conversation.items import ExitPanel, MessageRow
from desktop.ui.conversation.stream_view import AssistantView
from desktop.ui.conversation.thinking import ThinkingView
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.pane import ConversationPane
from tests.ui.conftest import Driver
from tests.waiting import until


def _idle(pane: ConversationPane) -> bool:
    return pane.session.state == SessionState.IDLE and pane.session.active_turn is None


def _cards(pane: ConversationPane) -> list[ToolCard]:
    return [w for w in pane.view.widgets.values() if isinstance(w, ToolCard)]


async def _open(
    driver: Driver, scenario: dict[str, object], name: str = "ws", profile: str = "spec"
) -> ConversationPane:
    context = await driver.acontext(scenario, profile)
    window = context.open_workspace(driver.workspace(name))
    pane = window.current
    assert pane is not None
    return pane


def _keys_accepted(card: ToolCard) -> bool:
    """Whether the card's key guard (keys ignored right after it took focus by itself) is over."""
    return card.approval is not None and not card.approval._guarded()


def _rendered(pane: ConversationPane, text: str) -> bool:
    """Whether the view has repainted and an assistant message shows ``text``."""
    views = pane.view.widgets.values()
    return pane.view.rendered() and any(
        isinstance(v, AssistantView) and text in v.shown_html() for v in views
    )


def _send(driver: Driver, qtbot: QtBot, pane: ConversationPane, text: str) -> None:
    pane.composer.editor.setPlainText(text)
    qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)


def test_streaming_markdown_thinking_and_usage(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        text = "Intro **bold**\n\n```python\ndef f():\n    return 1\n```\n\nTail line"
        pane = await _open(
            driver,
            {
                "turns": [
                    [
                        {"thinking": "pondering"},
                        {"text": text, "chunks": 40},
                        {"usage": {"input_tokens": 7, "output_tokens": 3}},
                    ]
                ]
            },
        )
        _send(driver, qtbot, pane, "hello")
        await until(lambda: _idle(pane) and pane.usage.output_tokens == 3, what="turn end")
        await until(lambda: _rendered(pane, "Tail line"), what="the answer rendered")
        views = list(pane.view.widgets.values())
        thinking = next(v for v in views if isinstance(v, ThinkingView))
        assert "pondering" in thinking.body.toPlainText()
        assert not thinking.body.isVisible()  # collapsed by default
        assistant = next(v for v in views if isinstance(v, AssistantView))
        assert assistant.item.text == text
        assert assistant.block_count >= 1  # intro and code rendered as finished block(s)
        shown = assistant.shown_html()
        assert "<b>bold</b>" in shown or "font-weight" in shown
        assert "return" in shown and "Tail line" in shown
        status = pane.window().status_labels  # type: ignore[attr-defined]
        assert "in 7" in status["tokens"].text() and "out 3" in status["tokens"].text()
        assert status["state"].text() == "Ready"  # in words, never the enum value
        assert pane.composer.editor.toPlainText() == ""

    driver.run(body(), 90)


def test_fast_stream_is_coalesced(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        pane = await _open(driver, {"turns": [[{"flood": 20000, "text": "word "}]]})
        pane.window().show()
        _send(driver, qtbot, pane, "flood")
        await until(lambda: _idle(pane), timeout=30, what="flood end")
        await until(lambda: pane.view.rendered(), what="the last repaint")
        item = next(i for i in pane.transcript.items if isinstance(i, StreamItem))
        assert len(item.text) == 20000 * 5
        assert 0 < pane.view.repaints < 2000  # 20,000 deltas, far fewer repaints

    driver.run(body(), 90)


def test_approve_with_y_writes_the_file(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        write = {"tool": {"name": "Write", "args": {"file_path": "out.txt", "content": "hi\n"}}}
        pane = await _open(driver, {"turns": [[write, {"text": "written"}]]})
        _send(driver, qtbot, pane, "write it")
        await until(lambda: _cards(pane), what="approval card")
        card = _cards(pane)[0]
        assert card.approval is not None and card.item.status == ToolStatus.WAITING
        assert "+hi" in card.item.request.preview.text  # type: ignore[union-attr]
        assert pane.session.state == SessionState.AWAITING_APPROVAL
        await until(lambda: _keys_accepted(card), what="the key guard to end")
        qtbot.keyClick(card.approval, Qt.Key.Key_Y)
        await until(lambda: _idle(pane), what="turn end")
        assert (driver.workspace() / "out.txt").read_text() == "hi\n"
        assert card.item.status == ToolStatus.SUCCEEDED

    driver.run(body(), 90)


def test_approve_always_with_a_auto_approves_the_category(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        first = {"tool": {"name": "Write", "args": {"file_path": "a.txt", "content": "a"}}}
        second = {"tool": {"name": "Write", "args": {"file_path": "b.txt", "content": "b"}}}
        pane = await _open(driver, {"turns": [[first], [second]]}, profile="aionrs-0.2")
        _send(driver, qtbot, pane, "one")
        await until(lambda: _cards(pane), what="approval card")
        await until(lambda: _keys_accepted(_cards(pane)[0]), what="the key guard to end")
        qtbot.keyClick(_cards(pane)[0].approval, Qt.Key.Key_A)
        await until(lambda: _idle(pane), what="first turn")
        _send(driver, qtbot, pane, "two")
        await until(
            lambda: (
                len(_cards(pane)) == 2
                and _idle(pane)
                and _cards(pane)[1].decision.text().startswith("Allowed by your always-rule")
            ),
            what="second turn, decided by the always rule",  # labels repaint at ≤ 60 Hz
        )
        second_card = _cards(pane)[1]
        assert second_card.approval is None  # never asked
        assert second_card.item.decision is not None
        assert second_card.item.decision.source == "always_rule"
        assert second_card.decision.text().startswith("Allowed by your always-rule")
        assert (driver.workspace() / "b.txt").read_text() == "b"

    driver.run(body(), 90)


def test_deny_with_esc(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        bash = {"tool": {"name": "Bash", "args": {"command": "touch denied.txt"}}}
        pane = await _open(driver, {"turns": [[bash, {"text": "ok"}]]})
        _send(driver, qtbot, pane, "run it")
        await until(
            lambda: _cards(pane),
            what="approval card",
        )
        card = _cards(pane)[0]
        await until(lambda: _keys_accepted(card), what="the key guard to end")
        qtbot.keyClick(card.approval, Qt.Key.Key_Escape)
        await until(lambda: _idle(pane), what="turn end")
        assert card.item.status == ToolStatus.DENIED
        assert not (driver.workspace() / "denied.txt").exists()
        assert pane.composer.editor.hasFocus() or not pane.window().isActiveWindow()

    driver.run(body(), 90)


def test_stop_mid_turn_with_esc(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        pane = await _open(driver, {"turns": [[{"text": "working"}, {"sleep": 60}]]})
        _send(driver, qtbot, pane, "long job")
        # The agent works on it (its prompt goes once the workspace's checkpoint is taken).
        await until(lambda: "working" in _last_text(pane), what="the agent working")
        assert pane.session.state == SessionState.RUNNING
        assert pane.composer.stop.isEnabled()
        started = time.monotonic()
        qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Escape)
        await until(lambda: _idle(pane), what="stopped")
        assert time.monotonic() - started < 3
        rows = [w for w in pane.view.widgets.values() if isinstance(w, MessageRow)]
        assert any("Stopped" in r.text() for r in rows)
        assert not pane.composer.stop.isEnabled()
        _send(driver, qtbot, pane, "after stop")  # the next prompt is a new turn, answered
        await until(lambda: _idle(pane) and "You said: after stop" in _last_text(pane))

    driver.run(body(), 90)


def _last_text(pane: ConversationPane) -> str:
    items = [i for i in pane.transcript.items if isinstance(i, StreamItem)]
    return items[-1].text if items else ""


def test_agent_crash_then_restart_keeps_the_transcript(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        pane = await _open(
            driver,
            {
                "prompts": {
                    "crash please": [{"text": "before crash"}, {"crash": 3, "stderr": "panic!"}]
                }
            },
        )
        _send(driver, qtbot, pane, "crash please")
        await until(
            lambda: any(isinstance(w, ExitPanel) for w in pane.view.widgets.values()), what="exit"
        )
        panel = next(w for w in pane.view.widgets.values() if isinstance(w, ExitPanel))
        texts = " ".join(
            label.text() for label in panel.findChildren(type(pane.window().status_labels["agent"]))
        )  # type: ignore[attr-defined]
        assert "exit code 3" in texts and "panic!" in texts
        qtbot.mouseClick(panel.restart, Qt.MouseButton.LeftButton)
        await until(lambda: pane.session.state == SessionState.READY, what="restarted")
        assert not panel.restart.isEnabled()
        _send(driver, qtbot, pane, "again")
        await until(lambda: "You said: again" in _last_text(pane), what="answer after restart")
        texts = [i.text for i in pane.transcript.items if isinstance(i, StreamItem)]
        assert texts[0] == "before crash"  # nothing shown before the crash was lost

    driver.run(body(), 90)


def test_agent_that_cannot_start_is_shown_inline(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context = await driver.acontext(
            {"startup": {"exit": 1, "stderr": "Error: no key configured"}}
        )
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        pane.submit("hello", [])  # the agent starts with the first prompt
        await until(lambda: pane.session.state == SessionState.EXITED, what="start failure")
        rows = [w for w in pane.view.widgets.values() if isinstance(w, MessageRow)]
        assert any("no key configured" in r.text() for r in rows)

    driver.run(body(), 90)


def test_queued_prompt_is_visible_until_its_turn(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        pane = await _open(driver, {"turns": [[{"sleep": 0.6}, {"text": "first done"}]]})
        _send(driver, qtbot, pane, "first")
        await until(lambda: pane.session.state == SessionState.RUNNING, what="running")
        _send(driver, qtbot, pane, "second")
        bubbles = [i for i in pane.transcript.items if getattr(i, "text", None) == "second"]
        assert bubbles and bubbles[0].queued  # type: ignore[attr-defined]
        await until(lambda: "You said: second" in _last_text(pane), what="second answered")
        bubbles = [i for i in pane.transcript.items if getattr(i, "text", None) == "second"]
        assert not bubbles[0].queued  # type: ignore[attr-defined]

    driver.run(body(), 90)


def test_mode_switch_goes_to_the_session(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        write = {"tool": {"name": "Write", "args": {"file_path": "m.txt", "content": "m"}}}
        pane = await _open(driver, {"turns": [[write]]})
        pane.rules_panel.modes["auto_edit"].click()  # the mode button's panel (test_rules.py)
        await until(lambda: pane.session.mode == "auto_edit", what="mode")
        assert pane.composer.mode.text().startswith("Auto-approve edits")
        _send(driver, qtbot, pane, "edit")
        await until(lambda: _idle(pane) and _cards(pane), what="turn")
        card = _cards(pane)[0]
        assert card.approval is None  # nobody was asked (the agent applies the mode too)
        assert card.item.decision is None or card.item.decision.source == "mode"
        assert pane.window().status_labels["mode"].text() == "Auto-approve edits"  # type: ignore[attr-defined]
        assert (driver.workspace() / "m.txt").exists()

    driver.run(body(), 90)


def test_attached_files_are_sent(driver: Driver, qtbot: QtBot, tmp_path: Path) -> None:
    async def body() -> None:
        pane = await _open(driver, {})
        attached = tmp_path / "notes.md"
        attached.write_text("x")
        pane.composer.add_files([str(attached)])
        _send(driver, qtbot, pane, "see file")
        await until(lambda: _idle(pane) and _last_text(pane), what="answer")
        user = next(i for i in pane.transcript.items if getattr(i, "text", None) == "see file")
        assert user.files == [str(attached)]  # type: ignore[attr-defined]
        assert pane.composer.files == []

    driver.run(body(), 90)
