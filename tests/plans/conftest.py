"""Fixtures for the plan, live-output and model-picker window tests: the window-test driver."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.conftest import KNOWN_QT_MESSAGES, Driver, driver, qloop

__all__ = ["Driver", "driver", "qloop"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The offscreen plugin's known messages (see tests/ui/conftest.py) in this folder only."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(*KNOWN_QT_MESSAGES))


@pytest.fixture(autouse=True)
def _theme(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTDESK_THEME", "light")
