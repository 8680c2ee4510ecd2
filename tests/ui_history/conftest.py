"""Fixtures for the history sidebar tests: the window-test driver, Qt's own file dialogs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import KNOWN_QT_MESSAGES, Driver, driver, qloop

__all__ = ["Driver", "driver", "qloop"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The offscreen plugin's known messages (see tests/ui/conftest.py) in this folder only."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(*KNOWN_QT_MESSAGES))


@pytest.fixture(autouse=True)
def _qt_file_dialogs(qapp: QApplication, monkeypatch: pytest.MonkeyPatch) -> None:
    """Qt's own file dialog (a platform one cannot be answered from a test)."""
    monkeypatch.setenv("AGENTDESK_THEME", "light")
    qapp.setAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs, True)
