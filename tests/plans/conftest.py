"""Fixtures for the plan, live-output and model-picker window tests: the window-test driver."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.conftest import Driver, driver, ignore_known_messages, qloop

__all__ = ["Driver", "driver", "qloop"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The known offscreen-plugin messages (tests/ui/conftest.py), in this folder's tests."""
    ignore_known_messages(items, Path(__file__).parent)


@pytest.fixture(autouse=True)
def _theme(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTDESK_THEME", "light")
