"""A window in German (issue 16): the compiled catalogue translates menus, buttons, the status
bar and the sidebar, and Qt's own catalogue its standard context menus.

The German ``.ts`` is compiled into the test's folder with ``packaging/translations.py
compile --out`` (the ``.qm`` files are build output) and installed with ``desktop.ui.i18n``.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from desktop.ui import i18n
from desktop.ui.window import WorkspaceWindow
from tests.ui.conftest import Driver

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def german(qapp: QApplication, tmp_path: Path) -> Iterator[list[QTranslator]]:
    """The German catalogues installed on the application for one test."""
    script = ROOT / "packaging" / "translations.py"
    folder = tmp_path / "qm"
    subprocess.run([sys.executable, str(script), "compile", "--out", str(folder)], check=True)
    translators = i18n.install(qapp, QLocale(QLocale.Language.German), folder)
    yield translators
    i18n.remove(qapp, translators)


def _open(driver: Driver) -> WorkspaceWindow:
    async def body() -> WorkspaceWindow:
        context = await driver.acontext({})
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        return window

    window: WorkspaceWindow = driver.run(body(), 30)
    return window


def test_install_finds_no_catalogue_for_english(qapp: QApplication, tmp_path: Path) -> None:
    assert i18n.install(qapp, QLocale(QLocale.Language.English), tmp_path) == []


def test_the_window_in_german(german: list[QTranslator], driver: Driver) -> None:
    assert len(german) == 2  # Agent Desk's catalogue and Qt's own
    window = _open(driver)
    pane = window.current
    assert pane is not None
    menus = [action.text() for action in window.menuBar().actions()]
    assert menus == ["&Datei", "&Bearbeiten", "&Ansicht", "&Unterhaltung", "&Fenster", "&Hilfe"]
    edit = window.menuBar().actions()[1].menu()
    assert edit is not None
    assert "&Kopieren" in [action.text() for action in edit.actions()]
    assert pane.composer.send.text() == "Senden"
    assert pane.composer.editor.placeholderText().startswith("Den Agenten fragen…")
    starts = "Der Agent startet mit deiner ersten Nachricht"  # it starts with the first prompt
    driver.wait(lambda: window.status_labels["state"].text() == starts, what="status in German")
    assert window.history.sidebar.heading.text() == "UNTERHALTUNGEN"
    # Qt's own strings (qtbase_de.qm): the prompt's standard context menu.
    menu = pane.composer.editor.createStandardContextMenu()
    words = [action.text().split("\t")[0].replace("&", "") for action in menu.actions()]
    menu.deleteLater()
    assert "Alles auswählen" in words
