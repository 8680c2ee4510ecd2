"""A task scope asked to run work after the event loop has ended (a Qt timer that fires while
the app shuts down, as the sidebar's reload timer did at the end of a theme test): it refuses
with ``RuntimeError`` and closes the coroutine, so nothing is left "never awaited"."""

from __future__ import annotations

import asyncio
import gc
import warnings

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.ui.qt_async import DISPLAY_LOST, AsyncRuntime, TaskScope, run_qt


def test_spawn_without_a_running_loop_closes_the_work(qtbot: QtBot) -> None:
    ran: list[bool] = []

    async def work() -> None:
        ran.append(True)

    scope = TaskScope("test", AsyncRuntime())
    coro = work()
    with pytest.raises(RuntimeError):
        scope.spawn(coro, name="late")
    assert coro.cr_frame is None, "the coroutine was closed"
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        del coro
        gc.collect()
    assert ran == []


def test_qt_quitting_on_its_own_ends_the_app_with_one_line(
    qapp: QApplication, caplog: pytest.LogCaptureFixture
) -> None:
    """Qt quits by itself when the display connection is lost: the app returns 1 with one
    logged line instead of a traceback."""

    async def main() -> int:
        QTimer.singleShot(0, qapp.quit)  # what Qt does when the X11 connection breaks
        await asyncio.Event().wait()
        return 0

    assert run_qt(qapp, main) == DISPLAY_LOST
    assert "connection to the display was lost" in caplog.text
