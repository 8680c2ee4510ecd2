"""Window layout (issue 16): zoom, fitting the screen, the sidebar, menus, status words, 640 px.

Real windows (offscreen) with the fake agent; keys go through the menu actions' shortcuts.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QApplication, QLabel, QMenu, QPushButton, QWidget
from pytestqt.qtbot import QtBot

from desktop.core.events import SessionState
from desktop.ui import icons, startup_hints, window_state, zoom
from desktop.ui.status_bar import STATE_WORDS
from desktop.ui.window import WorkspaceWindow
from desktop.ui.window_state import Box, fit
from tests.ui.conftest import Driver
from tests.waiting import until


def _open(driver: Driver, scenario: dict[str, object], name: str = "ws") -> WorkspaceWindow:
    async def body() -> WorkspaceWindow:
        context = await driver.acontext(scenario)
        window = context.open_workspace(driver.workspace(name))
        pane = window.current
        assert pane is not None
        return window

    window: WorkspaceWindow = driver.run(body(), 30)
    return window


def _menu(window: WorkspaceWindow, title: str) -> QMenu:
    for action in window.menuBar().actions():
        if action.text().replace("&", "") == title and isinstance(action.menu(), QMenu):
            return action.menu()  # type: ignore[return-value]
    raise AssertionError(f"no menu {title}")


def _sizes(window: WorkspaceWindow) -> dict[str, float]:
    pane = window.current
    assert pane is not None
    sidebar = window.history.sidebar
    title = sidebar.findChild(QLabel, "workspaceName")
    assert title is not None
    return {
        "prompt": pane.composer.editor.font().pointSizeF(),
        "send": pane.composer.send.font().pointSizeF(),
        "status": window.status_labels["state"].font().pointSizeF(),
        "search": sidebar.search.font().pointSizeF(),
        "sidebar title": title.font().pointSizeF(),
        "heading": sidebar.heading.font().pointSizeF(),
    }


def test_zoom_grows_every_element_and_is_remembered(driver: Driver, qtbot: QtBot) -> None:
    window = _open(driver, {})
    window.show()
    before = _sizes(window)
    prompt_height = window.current.composer.editor.height()  # type: ignore[union-attr]
    actions = window.menus.actions
    assert actions["zoomIn"].shortcut() == QKeySequence("Ctrl+=")
    assert QKeySequence("Ctrl++") in actions["zoomIn"].shortcuts()
    assert actions["zoomOut"].shortcut() == QKeySequence("Ctrl+-")
    assert actions["zoomReset"].shortcut() == QKeySequence("Ctrl+0")
    driver.call(actions["zoomIn"].trigger)
    driver.call(actions["zoomIn"].trigger)
    assert zoom.level() == 1.25
    after = _sizes(window)
    for name, size in before.items():  # each element, not only the default font size
        assert after[name] == pytest.approx(size * 1.25, rel=0.03), name
    # The prompt keeps three lines of its (bigger) font.
    editor = window.current.composer.editor  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: editor.height() > prompt_height)
    assert editor.height() >= 3 * editor.fontMetrics().lineSpacing()
    assert "1.25" in str(startup_hints.store().value("view/zoom"))
    # A window opened later (another workspace) starts at the same zoom.
    other = _open(driver, {}, "other")
    assert _sizes(other)["prompt"] == after["prompt"]
    driver.call(actions["zoomReset"].trigger)
    assert zoom.level() == 1.0
    assert _sizes(window) == before
    driver.call(actions["zoomOut"].trigger)
    assert _sizes(window)["status"] < before["status"]
    driver.call(actions["zoomReset"].trigger)


def test_fit_clamps_to_the_screen() -> None:
    screen = Box(0, 0, 1920, 1040)
    # A stored geometry bigger than the screen (and partly off it) is cut and moved onto it.
    box = fit(Box(-300, 500, 4000, 3000), screen, frame=(2, 34))
    assert box.width <= 1918 and box.height <= 1006
    assert box.x >= 1 and box.y >= 33
    assert box.x + box.width <= 1920 and box.y + box.height <= 1040
    # QT_SCALE_FACTOR=2 on 1920x1080: 960x540 logical pixels; the default 1120x780 fits.
    small = Box(0, 0, 960, 540)
    box = fit(None, small, frame=(2, 34))
    assert box.width <= 958 and box.height <= 506
    assert box.x + box.width <= 960 and box.y + box.height <= 540
    # A geometry that fits is kept as it was.
    assert fit(Box(100, 100, 800, 600), screen, frame=(0, 0)) == Box(100, 100, 800, 600)


def test_window_geometry_is_remembered_per_workspace_and_clamped(driver: Driver) -> None:
    folder = driver.workspace("big")
    area = QGuiApplication.primaryScreen().availableGeometry()
    window_state.remember_geometry(folder, Box(-50, -50, area.width() * 3, area.height() * 3))
    window = _open(driver, {}, "big")
    geometry = window.geometry()
    assert geometry.width() <= area.width() and geometry.height() <= area.height()
    assert geometry.left() >= area.left() and geometry.top() >= area.top()
    window.setGeometry(geometry.x() + 10, geometry.y() + 10, 700, 500)

    async def close() -> None:
        window.close()
        await until(lambda: window._closed_done, what="window closed")

    driver.run(close())
    stored = window_state.stored_geometry(folder)
    assert stored is not None and (stored.width, stored.height) == (700, 500)
    again = _open(driver, {}, "big")
    assert (again.width(), again.height()) == (700, 500)
    assert window_state.stored_geometry(driver.workspace("never")) is None


def test_sidebar_collapses_and_the_choice_is_remembered(driver: Driver, qtbot: QtBot) -> None:
    window = _open(driver, {})
    window.show()
    sidebar = window.history.sidebar
    action = window.menus.actions["sidebar"]
    assert action.shortcut() == QKeySequence("Ctrl+B") and action in _menu(window, "View").actions()
    assert sidebar.isVisible() and action.isChecked()
    window.history.focus_search()
    driver.call(action.trigger)
    assert not sidebar.isVisible() and not action.isChecked()
    pane = window.current
    assert pane is not None
    qtbot.waitUntil(lambda: pane.composer.editor.hasFocus() or not window.isActiveWindow())
    assert not window_state.sidebar_visible()
    other = _open(driver, {}, "other")  # a new window follows the choice
    assert not other.history.sidebar.isVisibleTo(other)
    # Edit ▸ Find in Conversations shows the sidebar again, with the cursor in its search field.
    driver.call(window.menus.actions["findEverywhere"].trigger)
    assert sidebar.isVisible() and action.isChecked()
    assert window_state.sidebar_visible()


def test_menus_follow_desktop_conventions(driver: Driver) -> None:
    window = _open(driver, {})
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert titles == ["File", "Edit", "View", "Conversation", "Window", "Help"]
    file_texts = [a.text() for a in _menu(window, "File").actions()]
    assert not any("Settings" in text for text in file_texts)  # not under Quit any more
    edit = _menu(window, "Edit")
    names = [a.objectName() for a in edit.actions() if not a.isSeparator()]
    assert names == [
        "undoAction",
        "redoAction",
        "cutAction",
        "copyAction",
        "pasteAction",
        "selectAllAction",
        "findAction",
        "findNextAction",
        "findPreviousAction",
        "findEverywhereAction",
        "preferencesAction",
    ]
    settings = window.menus.actions["preferences"]
    assert settings.menuRole() == QAction.MenuRole.PreferencesRole
    assert settings.shortcut() == QKeySequence("Ctrl+,")
    assert settings.isEnabled()  # connected by the Settings add-on
    assert window.menus.actions["undo"].shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    assert window.menus.actions["find"].shortcut() == QKeySequence(QKeySequence.StandardKey.Find)
    assert window.menus.actions["findNext"].shortcuts()[0] == QKeySequence("F3")
    assert window.menus.actions["findPrevious"].shortcuts()[0] == QKeySequence("Shift+F3")
    assert window.menus.actions["findEverywhere"].shortcut() == QKeySequence("Ctrl+Shift+F")


def test_edit_actions_work_on_the_focused_field(driver: Driver, qtbot: QtBot) -> None:
    window = _open(driver, {})
    window.show()
    qtbot.waitExposed(window)
    editor = window.current.composer.editor  # type: ignore[union-attr]
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus)
    qtbot.keyClicks(editor, "hello world")
    actions = window.menus.actions
    driver.call(actions["selectAll"].trigger)
    driver.call(actions["cut"].trigger)
    assert editor.toPlainText() == ""
    driver.call(actions["paste"].trigger)
    driver.call(actions["paste"].trigger)
    assert editor.toPlainText() == "hello worldhello world"
    driver.call(actions["undo"].trigger)
    assert editor.toPlainText() == "hello world"
    driver.call(actions["redo"].trigger)
    assert editor.toPlainText() == "hello worldhello world"
    editor.clear()


def test_status_bar_speaks_in_words(driver: Driver) -> None:
    assert set(STATE_WORDS) == {state.value for state in SessionState}
    write = {"tool": {"name": "Write", "args": {"file_path": "a.txt", "content": "a"}}}
    window = _open(driver, {"turns": [[write, {"text": "done"}]]})
    pane = window.current
    assert pane is not None
    labels = window.status_labels
    assert labels["state"].text() == "The agent starts with your first message"
    assert labels["mode"].text() == "Ask every time"

    async def ask() -> None:
        pane.composer.editor.setPlainText("write it")
        pane.composer.send.click()
        await until(lambda: labels["state"].text() == "Waiting for your approval", what="pending")

    driver.run(ask())
    shown = " ".join(label.text() for label in labels.values())
    assert not any(state.value in shown for state in SessionState if "_" in state.value)
    assert "State:" not in shown and "Mode:" not in shown


def test_640_px_wide_no_button_is_cut(driver: Driver, qtbot: QtBot) -> None:
    window = _open(driver, {})
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    assert icons.load(app)  # as the app does after its first paint
    window.show()
    qtbot.waitExposed(window)
    window.resize(640, 560)
    pane = window.current
    assert pane is not None
    composer = pane.composer
    qtbot.waitUntil(lambda: window.width() == 640 and composer.compact)
    assert window.history.sidebar.isVisible()
    buttons: list[QWidget] = [
        b for b in composer.findChildren(QPushButton) if b.isVisible()
    ]  # with their icons, as in the app; icon-only ones included (never squeezed either)
    buttons.append(composer.mode)

    def uncut() -> bool:  # as wide as its text needs: never "tach" or "Senc"
        return all(
            b.width() >= b.sizeHint().width() and b.geometry().right() <= composer.width()
            for b in buttons
        )

    qtbot.waitUntil(uncut)
    assert composer.attach.accessibleName() == "Attach files"
    window.resize(1100, 700)
    qtbot.waitUntil(lambda: not composer.compact)
    assert composer.attach.text() == "Attach…"
    assert composer.stop.text()  # the labels are back
    assert composer.mode.text().startswith("Ask every time")


def test_window_never_opens_bigger_than_the_screen(driver: Driver) -> None:
    window = _open(driver, {})
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert window.width() <= area.width() and window.height() <= area.height()
    assert window.minimumWidth() <= 640
