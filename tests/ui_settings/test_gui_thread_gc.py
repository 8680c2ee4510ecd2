"""Qt objects left in reference cycles are finalized on the GUI thread, never in a worker.

The Settings dialog's "Test connection" and keyring calls run Python in worker threads. Before
the fix, an automatic collection triggered by a worker's allocations finalized earlier tests'
windows and timers in that worker; Qt could not unregister their timers from there, and the GUI
thread crashed dispatching a timer event to a freed object (segfault in ``run_forever``).
"""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref

from PySide6.QtCore import QObject

from tests.waiting import until


class _Cyclic(QObject):
    """A parentless QObject owned by Python with an active timer, kept alive only by a cycle."""

    def __init__(self) -> None:
        super().__init__()
        self.me = self
        self.startTimer(60_000)


def _allocate_in_worker() -> list[list[int]]:
    """Allocate far past the collection threshold, as a busy worker (an HTTP client) does."""
    return [[] for _ in range(20 * gc.get_threshold()[0])]


def test_cyclic_qt_garbage_is_collected_on_the_gui_thread(
    qloop: asyncio.AbstractEventLoop,
) -> None:
    threads: list[str] = []

    async def body() -> None:
        for done in range(1, 4):
            gc.collect()  # nothing young is left: the cycle below is the only garbage
            obj = _Cyclic()
            weakref.finalize(obj, lambda: threads.append(threading.current_thread().name))
            del obj
            made = await asyncio.to_thread(_allocate_in_worker)
            # The worker's allocations made a collection due, but objects other threads free
            # meanwhile count against them (the young generation's count goes down as well as
            # up): the GUI thread's own allocations here make it due whatever was freed.
            made += [[] for _ in range(2 * gc.get_threshold()[0])]
            await until(lambda n=done: len(threads) == n, what=f"cycle {done} collected")
            del made

    qloop.run_until_complete(asyncio.wait_for(body(), 20))
    assert threads == [threading.main_thread().name] * 3
