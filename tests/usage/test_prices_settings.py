"""Settings ▸ General ▸ Usage and cost: "Edit prices…" writes the user's copy, then opens it."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from pytestqt.qtbot import QtBot

from desktop.core.usage.pricing import load_prices, override_path
from desktop.ui.settings.prices import PricesBox


def test_edit_prices_writes_the_users_table_once_and_opens_it(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    box = PricesBox()
    qtbot.addWidget(box)
    path = override_path()
    assert not path.exists() and box.path.text() == str(path)
    qtbot.mouseClick(box.edit, Qt.MouseButton.LeftButton)
    assert [url.toLocalFile() for url in opened] == [str(path)]
    assert "gpt-4o" in json.loads(path.read_text())["models"]
    # The user's edit is what the next estimate uses; a second click keeps it.
    path.write_text(json.dumps({"models": {"mine": {"input": 2.0, "output": 4.0}}}))
    qtbot.mouseClick(box.edit, Qt.MouseButton.LeftButton)
    assert "mine" in json.loads(path.read_text())["models"] and len(opened) == 2
    assert load_prices().price("mine") is not None


def test_a_table_that_cannot_be_written_is_said(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    folder = override_path().parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("a file where the config folder should be")
    box = PricesBox()
    qtbot.addWidget(box)
    assert box.open_prices() is False
    assert box.path.text().startswith("Could not write the price table") and opened == []
