"""A task scope asked to run work after the event loop has ended (a Qt timer that fires while
the app shuts down, as the sidebar's reload timer did at the end of a theme test): it refuses
with ``RuntimeError`` and closes the coroutine, so nothing is left "never awaited"."""

from __future__ import annotations

import gc
import warnings

import pytest
from pytestqt.qtbot import QtBot

from desktop.ui.qt_async import AsyncRuntime, TaskScope


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
