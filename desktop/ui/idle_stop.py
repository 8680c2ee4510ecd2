"""Stops a conversation's agent after it was idle for the configured time.

An idle agent process holds tens of MiB (81 MiB for the built-in agent), and every open
conversation kept one. ``IdleStop`` follows the session's state: ready or idle arms one
single-shot timer (Settings ▸ "Stop idle agents after", in minutes; 0: never), any other state
disarms it. When it fires the pane suspends the conversation (``Conversation.suspend``) and the
next prompt resumes it. The timer fires once, so an idle window still does not wake up
periodically.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

#: The default idle time, in seconds (Settings' default is 10 minutes).
DEFAULT_IDLE_SECONDS = 600.0

_IDLE_STATES = frozenset({"ready", "idle"})


class IdleStop(QObject):
    """Calls ``on_idle`` once the agent was ready/idle for ``limit()`` seconds (0: never).

    ``limit`` is read each time the agent becomes idle, so a changed setting applies from the
    next turn on.
    """

    def __init__(self, parent: QObject, on_idle: Callable[[], None]) -> None:
        super().__init__(parent)
        self.limit: Callable[[], float] = lambda: DEFAULT_IDLE_SECONDS
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(on_idle)

    @property
    def armed(self) -> bool:
        """Whether the timer runs (the agent is idle and will be stopped)."""
        return self._timer.isActive()

    def follow(self, state: str) -> None:
        """The session moved to ``state`` (a ``SessionState`` value): arm or disarm."""
        seconds = self.limit() if state in _IDLE_STATES else 0.0
        if seconds > 0:
            self._timer.start(max(1, min(round(seconds * 1000), 2**31 - 1)))
        else:
            self._timer.stop()
