"""Help ▸ About shows the version; the application has its icon."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from desktop import __version__
from desktop.ui.about import about_text, app_icon, show_about
from desktop.ui.startup import make_application


def test_about_box_shows_the_version_and_folders(qtbot: QtBot) -> None:
    make_application()
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    box = show_about(parent)
    qtbot.waitUntil(box.isVisible)
    assert f"Agent Desk {__version__}" in box.text()
    assert "Settings:" in about_text()
    assert isinstance(box, QMessageBox)
    box.close()


def test_application_icon_is_set() -> None:
    app = make_application()
    assert not app_icon().isNull()
    assert not QApplication.windowIcon().isNull()
    assert app is QApplication.instance()
