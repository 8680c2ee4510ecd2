"""One long-lived thread for the pure-Python work of rendering markdown (lexers, highlighting).

Building a Pygments lexer (5–40 ms) and highlighting a finished block's code (a few ms) would
each hold the GUI thread longer than a frame allows while an answer streams; they run here
instead. The thread is started once, without waiting for it to run (``threading.Thread.start``
blocks until the new thread is scheduled, 10–20 ms on a loaded machine), and is never joined: a
job is pure computation and the process may end at any time. A job's result comes back in a
``concurrent.futures.Future``; ``handoff().done`` is emitted (queued to the GUI thread) when one
is ready, so a view waiting for it renders at the next turn of the loop without polling.

The two threads share one interpreter lock, and a thread that wants it waits for the holder to
let go: by default after 5 ms (``sys.getswitchinterval``). A turn of the GUI thread takes the
lock many times (each call into Python from Qt), so while the worker highlighted a long block a
turn of 10 ms of work took 30-60 ms (the streaming benchmark: largest stall 31-61 ms with 10-17
ms of GUI CPU). With the worker running, the lock changes hands after ``SWITCH_INTERVAL_S``
instead (largest stall 13-20 ms); a job takes no longer for it (it runs between the GUI
thread's turns).
"""

from __future__ import annotations

import _thread
import logging
import queue
import sys
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal

log = logging.getLogger(__name__)

_JOBS: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]]] = queue.SimpleQueue()
_started = False
#: How long a thread holds the interpreter lock when another wants it, once the worker runs.
SWITCH_INTERVAL_S = 0.0002
T = TypeVar("T")


class Handoff(QObject):
    """Lives in the GUI thread; ``done(future)`` arrives there once a job has finished."""

    done = Signal(object)


_handoff: Handoff | None = None


def handoff() -> Handoff:
    """The GUI thread's end of the worker (made on first use, from the GUI thread)."""
    global _handoff
    if _handoff is None:
        _handoff = Handoff()
    return _handoff


def submit(job: Callable[[], T], *, notify: bool = False) -> Future[T]:
    """Run ``job`` on the worker thread, after the jobs before it; ``notify``: emit
    ``handoff().done`` when it has run (call from the GUI thread)."""
    global _started
    future: Future[T] = Future()
    if notify:
        signal = handoff().done
        future.add_done_callback(signal.emit)
    _JOBS.put((job, future))
    if not _started:
        _started = True
        _thread.start_new_thread(_work, ())  # returns at once: no wait for the thread to run
    return future


def _work() -> None:
    sys.setswitchinterval(SWITCH_INTERVAL_S)  # the GUI thread waits for the lock 0.2 ms, not 5
    while True:
        job, future = _JOBS.get()
        try:
            future.set_result(job())
        except Exception as error:  # boundary: the job's caller gets the error
            log.exception("A rendering job failed on the worker thread")
            future.set_exception(error)
