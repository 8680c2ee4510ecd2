"""Ctrl+Home / Ctrl+End move the conversation to its top and bottom: from the transcript, and
from the composer while it is empty (in a prompt being written they move the text cursor).
The real window offscreen, a long answer from the fake agent, real key events (qtbot).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.core.events import SessionState
from desktop.ui.pane import ConversationPane
from tests.ui.conftest import Driver
from tests.waiting import until

_LONG = "".join(f"Paragraph {n}: a step of the plan.\n\n" for n in range(80))
CTRL = Qt.KeyboardModifier.ControlModifier


def _value(pane: ConversationPane) -> int:
    return pane.view.verticalScrollBar().value()


def _bottom(pane: ConversationPane) -> bool:
    bar = pane.view.verticalScrollBar()
    return bar.maximum() > 0 and bar.value() == bar.maximum()


def test_ctrl_home_and_end_move_the_conversation(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context = await driver.acontext({"turns": [[{"text": _LONG, "chunks": 4}]]})
        window = context.open_workspace(driver.workspace())
        window.resize(900, 640)
        window.show()
        window.activateWindow()
        pane = window.current
        assert pane is not None
        pane.submit("explain", [])
        await until(lambda: pane.session.state == SessionState.IDLE, 30, "the answer")
        await until(lambda: _bottom(pane), 15, "the end shown")
        editor = pane.composer.editor
        editor.setFocus()
        qtbot.keyClick(editor, Qt.Key.Key_Home, CTRL)  # empty composer: the conversation moves
        await until(lambda: _value(pane) == 0, 15, "the top")
        qtbot.keyClick(editor, Qt.Key.Key_End, CTRL)
        await until(lambda: _bottom(pane), 15, "the bottom")
        editor.setPlainText("two\nlines")
        qtbot.keyClick(editor, Qt.Key.Key_Home, CTRL)  # a prompt being written: its text
        assert editor.textCursor().position() == 0 and _bottom(pane)
        editor.clear()
        pane.view.setFocus()  # the transcript has the keyboard
        await until(pane.view.hasFocus, 15, "the transcript focused")
        qtbot.keyClick(pane.view, Qt.Key.Key_Home, CTRL)
        await until(lambda: _value(pane) == 0, 15, "the top from the transcript")
        qtbot.keyClick(pane.view, Qt.Key.Key_End, CTRL)
        await until(lambda: _bottom(pane), 15, "the bottom from the transcript")

    driver.run(body(), 60)
