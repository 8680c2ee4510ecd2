"""What one row of the conversations list stands for, and how its meta line reads."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from desktop.ui.agent_titles import agent_title

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from desktop.ui.pane import ConversationPane


@dataclass(eq=False)
class Entry:
    """A conversation in the sidebar: stored (``conversation_id``), open (``pane``), or both.

    A conversation opened in this window that has no prompt yet is not stored; it is listed
    first, as a draft.
    """

    conversation_id: str | None
    title: str
    agent: str
    updated_at: float
    pane: ConversationPane | None = None

    @property
    def stored(self) -> bool:
        """Whether the conversation is in the history database."""
        return self.conversation_id is not None


def when(timestamp: float, now: float | None = None) -> str:
    """A short relative time: "just now", "5 min ago", "3 h ago", "yesterday", "12 Mar"."""
    now = time.time() if now is None else now
    age = max(0.0, now - timestamp)
    if age < 60:
        return QCoreApplication.translate("When", "just now")
    if age < 3600:
        return QCoreApplication.translate("When", "{0} min ago").format(int(age // 60))
    today = time.localtime(now)
    then = time.localtime(timestamp)
    if age < 86400 and then.tm_yday == today.tm_yday:
        return QCoreApplication.translate("When", "{0} h ago").format(int(age // 3600))
    if age < 2 * 86400:
        return QCoreApplication.translate("When", "yesterday")
    if then.tm_year == today.tm_year:
        return time.strftime("%d %b", then).lstrip("0")
    return time.strftime("%d %b %Y", then).lstrip("0")


def meta_line(entry: Entry, now: float | None = None) -> str:
    """The second line of a row: when and with which agent (its name in words)."""
    agent = agent_title(entry.agent)
    if not entry.stored:
        draft = QCoreApplication.translate("When", "Draft")
        return f"{draft} · {agent}" if agent else draft
    return f"{when(entry.updated_at, now)} · {agent}"


def set_role(widget: QWidget, role: str) -> None:
    """Set the style-sheet ``role`` property and re-polish (as the conversation items do)."""
    widget.setProperty("role", role)
    widget.style().unpolish(widget)
    widget.style().polish(widget)
