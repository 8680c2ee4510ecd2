"""Fixtures for the history sidebar tests: the window-test driver, Qt's own file dialogs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import Driver, driver, ignore_known_messages, qloop

__all__ = ["Driver", "driver", "qloop"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The known offscreen-plugin messages (tests/ui/conftest.py), in this folder's tests."""
    ignore_known_messages(items, Path(__file__).parent)


@pytest.fixture(autouse=True)
def _qt_file_dialogs(qapp: QApplication, monkeypatch: pytest.MonkeyPatch) -> None:
    """Qt's own file dialog (a platform one cannot be answered from a test)."""
    monkeypatch.setenv("AGENTDESK_THEME", "light")
    qapp.setAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs, True)
