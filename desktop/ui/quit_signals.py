"""SIGTERM and SIGINT close Agent Desk cleanly (exit status 0, agents ended), without polling.

Python runs a signal handler only between bytecodes; while Qt waits in C nothing runs. The C
handler writes the signal number to a socket (``signal.set_wakeup_fd``) that a
``QSocketNotifier`` watches, so the loop wakes up only when a signal arrives (what qutebrowser
and napari do; a polling timer woke an idle window four times a second).
"""

from __future__ import annotations

import signal
import socket
from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier

#: The wake-up socket pair, open for the process's lifetime (the C handler writes to it).
_SOCKETS: list[socket.socket] = []


def quit_on_signals(parent: QObject, quit_app: Callable[[], None]) -> QSocketNotifier:
    """Call ``quit_app`` on the running loop when SIGTERM or SIGINT arrives."""
    import asyncio

    loop = asyncio.get_running_loop()

    def handler(_signum: int, _frame: object) -> None:
        loop.call_soon_threadsafe(quit_app)

    reader, writer = socket.socketpair()
    for end in (reader, writer):
        end.setblocking(False)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read, parent)

    def drain() -> None:  # the Python handler has run by now; empty the socket
        try:
            while reader.recv(64):
                pass
        except OSError:  # empty (would block)
            pass

    notifier.activated.connect(drain)
    _SOCKETS[:] = [reader, writer]
    signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, handler)
    return notifier
