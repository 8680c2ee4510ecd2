"""Themes in a real window: Settings ▸ Appearance restyles everything from one palette, live.

The issue saw Theme = dark chosen in Settings give dark-on-dark conversation titles, a white
search box, light grey code blocks and a half-light Settings dialog: widgets that asked the
desktop's scheme instead of the setting. These tests switch the setting as the Settings dialog
saves it and look at the pixels the widgets really paint; they also check the next start
paints its first frame in the chosen theme, and that "system" follows the desktop's changes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QImage, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QLineEdit,
    QListWidget,
    QPushButton,
    QTextBrowser,
    QWidget,
)

from desktop.core.events import SessionState
from desktop.core.settings import Theme
from desktop.ui import icons, palette, theme
from desktop.ui.app import AppContext
from desktop.ui.settings.appearance import choose_theme
from desktop.ui.sidebar.lists import ConversationList
from desktop.ui.window import WorkspaceWindow
from tests.ui.conftest import Driver
from tests.waiting import until

ANSWER = "Plan:\n\n```python\ndef main() -> int:\n    return 0\n```\n\nDone."


@pytest.fixture(autouse=True)
def _system_theme_after(qapp: QApplication) -> Iterator[None]:
    """Leave the next test the theme it expects (the choice is process-wide)."""
    yield
    theme.choose(theme.Choice.SYSTEM)
    theme.apply(qapp)


def _image(widget: QWidget) -> QImage:
    """What ``widget`` looks like on screen: its window rendered, cut to the widget."""
    window = widget.window()
    where = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    return window.grab(where).toImage()


def _lightness(image: QImage) -> float:
    """Mean lightness (0–255) over a grid of the image's pixels."""
    points = [
        image.pixelColor(x, y).lightness()
        for x in range(0, image.width(), 3)
        for y in range(0, image.height(), 3)
    ]
    return sum(points) / len(points)


def _has_text_in(image: QImage, colours: theme.Palette) -> bool:
    """Whether glyphs in the palette's text colour are painted (light ones on dark, dark ones
    on light): what "titles dark on dark" lacked."""
    target = QColor(colours.text)
    return any(
        abs(image.pixelColor(x, y).lightness() - target.lightness()) < 25
        for x in range(image.width())
        for y in range(image.height())
    )


def _answers(window: WorkspaceWindow) -> list[QTextBrowser]:
    """The rendered answers with the code block."""
    found = window.findChildren(QTextBrowser)
    return [v for v in found if v.objectName() == "markdown" and "def main" in v.toPlainText()]


