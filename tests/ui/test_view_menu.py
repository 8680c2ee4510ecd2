"""View menu and window loose ends (issue 16): View ▸ Theme saves the choice, the Appearance font
size grows every element (as zoom does), View ▸ Review Changes, the review's file list folds in
a narrow window, a maximized window opens maximized again.

Real windows (offscreen) with the fake agent; menu items are triggered as a click would.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from desktop.core.previews import unified_diff
from desktop.core.settings import Theme
from desktop.ui import theme, window_state, zoom
from desktop.ui.review.view import FILES_MIN_WIDTH
from desktop.ui.window import WorkspaceWindow
from tests.ui.conftest import Driver
from tests.ui.test_review import NEW, OLD, _two_pending
from tests.ui.test_window_layout import _menu, _open, _sizes
from tests.waiting import until


def test_view_theme_saves_the_choice_and_restyles(driver: Driver) -> None:
    window = _open(driver, {})
    store = window.host.settings
    menu = window.menus.theme
    assert menu.title().replace("&", "") == "Theme"
    assert menu.menuAction() in _menu(window, "View").actions()
    names = [a.objectName() for a in menu.actions()]
    assert names == ["themeLightAction", "themeDarkAction", "themeSystemAction"]
    for name, choice, colours in (
        ("themeDark", Theme.DARK, theme.DARK),
        ("themeLight", Theme.LIGHT, theme.LIGHT),
    ):
        driver.call(window.menus.actions[name].trigger)
        assert store.settings.appearance.theme == choice
        assert theme.applied() == colours
        menu.aboutToShow.emit()
        assert [a.isChecked() for a in menu.actions()] == [
            choice == Theme.LIGHT,
            choice == Theme.DARK,
            False,
        ]
    driver.call(window.menus.actions["themeSystem"].trigger)
    assert store.settings.appearance.theme == Theme.SYSTEM
    assert window.menus.actions["themeSystem"].isChecked()
    driver.call(window.menus.actions["themeLight"].trigger)


def test_font_size_grows_every_element(driver: Driver) -> None:
    window = _open(driver, {})
    window.show()
    store = window.host.settings
    before = _sizes(window)

    def font_size(points: int) -> None:
        settings = store.settings
        appearance = settings.appearance.model_copy(update={"font_size": points})
        store.save(settings.model_copy(update={"appearance": appearance}), "appearance")

    driver.call(lambda: font_size(15))
    assert zoom.factor() == pytest.approx(15 / zoom.DEFAULT_FONT_PT)
    after = _sizes(window)
    for name, size in before.items():  # the prompt, the status bar, headers: not only text
        assert after[name] == pytest.approx(size * 15 / 11, rel=0.03), name
    driver.call(lambda: font_size(zoom.DEFAULT_FONT_PT))
    assert _sizes(window) == before


def test_review_changes_opens_the_first_pending_edit_or_says_none(
    driver: Driver, qtbot: QtBot
) -> None:
    async def body() -> None:
        window, pane = await _two_pending(driver, qtbot)
        action = window.menus.actions["review"]
        assert action.shortcut() == QKeySequence("Ctrl+Shift+R")
        pane.composer.editor.setFocus()
        action.trigger()
        first = pane.navigator.pending()[0]
        assert window.review.is_open() and window.review.card is first
        window.review.close()
        for card in list(pane.navigator.pending()):
            card.deny()
        await until(lambda: not pane.navigator.pending(), what="decided")
        action.trigger()
        assert not window.review.is_open()
        assert window.statusBar().currentMessage().startswith("Nothing to review")

    driver.run(body(), 90)


def test_review_file_list_folds_in_a_narrow_window(driver: Driver) -> None:
    window = _open(driver, {})
    window.show()
    pane = window.current
    assert pane is not None
    diff = unified_diff(OLD, NEW, "src/a.txt") + unified_diff("", "x\n", "docs/new.md")
    window.resize(1100, 700)
    driver.call(lambda: window.open_review(pane, diff, "Edited 2 files"))
    view = window.review.view
    driver.run(until(lambda: view.width() >= FILES_MIN_WIDTH, what="wide"))
    assert view.files.isVisible()
    window.resize(700, 600)  # the sidebar takes a third: the review is too narrow for both
    driver.run(until(lambda: view.width() < FILES_MIN_WIDTH, what="narrow"))
    assert not view.files.isVisible()
    driver.run(until(lambda: view.diff.width() >= view.width() - 2, what="the diff has it all"))
    window.show_sidebar(False)  # the same window, the review has the width again
    driver.run(until(lambda: view.width() >= FILES_MIN_WIDTH, what="wide again"))
    assert view.files.isVisible()
    window.show_sidebar(True)


def test_a_maximized_window_opens_maximized(driver: Driver) -> None:
    window = _open(driver, {}, "max")
    window.resize(760, 520)
    window.show()
    normal = window.geometry()
    window.showMaximized()
    driver.run(until(window.isMaximized, what="maximized"))
    _close(driver, window)
    assert window_state.stored_maximized(driver.workspace("max"))
    stored = window_state.stored_geometry(driver.workspace("max"))
    assert stored is not None and (stored.width, stored.height) == (normal.width(), normal.height())
    again = _open(driver, {}, "max")
    assert again.windowState() & Qt.WindowState.WindowMaximized
    again.showNormal()
    driver.run(until(lambda: not again.isMaximized(), what="restored"))
    _close(driver, again)
    assert not window_state.stored_maximized(driver.workspace("max"))


def _close(driver: Driver, window: WorkspaceWindow) -> None:
    async def close() -> None:
        window.close()
        await until(lambda: window._closed_done, what="window closed")

    driver.run(close())
