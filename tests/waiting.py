"""Waiting on a condition with a deadline, the one way tests wait (never a fixed sleep).

A test that needs something to have happened polls for exactly that and fails, naming what it
waited for, when the deadline passes; a test that needs something NOT to have happened waits for
a sign that it would have happened by now (a later event, a marker its code writes).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

#: How often a condition is polled (seconds).
POLL = 0.01


def wait_until(predicate: Callable[[], object], timeout: float = 10.0, what: str = "") -> None:
    """Block until ``predicate()`` is true; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what or predicate}")
        time.sleep(POLL)


async def until(predicate: Callable[[], object], timeout: float = 10.0, what: str = "") -> None:
    """Wait on the running loop until ``predicate()`` is true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what or predicate}")
        await asyncio.sleep(POLL)
