"""Scrolling follows the work: the conversation stays at the bottom while an answer streams
unless the user scrolled up, "Jump to latest" appears when not at the bottom and brings the view
back, and sending a prompt scrolls to it. Driven through the real window and the fake agent.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from desktop.core.events import SessionState
from desktop.ui.conversation.items import UserBubble
from desktop.ui.pane import ConversationPane
from tests.ui.conftest import Driver
from tests.waiting import until

_PARAGRAPHS = "".join(
    f"Paragraph {n}: the agent explains a step of the plan.\n\n" for n in range(60)
)


def _idle(pane: ConversationPane) -> bool:
    return pane.session.state == SessionState.IDLE and pane.session.active_turn is None


def _answer(pane: ConversationPane) -> str:
    return "".join(getattr(item, "text", "") for item in pane.transcript.items)


def _at_bottom(pane: ConversationPane) -> bool:
    bar = pane.view.verticalScrollBar()
    return bar.maximum() > 0 and bar.value() == bar.maximum()


def test_stream_follows_unless_scrolled_up_and_jump_to_latest(driver: Driver, qtbot: QtBot) -> None:
    scenario = {
        "turns": [
            [
                {"text": "FIRST " + _PARAGRAPHS, "chunks": 6},
                {"sleep": 3.0},  # the user scrolls up here
                {"text": "SECOND " + _PARAGRAPHS, "chunks": 6},
            ],
            [{"text": "THIRD " + _PARAGRAPHS, "chunks": 3}],
        ]
    }

    async def body() -> None:
        context = await driver.acontext(scenario)
        window = context.open_workspace(driver.workspace())
        window.resize(900, 640)
        pane = window.current
        assert pane is not None
        view, bar = pane.view, pane.view.verticalScrollBar()
        pane.composer.editor.setPlainText("explain")
        qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)
        await until(lambda: "Paragraph 59" in _answer(pane), what="the first part")
        # Shown, not only received (blocks render on a worker thread): far more than a screen.
        await until(
            lambda: view.rendered() and _at_bottom(pane) and bar.maximum() > view.height(),
            what="following the stream",
        )
        assert not view.jump.isVisible()

        bar.setValue(0)  # the user scrolls up to read
        await until(view.jump.isVisible, what="the Jump to latest button")
        assert view.jump.accessibleName() == "Jump to latest"
        assert view.jump.focusPolicy() == Qt.FocusPolicy.NoFocus
        top = bar.maximum()
        await until(lambda: "SECOND" in _answer(pane) and _idle(pane), what="the second part")
        await until(lambda: bar.maximum() > top, what="the view grew")
        assert bar.value() == 0, "the view stays where the user scrolled to"
        assert view.jump.isVisible()
        centre = view.jump.geometry().center()
        assert view.viewport().geometry().contains(centre), "floats over the conversation"

        qtbot.mouseClick(view.jump, Qt.MouseButton.LeftButton)
        await until(lambda: _at_bottom(pane) and not view.jump.isVisible(), what="jumped")

        bar.setValue(0)
        await until(view.jump.isVisible, what="the Jump to latest button again")
        pane.composer.editor.setFocus()
        pane.composer.editor.setPlainText("and again")
        before = len(_bubbles(pane))
        qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)
        await until(lambda: len(_bubbles(pane)) > before, what="the sent prompt")
        sent = _bubbles(pane)[-1]
        await until(lambda: _shown(pane, sent), what="the sent prompt scrolled into view")
        await until(lambda: "THIRD" in _answer(pane) and _idle(pane), what="the third answer")
        await until(lambda: _at_bottom(pane) and not view.jump.isVisible(), what="following")

    driver.run(body(), 90)


def _bubbles(pane: ConversationPane) -> list[UserBubble]:
    return [w for w in pane.view.widgets.values() if isinstance(w, UserBubble)]


def _shown(pane: ConversationPane, widget: UserBubble) -> bool:
    top = widget.mapTo(pane.view.viewport(), QPoint(0, 0)).y()
    return top >= 0 and top + widget.height() <= pane.view.viewport().height()
