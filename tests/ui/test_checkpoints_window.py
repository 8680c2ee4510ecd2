"""Review and restore in the window through real parts: the fake aionrs agent writes, edits
and deletes files with its Write and Bash tools in a real workspace, the window's checkpoint
recorder records the real store, and the user reviews the turn (per-hunk revert and undo),
restores to before it (plan, once asked, then Undo restore), and sees Restore refused while a
turn runs; a conversation reopened from history shows its turns' changes again.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from desktop.core.checkpoints.model import CheckpointKind
from desktop.core.entries import TurnEndItem
from desktop.core.events import SessionState
from desktop.ui.checkpoints.summary import ChangesSummary
from desktop.ui.pane import ConversationPane
from desktop.ui.window import WorkspaceWindow
from tests.ui.conftest import Driver
from tests.waiting import until

OLD = "".join(f"line {i}\n" for i in range(1, 41))
NEW = OLD.replace("line 5\n", "line five\n").replace("line 30\n", "line thirty\n")
HALF = OLD.replace("line 30\n", "line thirty\n")  # NEW with its first hunk reverted
CTRL_ALT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier


def _tool(name: str, args: dict[str, object]) -> dict[str, object]:
    return {"tool": {"name": name, "args": args}}


SCENARIO = {
    "turns": [
        [
            _tool("Write", {"file_path": "a.txt", "content": NEW}),
            _tool("Bash", {"command": "rm b.txt && mkdir made && echo hi > made/new.txt"}),
            {"text": "done"},
        ],
        [{"sleep": 1.5}, {"text": "thinking done"}],
    ]
}


def _focus() -> QWidget | None:
    return QApplication.focusWidget()


def _idle(pane: ConversationPane) -> bool:
    return pane.session.state == SessionState.IDLE and pane.session.active_turn is None


def _summaries(pane: ConversationPane) -> list[ChangesSummary]:
    return [w for _k, w in pane.view.extras if isinstance(w, ChangesSummary)]


async def _first_turn(
    driver: Driver, qtbot: QtBot
) -> tuple[WorkspaceWindow, ConversationPane, Path]:
    context = await driver.acontext(SCENARIO)
    folder = driver.workspace()
    (folder / "a.txt").write_text(OLD)
    (folder / "b.txt").write_text(OLD)
    window = context.open_workspace(folder)
    window.resize(1200, 800)
    window.show()
    window.activateWindow()
    pane = window.current
    assert pane is not None
    # The history names the conversation once its database is open; the recorder records under
    # that name, so the prompt goes once it is open (as when a person types it).
    await until(
        lambda: window.history.engine is not None and window.history.engine.service.writer,
        15,
        what="history open",
    )
    pane.composer.editor.setPlainText("change the files")
    qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)
    # Each edit and command is approved (the default mode) once the state before the turn is
    # recorded: the fake agent acts within milliseconds of the prompt, a real one does not.
    store = pane.checkpoints.store
    await until(lambda: pane.checkpoints.conversation_id, 15, what="stored conversation")
    conversation = pane.checkpoints.conversation_id
    assert conversation is not None
    await until(
        lambda: [c.kind for c in store.checkpoints(conversation)] == [CheckpointKind.TURN_BEFORE],
        15,
        what="the turn's before-state",
    )
    for _request in range(2):
        await until(lambda: pane.navigator.pending(), 15, what="a request")
        pane.navigator.pending()[0].approve_once()
    await until(lambda: _summaries(pane), 30, what="the turn's Changes card")
    await until(lambda: _idle(pane), 15, what="turn end")
    return window, pane, folder


def test_turn_changes_review_revert_hunk_and_undo(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        window, pane, folder = await _first_turn(driver, qtbot)
        (summary,) = _summaries(pane)
        assert summary.turn == 1
        assert summary.title.text() == "Changes · 3 files"
        assert summary.names.text() == "a.txt, b.txt, new.txt"
        assert summary.restore.isEnabled()

        summary.review.click()
        review = window.review
        view = review.view
        assert review.is_open() and view.revert.isVisible()
        assert [f.path for f in view.diff.model.files] == ["a.txt", "b.txt", "made/new.txt"]
        assert view.title.text().startswith("Turn 1 · 3 files")
        await until(lambda: view.isAncestorOf(_focus()), what="the diff has the keyboard")
        # Alt+Shift+Down: a.txt's first hunk; Ctrl+Alt+Z reverts just that hunk.
        qtbot.keyClick(_focus(), Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier
                       | Qt.KeyboardModifier.ShiftModifier)  # fmt: skip
        assert view.revert.position() == (0, 0)
        qtbot.keyClick(_focus(), Qt.Key.Key_Z, CTRL_ALT)
        await until(lambda: (folder / "a.txt").read_text() == HALF, what="hunk reverted")
        await until(lambda: view.revert.undo_button.isEnabled(), what="undo offered")
        assert view.revert.status.text() == "Reverted hunk 1 of a.txt"
        # Ctrl+Z puts the hunk back.
        qtbot.keyClick(_focus(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: (folder / "a.txt").read_text() == NEW, what="revert undone")
        await until(lambda: view.revert.status.text() == "Revert undone", what="said")
        # F8 twice: made/new.txt; Ctrl+Alt+Shift+Z reverts the whole file (it goes away).
        qtbot.keyClick(_focus(), Qt.Key.Key_F8)
        qtbot.keyClick(_focus(), Qt.Key.Key_F8)
        assert view.revert.position()[0] == 2
        qtbot.keyClick(_focus(), Qt.Key.Key_Z, CTRL_ALT | Qt.KeyboardModifier.ShiftModifier)
        await until(lambda: not (folder / "made" / "new.txt").exists(), what="file reverted")
        qtbot.keyClick(_focus(), Qt.Key.Key_Escape)
        assert not review.is_open() and pane.isVisible()

        # View ▸ Review Conversation Changes (Ctrl+Alt+R): what is left since the start.
        window.menus.actions["reviewConversation"].trigger()
        await until(review.is_open, what="conversation review")
        assert view.title.text().startswith("This conversation · 2 files")
        assert not view.revert.hunk_button.isVisible()

    driver.run(body(), 120)


def test_restore_asks_once_then_undo_restore(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        _window, pane, folder = await _first_turn(driver, qtbot)
        (folder / "a.txt").write_text(NEW + "mine\n")  # the user edits after the turn
        (summary,) = _summaries(pane)
        summary.restore.click()
        bar = pane.findChild(QWidget, "restoreBar")
        assert bar is not None
        await until(lambda: bar.confirm.isVisible(), what="the plan")  # type: ignore[attr-defined]
        details = bar.details.text()  # type: ignore[attr-defined]
        assert "a.txt</code> changes back — <b>edited after this turn</b>" in details
        assert "b.txt</code> comes back" in details
        assert (folder / "a.txt").read_text() == NEW + "mine\n"  # nothing happened yet
        await until(lambda: bar.confirm.hasFocus(), what="Restore has the keyboard")  # type: ignore[attr-defined]
        qtbot.keyClick(bar.confirm, Qt.Key.Key_Return)  # type: ignore[attr-defined]
        await until(lambda: bar.undo.isVisible(), what="restored")  # type: ignore[attr-defined]
        assert (folder / "a.txt").read_text() == OLD
        assert (folder / "b.txt").read_text() == OLD
        assert not (folder / "made" / "new.txt").exists()
        assert bar.title.text().startswith("Restored")  # type: ignore[attr-defined]
        bar.undo.click()  # type: ignore[attr-defined]
        made = folder / "made" / "new.txt"

        def undone() -> bool:  # the undo writes the files one after another
            a_back = (folder / "a.txt").read_text() == NEW + "mine\n"
            return a_back and not (folder / "b.txt").exists() and made.exists()

        await until(undone, what="undone: a.txt as it was, b.txt gone, made/new.txt back")
        assert made.read_text() == "hi\n"
        await until(lambda: bar.title.text().startswith("Restore undone"), what="said")  # type: ignore[attr-defined]

        # While a turn runs, Restore is refused (disabled, and the tooltip says why).
        pane.composer.editor.setPlainText("think a while")
        qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)
        await until(lambda: not summary.restore.isEnabled(), what="refused while busy")
        assert "Stop the running turn" in summary.restore.toolTip()
        await until(lambda: _idle(pane), 20, what="second turn end")
        await until(summary.restore.isEnabled, what="allowed again")

    driver.run(body(), 120)


def test_a_reopened_conversation_shows_its_turns_changes(driver: Driver, qtbot: QtBot) -> None:
    async def first() -> Path:
        _window, _pane, folder = await _first_turn(driver, qtbot)
        return folder

    folder = driver.run(first(), 90)
    driver.close_all()

    async def reopen() -> None:
        context = await driver.acontext({"turns": []})
        window = context.open_workspace(folder)
        window.show()
        engine = window.history.engine
        assert engine is not None
        await until(lambda: any(e.stored for e in engine.entries), 15, what="listed")
        pane = await engine.open_stored(next(e for e in engine.entries if e.stored))
        assert pane is not None
        await until(lambda: _summaries(pane), 15, what="the stored turn's Changes card")
        (summary,) = _summaries(pane)
        assert summary.turn == 1 and summary.title.text() == "Changes · 3 files"
        # Below the turn it belongs to: after the turn's answer, before the reopening notice.
        keys = [key for key, widget in pane.view.extras if isinstance(widget, ChangesSummary)]
        turn_end = next(i.key for i in pane.transcript.items if isinstance(i, TurnEndItem))
        assert keys == [turn_end]  # (the turn's usage line is below the same entry)
        summary.restore.click()
        bar = pane.findChild(QWidget, "restoreBar")
        assert bar is not None
        await until(lambda: bar.confirm.isVisible(), 15, what="the plan")  # type: ignore[attr-defined]
        assert "b.txt</code> comes back" in bar.details.text()  # type: ignore[attr-defined]

    driver.run(reopen(), 90)
