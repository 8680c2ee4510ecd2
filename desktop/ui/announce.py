"""Screen-reader announcements: a new approval request and the agent's answer, spoken once.

A focused widget is read by a screen reader, but what arrives while the user is elsewhere (an
answer that ends a turn, a tool call that waits for approval) would go unnoticed. Qt (6.8+) sends
a ``QAccessibleAnnouncementEvent``, which its AT-SPI bridge on Linux turns into an
``object:announcement`` event (Orca speaks it; UI Automation and NSAccessibility do the same on
Windows and macOS). Announcements are made at moments, never per streamed delta: when a turn
ends and when a request appears. An answer is announced by its beginning only; the whole text is
in the transcript, one Tab away.

``listen`` lets a caller (the accessibility tests) see each announcement as it is sent, since
PySide does not expose Qt's accessibility update handler. That Orca hears them is proven by
``tests/e2e/test_atspi_announce.py``: the real window under Xvfb and a real AT-SPI bus, the test
registered for ``object:announcement`` as Orca is (only the xcb platform has the AT-SPI bridge;
the offscreen one used by most tests sends nothing).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import assert_never

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

from desktop.core.events import TurnEndReason

__all__ = ["Announcement", "announce", "answer_text", "listen", "turn_end_text"]

#: Characters of an answer that are spoken; longer answers end with "…".
ANSWER_LIMIT = 240
#: Markdown marks a reader would spell out: emphasis, code ticks, heading and quote marks.
_MARKS = re.compile(r"[*`]+|^\s*(?:#+|>+)\s*", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Announcement:
    """One announcement as sent: its text and whether it interrupts (assertive)."""

    message: str
    assertive: bool


_listeners: list[Callable[[Announcement], None]] = []


def announce(source: QObject, message: str, *, assertive: bool = False) -> None:
    """Have screen readers speak ``message`` (from ``source``, a widget in the window).

    ``assertive`` interrupts what the reader is saying (an approval request blocks the agent);
    otherwise the message waits its turn (polite).
    """
    if not message:
        return
    event = QAccessibleAnnouncementEvent(source, message)
    politeness = QAccessible.AnnouncementPoliteness
    event.setPoliteness(politeness.Assertive if assertive else politeness.Polite)
    QAccessible.updateAccessibility(event)
    sent = Announcement(message, assertive)
    for listener in list(_listeners):
        listener(sent)


def listen(listener: Callable[[Announcement], None]) -> Callable[[], None]:
    """Call ``listener`` with every announcement sent; returns what stops it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener)


def answer_text(text: str, limit: int = ANSWER_LIMIT) -> str:
    """What is spoken of an answer: its first ``limit`` characters, on one line (only the
    beginning is read: an answer can be megabytes, and this runs on the GUI thread)."""
    flat = " ".join(_MARKS.sub("", text[: limit * 8]).split())
    if len(flat) > limit:
        flat = flat[: limit - 1].rstrip() + "…"
    if not flat:
        return ""
    return QCoreApplication.translate("Announce", "Agent answered: {text}").format(text=flat)


def turn_end_text(reason: TurnEndReason, answer: str, message: str | None = None) -> str:
    """What is spoken when a turn ends: the answer's beginning, or why there is none."""
    match reason:
        case TurnEndReason.COMPLETED:
            return answer_text(answer) or QCoreApplication.translate(
                "Announce", "The agent finished without an answer"
            )
        case TurnEndReason.STOPPED:
            return QCoreApplication.translate("Announce", "The agent stopped")
        case TurnEndReason.AGENT_EXITED:
            return QCoreApplication.translate("Announce", "The agent exited")
        case TurnEndReason.ERROR:
            error = message or QCoreApplication.translate("Announce", "an error")
            return QCoreApplication.translate("Announce", "The turn failed: {message}").format(
                message=error
            )
        case _:
            assert_never(reason)
