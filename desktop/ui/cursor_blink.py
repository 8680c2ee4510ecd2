"""The text caret blinks for ten seconds after the last key or click, then stays on.

A focused text field blinks its caret with a Qt timer, twice a second, for as long as the
window is open: an idle window's only wake-ups (issue 19 measured them). Desktops stop the blink
after a while (GTK's ``gtk-cursor-blink-timeout`` is 10 s), so Agent Desk does the same: typing,
clicking or focusing a watched field blinks it again at the system's rate; ``TIMEOUT_MS`` after
that the flash time is set to 0 (a steady caret). A system that does not blink stays so.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

_WAKING = frozenset(
    {
        QEvent.Type.KeyPress,
        QEvent.Type.FocusIn,
        QEvent.Type.MouseButtonPress,
        QEvent.Type.InputMethod,
    }
)


class CursorBlink(QObject):
    """One per application (``watch`` makes it): blinks after activity, rests after the timeout."""

    TIMEOUT_MS = 10_000
    _shared: CursorBlink | None = None

    def __init__(self, parent: QObject | None) -> None:
        super().__init__(parent)
        self.flash_ms = QGuiApplication.styleHints().cursorFlashTime()  # the system's rate
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.rest)

    @classmethod
    def watch(cls, field: QWidget) -> CursorBlink:
        """Blink ``field``'s caret only for a while after it was used."""
        if cls._shared is None:
            cls._shared = cls(QCoreApplication.instance())
            cls._shared.wake()
        field.installEventFilter(cls._shared)
        return cls._shared

    @property
    def resting(self) -> bool:
        """Whether the caret stays on (no blink timer runs)."""
        return QGuiApplication.styleHints().cursorFlashTime() == 0

    def wake(self) -> None:
        """Blink again (at the system's rate) and rest ``TIMEOUT_MS`` from now."""
        hints = QGuiApplication.styleHints()
        if hints.cursorFlashTime() != self.flash_ms:
            hints.setCursorFlashTime(self.flash_ms)
        self._timer.start(self.TIMEOUT_MS)

    def rest(self) -> None:
        """A steady caret: the field's blink timer stops."""
        QGuiApplication.styleHints().setCursorFlashTime(0)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Keys, clicks and focus in a watched field wake the blink."""
        if event.type() in _WAKING:
            self.wake()
        return False
