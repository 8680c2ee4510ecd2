"""A plug-in's composer button follows the compact rule, whenever it is added.

A narrow composer shows its buttons as icons alone (tooltip and accessible name kept). A
button added by a window plug-in while the composer is already compact ("Suggest" in a window
opened narrow) must do the same, although its icon is given after it is added.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.ui import icons
from desktop.ui.composer import Composer
from desktop.ui.icons import Icon, decorate


def _narrow_composer(qtbot: QtBot, tmp_path: Path) -> Composer:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    assert icons.load(app)  # as the app does after its first paint
    composer = Composer(tmp_path)
    qtbot.addWidget(composer)
    composer.setFixedSize(1000, 160)  # a size the window gives it, below its row's width too
    composer.show()
    qtbot.waitExposed(composer)
    return composer


def test_a_button_added_while_compact_shows_its_icon_alone(qtbot: QtBot, tmp_path: Path) -> None:
    composer = _narrow_composer(qtbot, tmp_path)
    composer.setFixedWidth(330)
    qtbot.waitUntil(lambda: composer.compact, timeout=15_000)
    button = composer.add_action(
        "suggest", "Suggest", accessible="Suggest next prompt", tip="Ask for a next prompt"
    )
    decorate(button, Icon.SUGGEST, role="muted")  # as the window's plug-in does, after adding
    assert not button.icon().isNull()
    assert button.text() == ""  # its icon alone, like Stop
    assert button.accessibleName() == "Suggest next prompt"
    assert button.toolTip() == "Ask for a next prompt"
    composer.setFixedWidth(1000)  # wide again: every label is back, this one's too
    qtbot.waitUntil(lambda: not composer.compact, timeout=15_000)
    assert button.text() == "Suggest"
    assert composer.stop.text() == "Stop"


def test_a_button_added_to_a_full_row_makes_it_compact(qtbot: QtBot, tmp_path: Path) -> None:
    composer = _narrow_composer(qtbot, tmp_path)
    composer.setFixedWidth(composer.sizeHint().width() + 30)
    qtbot.waitUntil(lambda: composer.width() < 1000 and not composer.compact, timeout=15_000)
    button = composer.add_action(  # a label that no longer fits beside the others
        "extra", "A long plug-in label", accessible="Extra", tip="Extra"
    )
    decorate(button, Icon.SUGGEST, role="muted")
    qtbot.waitUntil(lambda: composer.compact, timeout=15_000)
    assert button.text() == "" and composer.stop.text() == ""
    row = button.parentWidget()
    assert row is not None
    qtbot.waitUntil(  # laid out: nothing cut, nothing outside the frame
        lambda: all(
            b.geometry().right() <= row.contentsRect().right() and b.width() >= b.sizeHint().width()
            for b in (button, composer.stop, composer.send, composer.attach)
        ),
        timeout=15_000,
    )