async def _check(
    context: AppContext,
    window: WorkspaceWindow,
    colours: theme.Palette,
    before: list[QTextBrowser],
) -> None:
    """``before``: the answers rendered before the theme changed."""
    assert QApplication.palette().color(QPalette.ColorRole.Window).name() == colours.window
    # the conversations list: its background and its titles
    rows = window.findChild(ConversationList, "sidebarList")
    assert rows is not None
    await until(lambda: rows.count() > 0, what="a conversation listed")
    listed = _image(rows.viewport())
    assert listed.pixelColor(listed.width() - 3, listed.height() - 3).name() == colours.sidebar
    assert _has_text_in(listed, colours), "conversation titles in the palette's text colour"
    # the search box (it had its own sheet, formatted once with the system's colours)
    search = window.findChild(QLineEdit, "sidebarSearch")
    assert search is not None
    box = _image(search)
    assert box.pixelColor(box.width() - 16, box.height() // 2).name() == colours.window

    # the code block of the answer rendered in this theme: the whole answer reads dark or light
    def new() -> list[QTextBrowser]:
        return [v for v in _answers(window) if v not in before]

    await until(new, what="the answer rendered")
    shade = _lightness(_image(new()[0]))
    assert (shade < 90) if colours.dark else (shade > 170), shade
    # the Settings dialog: its page list and page names
    addons = context.addons_for(window.workspace)
    assert addons is not None
    dialog = addons.open_settings()
    nav = dialog.findChild(QListWidget, "settingsNav")
    assert nav is not None
    await until(nav.isVisible, what="settings shown")
    pages = _image(nav.viewport())
    assert pages.pixelColor(pages.width() // 2, pages.height() - 6).name() == colours.sidebar
    assert _has_text_in(pages, colours), "page names in the palette's text colour"
    shade = _lightness(_image(dialog))
    assert (shade < 90) if colours.dark else (shade > 170), shade
    dialog.close()


async def _answer(window: WorkspaceWindow, prompt: str) -> None:
    """Send ``prompt`` and wait for its answer, rendered, and the agent idle again."""
    pane = window.current
    assert pane is not None
    answered = len(_answers(window))
    pane.submit(prompt, [])
    await until(
        lambda: (
            len(_answers(window)) > answered
            and pane.session.state == SessionState.IDLE
            and pane.session.active_turn is None
        ),
        what=f"the answer to {prompt}",
    )


def test_the_theme_setting_styles_every_widget_and_dialog_live(driver: Driver) -> None:
    scenario = {"turns": [[{"text": ANSWER}], [{"text": ANSWER}], [{"text": ANSWER}]]}

    async def body() -> None:
        context = await driver.acontext(scenario)
        window = context.open_workspace(driver.workspace())
        window.resize(1100, 760)
        await until(lambda: window.current is not None, what="a conversation")
        await _answer(window, "first")
        for choice, colours in ((Theme.DARK, theme.DARK), (Theme.LIGHT, theme.LIGHT)):
            # AGENTDESK_THEME=light (the test set-up): the setting wins over it
            before = _answers(window)
            choose_theme(context.settings, choice)
            assert theme.applied() == colours
            await _answer(window, f"in {choice}")  # a new answer renders in the new theme
            await _check(context, window, colours, before)

    driver.run(body(), 60)


def test_the_next_start_paints_in_the_chosen_theme(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop.ui import startup

    context = driver.context({"turns": []})
    driver.open(context, driver.workspace())
    driver.call(choose_theme, context.settings, Theme.DARK)
    assert startup.remembered_theme() == "dark"  # kept as a start-up hint
    theme.choose(theme.Choice.SYSTEM)
    theme.apply(driver.qapp)
    assert theme.applied() == theme.LIGHT  # AGENTDESK_THEME=light
    startup.make_application(icon=False)  # what the next start does before its first window
    assert theme.applied() == theme.DARK
    assert driver.qapp.palette().color(QPalette.ColorRole.Window).name() == theme.DARK.window


def test_system_follows_the_desktop_scheme_live(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The platform plugins here cannot change the scheme, so the desktop's answer is
    simulated and the change signal emitted as Qt emits it."""
    monkeypatch.delenv("AGENTDESK_THEME")
    desktop_dark = [False]
    monkeypatch.setattr(palette, "_asks_dark", lambda: desktop_dark[0])
    theme.choose(theme.Choice.SYSTEM)
    theme.confirm_scheme(qapp)  # as start-up does: from now on the desktop is followed
    assert theme.applied() == theme.LIGHT
    hints = QGuiApplication.styleHints()
    desktop_dark[0] = True
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert theme.applied() == theme.DARK
    assert qapp.palette().color(QPalette.ColorRole.Base).name() == theme.DARK.window
    theme.choose(theme.Choice.LIGHT)  # a fixed choice is not overridden by the desktop
    theme.apply(qapp)
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert theme.applied() == theme.LIGHT


def test_icons_follow_the_theme(qapp: QApplication) -> None:
    button = QPushButton("Send")
    icons.decorate(button, icons.Icon.SEND)
    assert icons.load(qapp)
    assert not button.icon().isNull()

    def ink(colours: theme.Palette) -> QColor:
        theme.choose(theme.Choice.DARK if colours.dark else theme.Choice.LIGHT)
        theme.apply(qapp)
        image = button.icon().pixmap(32, 32).toImage()
        opaque = [
            image.pixelColor(x, y)
            for x in range(32)
            for y in range(32)
            if image.pixelColor(x, y).alpha() == 255
        ]
        assert opaque, "the glyph is drawn"
        return opaque[0]

    assert ink(theme.DARK).name() == theme.DARK.text
    assert ink(theme.LIGHT).name() == theme.LIGHT.text
    # Drawn once per size and colour: a repaint (every frame of a stream) draws no glyph.
    assert button.icon().pixmap(32, 32).cacheKey() == button.icon().pixmap(32, 32).cacheKey()
    button.setEnabled(False)
    disabled = button.icon().pixmap(32, 32, QIcon.Mode.Disabled).toImage()
    assert any(
        disabled.pixelColor(x, y).name() == theme.LIGHT.muted for x in range(32) for y in range(32)
    )
