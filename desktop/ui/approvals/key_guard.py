"""An approval card's key guard: decision keys are ignored for a moment after the card took
the keyboard by itself, so a key meant for the composer never decides a request.

The card owns one (composition); when the guard ends, a log line says the card takes decision
keys (what the end-to-end tests wait for, instead of sleeping past the guard).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QElapsedTimer, QObject, QTimer

log = logging.getLogger(__name__)

#: Milliseconds after the card took focus by itself during which decision keys are ignored.
DEFAULT_KEY_GUARD_MS = 300


class KeyGuard:
    """Running for ``ms`` after ``start``; ``owner`` bounds its timer, ``label`` names the card
    in the log line and ``armed`` says whether that line still applies (a pending card)."""

    def __init__(self, ms: int, owner: QObject, label: str, armed: Callable[[], bool]) -> None:
        self.ms = ms
        self._owner = owner
        self._label = label
        self._armed = armed
        self._clock = QElapsedTimer()

    def start(self) -> None:
        """Guard from now (nothing to do for a guard of 0 ms)."""
        if self.ms <= 0:
            self.stop()
            return
        self._clock.start()
        QTimer.singleShot(self.ms, self._owner, self._log_end)

    def stop(self) -> None:
        """Decision keys count from now."""
        self._clock.invalidate()
        self._log_end()

    def active(self) -> bool:
        """Whether decision keys are ignored now."""
        return self._clock.isValid() and self._clock.elapsed() < self.ms

    def _log_end(self) -> None:
        if self.active():  # a coarse timer may fire a little early
            QTimer.singleShot(
                max(1, self.ms - self._clock.elapsed() + 1), self._owner, self._log_end
            )
        elif self._armed():
            log.info("approval %s takes decision keys", self._label)
