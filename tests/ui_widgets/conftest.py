"""Offscreen Qt for the diff viewer and approval card tests, plus shared helpers."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

import desktop.ui.pyside_fixes  # noqa: F401 - PySide6 6.12 emit refcount bug (report-6), as the app
from desktop.core.events import ToolCategory, ToolRequested
from desktop.core.previews import build_preview

_HERE = Path(__file__).parent
#: Qt messages that are known and harmless here; everything else fails the test.
KNOWN_QT_MESSAGES = (
    # The offscreen platform plugin has no size-hint propagation; it warns whenever a shown
    # window's minimum/maximum size changes. Only under QT_QPA_PLATFORM=offscreen.
    r"This plugin does not support propagateSizeHints\(\)",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Ignore the known offscreen-plugin messages in this folder's tests only."""
    for item in items:
        if _HERE in item.path.parents:
            item.add_marker(pytest.mark.qt_log_ignore(*KNOWN_QT_MESSAGES))


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace folder with one existing Python file."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text("def greet(name):\n    return 'hello ' + name\n")
    return root


@pytest.fixture
def make_request(workspace: Path) -> Callable[..., ToolRequested]:
    """Build a ToolRequested whose preview the host computes from the real workspace."""

    def make(
        name: str, category: ToolCategory, args: dict[str, object], call_id: str = "c1"
    ) -> ToolRequested:
        preview = build_preview(workspace, name, category, dict(args))
        return ToolRequested(
            call_id=call_id, name=name, category=category, args=dict(args), preview=preview
        )

    return make


@pytest.fixture
def host(qtbot: QtBot) -> QWidget:
    """A shown, active top-level window to put widgets into (focus needs an active window)."""
    window = QWidget()
    QVBoxLayout(window)
    qtbot.addWidget(window)
    window.resize(900, 700)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    return window
