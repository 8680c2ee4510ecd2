"""The sidebar from the keyboard in a real window: the Undo bar never cuts a title, Ctrl+Z
undoes a deletion while the bar is up, Esc clears the search and then leaves it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.core.events import SessionState
from desktop.core.history import HistoryStore
from desktop.ui.window import WorkspaceWindow
from tests.ui.conftest import Driver, _shutdown
from tests.waiting import until

LONG_TITLE = "Theme: draft the dark palette for every widget and dialog, then check contrast"


def _titles(window: WorkspaceWindow) -> list[str]:
    store = HistoryStore()
    try:
        return [c.title for c in store.list_conversations(window.workspace)]
    finally:
        store.close()


def _focused() -> object:
    return QApplication.focusWidget()


def test_undo_bar_elides_and_ctrl_z_restores(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context = await driver.acontext({})
        window = context.open_workspace(driver.workspace())
        engine = window.history.engine
        assert engine is not None
        window.resize(900, 640)
        window.show()
        window.activateWindow()
        pane = window.current
        assert pane is not None
        pane.submit(LONG_TITLE, [])
        await until(lambda: pane.session.state == SessionState.IDLE, what="answered")
        await until(lambda: _titles(window) == [LONG_TITLE], what="stored")
        await until(lambda: any(e.stored for e in engine.entries), what="listed")
        sidebar = window.history.sidebar
        changes: list[bool] = []
        sidebar.can_undo_changed.connect(changes.append)
        assert not sidebar.can_undo and not sidebar.undo_delete()
        entry = next(e for e in engine.entries if e.stored)
        engine.actions.ask_delete(entry)
        qtbot.keyClick(sidebar.confirm.delete, Qt.Key.Key_Return)
        await until(lambda: _titles(window) == [], what="deleted")
        await until(lambda: sidebar.can_undo, what="undo offered")
        bar = sidebar.undo
        await until(lambda: _focused() is sidebar.list, what="the list keeps the keys")
        # The whole title is in the tooltip; the line shows both of its ends, within the bar.
        line = bar.message
        assert line.full_text == f"Deleted “{LONG_TITLE}”"
        await until(lambda: line.text().startswith("“Theme:"), what=line.text())
        shown = line.text()
        assert shown.startswith("“Theme:") and shown.endswith("trast”"), shown
        assert bar.hint.text() == "Deleted"
        assert "…" in shown
        assert line.fontMetrics().horizontalAdvance(shown) <= line.contentsRect().width()
        assert line.geometry().right() < bar.dismiss.geometry().left()
        assert changes == [True]
        # Ctrl+Z (a real key press to the focused list) brings the conversation back.
        qtbot.keyClick(sidebar.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        await until(lambda: _titles(window) == [LONG_TITLE], what="restored by Ctrl+Z")
        await until(lambda: not sidebar.can_undo, what="bar gone")
        assert changes == [True, False]
        # With the bar gone, Ctrl+Z does nothing to the history.
        qtbot.keyClick(sidebar.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert not sidebar.undo_delete()
        assert _titles(window) == [LONG_TITLE]
        await _shutdown(context)

    driver.run(body(), 90)


def test_esc_clears_the_search_then_returns_to_the_composer(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context = await driver.acontext({})
        window = context.open_workspace(driver.workspace())
        window.show()
        window.activateWindow()
        pane = window.current
        assert pane is not None
        sidebar = window.history.sidebar
        window.history.focus_search()
        await until(lambda: _focused() is sidebar.search, what="search focused")
        qtbot.keyClicks(sidebar.search, "palette")
        await until(lambda: sidebar.searching, what="searching")
        qtbot.keyClick(sidebar.search, Qt.Key.Key_Escape)
        assert sidebar.search.text() == ""
        await until(lambda: not sidebar.searching, what="back to the list")
        assert _focused() is sidebar.search  # the first Esc only clears
        qtbot.keyClick(sidebar.search, Qt.Key.Key_Escape)
        await until(lambda: _focused() is pane.composer.editor, what="composer focused")
        await _shutdown(context)

    driver.run(body(), 60)
