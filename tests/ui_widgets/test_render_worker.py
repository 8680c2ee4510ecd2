"""The rendering worker thread (``desktop.ui.conversation.worker``): jobs run there in order,
their results and errors come back, and once it runs the GUI thread waits for the interpreter
lock at most ``SWITCH_INTERVAL_S`` (not the default 5 ms: a turn of the GUI thread took 30-60 ms
while the worker highlighted code).
"""

from __future__ import annotations

import sys
import threading
from functools import partial

import pytest
from pytestqt.qtbot import QtBot

from desktop.ui.conversation import worker


def test_jobs_run_on_the_worker_in_order_and_the_gui_thread_waits_little(qtbot: QtBot) -> None:
    threads: list[int] = []

    def job(n: int) -> int:
        threads.append(threading.get_ident())
        return n * 2

    futures = [worker.submit(partial(job, n)) for n in range(3)]
    with qtbot.waitSignal(worker.handoff().done, timeout=10_000):
        last = worker.submit(partial(job, 3), notify=True)
    assert [f.result(timeout=10) for f in [*futures, last]] == [0, 2, 4, 6]
    assert threading.get_ident() not in threads and len(set(threads)) == 1
    assert sys.getswitchinterval() == pytest.approx(worker.SWITCH_INTERVAL_S)


def test_a_failing_job_hands_its_error_back_and_the_worker_goes_on() -> None:
    def boom() -> None:
        raise ValueError("bad block")

    failed = worker.submit(boom)
    with pytest.raises(ValueError, match="bad block"):
        failed.result(timeout=10)
    assert worker.submit(lambda: "next").result(timeout=10) == "next"
