"""The review view through the real window: pending edits reviewed full-window and decided there,
finished diffs opened by ``WorkspaceWindow.open_review``, Esc back to where the keyboard was.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from desktop.core.entries import ToolStatus
from desktop.core.events import SessionState
from desktop.core.previews import unified_diff
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.pane import ConversationPane
from desktop.ui.window import WorkspaceWindow
from tests.ui.conftest import Driver
from tests.waiting import until

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
OLD = "".join(f"line {i}\n" for i in range(1, 41))
NEW = OLD.replace("line 5\n", "line five\n").replace("line 30\n", "line thirty\n")


def _write(path: str, content: str) -> dict[str, object]:
    return {"name": "Write", "args": {"file_path": path, "content": content}}


def _cards(pane: ConversationPane) -> list[ToolCard]:
    return [w for w in pane.view.widgets.values() if isinstance(w, ToolCard)]


def _idle(pane: ConversationPane) -> bool:
    return pane.session.state == SessionState.IDLE and pane.session.active_turn is None


def _focus() -> QWidget | None:
    return QApplication.focusWidget()


async def _open(
    driver: Driver, scenario: dict[str, object]
) -> tuple[WorkspaceWindow, ConversationPane]:
    context = await driver.acontext(scenario)
    folder = driver.workspace()
    (folder / "a.txt").write_text(OLD)
    (folder / "b.txt").write_text(OLD)
    window = context.open_workspace(folder)
    window.show()
    window.activateWindow()
    pane = window.current
    assert pane is not None
    return window, pane


async def _two_pending(driver: Driver, qtbot: QtBot) -> tuple[WorkspaceWindow, ConversationPane]:
    tools = {"tools": [_write("a.txt", NEW), _write("b.txt", NEW)]}
    window, pane = await _open(driver, {"turns": [[tools, {"text": "done"}]]})
    pane.composer.editor.setPlainText("edit both")
    qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)
    await until(lambda: len(pane.navigator.pending()) == 2, what="two requests")
    first = pane.navigator.pending()[0]
    await until(lambda: first.hasFocus() and not first._guarded(), what="card has the keys")
    return window, pane


def test_pending_edits_are_reviewed_and_decided_full_window(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        window, pane = await _two_pending(driver, qtbot)
        first, second = pane.navigator.pending()
        assert first.findChild(QWidget, "reviewButton") is not None
        qtbot.keyClick(first, Qt.Key.Key_R, CTRL_SHIFT)
        review = window.review
        assert review.is_open() and review.card is first
        view = review.view
        assert view.title.text() == first.sentence.plain()
        assert view.is_pending() and not pane.isVisible()
        await until(lambda: view.isAncestorOf(_focus()), what="the diff has the keyboard")

        # Ctrl+Shift+D: side by side, the segment follows; the right side holds the new lines.
        qtbot.keyClick(_focus(), Qt.Key.Key_D, CTRL_SHIFT)
        assert view.diff.is_side_by_side() and view.split_button.isChecked()
        left, right = view.diff.panes()
        assert "line five" in right.toPlainText() and "line five" not in left.toPlainText()
        # Alt+Down / Alt+Up step through the two changes (wrapping around).
        qtbot.keyClick(_focus(), Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
        assert view.diff.current_change() == 0 and view.position.text() == "1 of 2"
        qtbot.keyClick(_focus(), Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
        assert view.position.text() == "2 of 2"
        qtbot.keyClick(_focus(), Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
        assert view.position.text() == "1 of 2"

        # Y approves THIS request; the review moves on to the other pending edit.
        qtbot.keyClick(_focus(), Qt.Key.Key_Y)
        await until(lambda: review.card is second, what="the next request under review")
        assert not first.is_pending()
        assert review.is_open() and view.is_pending()
        # N denies it; nothing is left, so the conversation comes back with the composer.
        qtbot.keyClick(_focus(), Qt.Key.Key_N)
        await until(lambda: not review.is_open(), what="review closed")
        assert window.current is pane and pane.isVisible()
        await until(lambda: _idle(pane), what="turn end")
        assert (driver.workspace() / "a.txt").read_text() == NEW
        assert (driver.workspace() / "b.txt").read_text() == OLD
        statuses = [card.item.status for card in _cards(pane)]
        assert statuses == [ToolStatus.SUCCEEDED, ToolStatus.DENIED]
        assert _focus() is pane.composer.editor

    driver.run(body(), 90)


def test_esc_returns_to_the_card_that_had_the_keyboard(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        window, pane = await _two_pending(driver, qtbot)
        first, second = pane.navigator.pending()
        qtbot.keyClick(first, Qt.Key.Key_Down)  # the second card has the keyboard
        assert second.hasFocus()
        button = second.findChild(QWidget, "reviewButton")
        assert button is not None
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert window.review.is_open() and window.review.card is second
        await until(lambda: window.review.view.isAncestorOf(_focus()), what="diff focused")
        qtbot.keyClick(_focus(), Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier)  # not a decision
        qtbot.keyClick(_focus(), Qt.Key.Key_Escape)
        assert not window.review.is_open() and pane.isVisible()
        assert second.hasFocus() and first.is_pending() and second.is_pending()
        assert pane.session.state == SessionState.AWAITING_APPROVAL

    driver.run(body(), 90)


def test_a_finished_diff_opens_with_its_files(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        window, pane = await _open(driver, {"turns": []})
        window.resize(1100, 760)  # room for the file list beside the diff (review.view)
        await until(pane.composer.editor.hasFocus, what="composer focused")
        diff = unified_diff(OLD, NEW, "src/a.txt") + unified_diff("", "x\ny\n", "docs/new.md")
        window.open_review(pane, diff, "Edited 2 files")
        view = window.review.view
        assert view.files.isVisible() and view.files.count() == 2
        assert not view.is_pending() and not view.approval.isVisible()
        await until(lambda: view.isAncestorOf(_focus()), what="diff focused")
        qtbot.keyClick(_focus(), Qt.Key.Key_Y)  # no request: Y decides nothing, and says nothing
        assert window.review.is_open()
        view.files.setCurrentRow(1)
        (pane_shown,) = view.diff.panes()
        row = view.diff.file_rows()[1]
        assert pane_shown.firstVisibleBlock().blockNumber() == row or (
            pane_shown.verticalScrollBar().value() == pane_shown.verticalScrollBar().maximum()
        )
        qtbot.keyClick(_focus(), Qt.Key.Key_Z, Qt.KeyboardModifier.AltModifier)
        assert view.wrap_button.isChecked() and view.diff.is_wrapped()
        qtbot.keyClick(_focus(), Qt.Key.Key_Escape)
        assert not window.review.is_open()
        assert _focus() is pane.composer.editor

    driver.run(body(), 90)
