"""The empty conversation: which agent, which mode, three keys to know, and the folder.

Shown centred in the conversation area until the first prompt (``desktop.ui.welcome.controller``
swaps it for the transcript), and by the first-frame page (``desktop.ui.placeholder``) so the
window does not jump when the real conversation arrives. Painted before the core loads: it
imports only Qt widgets and the theme helpers, and builds no ``Qt`` enum (see test_startup).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from desktop.ui.agent_titles import agent_title
from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.theme import set_role

#: (keys, what they do): the three a new user needs first (Shift+Enter is in the placeholder).
HINTS = (
    ("Enter", QT_TRANSLATE_NOOP("EmptyState", "send · Esc stops")),
    ("Tab", QT_TRANSLATE_NOOP("EmptyState", "review a waiting request")),
    ("Y / N", QT_TRANSLATE_NOOP("EmptyState", "approve or deny it")),
)

#: What each approval mode (``ApprovalMode`` value) means, said in the empty state.
MODES = {
    "default": QT_TRANSLATE_NOOP("EmptyState", "Asks before every edit and command"),
    "auto_edit": QT_TRANSLATE_NOOP("EmptyState", "Approves edits by itself, asks before commands"),
    "yolo": QT_TRANSLATE_NOOP("EmptyState", "Approves everything by itself"),
}


def home_path(path: Path) -> str:
    """``path`` with the home folder written as ``~``."""
    try:
        return "~/" + str(path.relative_to(Path.home())) if path != Path.home() else "~"
    except ValueError:
        return str(path)


def _centred(widget: QWidget) -> QHBoxLayout:
    # stretches, not alignment flags: no ``Qt`` enum is built before the first paint
    row = QHBoxLayout()
    row.setContentsMargins(0, 0, 0, 0)
    row.addStretch(1)
    row.addWidget(widget)
    row.addStretch(1)
    return row


class EmptyState(QWidget):
    """ "<agent> is ready" (or starting), the approval mode, key hints and the workspace."""

    def __init__(self, workspace: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("emptyState")
        self.title = QLabel(self.tr("Starting the agent…"))
        set_role(self.title, "emptyTitle", polished=False)
        self.detail = QLabel("")
        set_role(self.detail, "muted", polished=False)
        self.hints: list[QLabel] = []
        hints = QVBoxLayout()
        hints.setSpacing(8)
        for keys, what in HINTS:
            key = QLabel(keys)
            set_role(key, "keycap", polished=False)
            label = QLabel(self.tr(what))
            set_role(label, "muted", polished=False)
            row = QHBoxLayout()
            row.setSpacing(10)
            row.addStretch(1)
            row.addWidget(key)
            row.addWidget(label)
            row.addStretch(1)
            hints.addLayout(row)
            self.hints.append(key)
        self.path = QLabel(home_path(workspace))
        set_role(self.path, "path", polished=False)
        self.path.setToolTip(str(workspace))
        column = QVBoxLayout(self)
        column.setContentsMargins(32, 24, 32, 24)
        column.setSpacing(0)
        column.addStretch(3)
        column.addLayout(_centred(self.title))
        column.addSpacing(6)
        column.addLayout(_centred(self.detail))
        column.addSpacing(22)
        column.addLayout(hints)
        column.addSpacing(22)
        column.addLayout(_centred(self.path))
        column.addStretch(4)
        self.setAccessibleName(self.tr("Empty conversation"))

    def show_agent(self, agent: str, *, ready: bool) -> None:
        """ "<agent> is ready", or that it is starting (the agent named in words)."""
        agent = agent_title(agent)
        self.title.setText(
            self.tr("{agent} is ready").format(agent=agent)
            if ready
            else self.tr("Starting {agent}…").format(agent=agent)
        )
        self.setAccessibleName(self.title.text())

    def show_mode(self, mode: str) -> None:
        """The approval mode (an ``ApprovalMode`` value)."""
        self.detail.setText(self.tr(MODES.get(mode, mode)))

    def texts(self) -> list[str]:
        """Everything it says, in order (for tests and accessibility)."""
        keys = [f"{k} {self.tr(w)}" for k, w in HINTS]
        return [self.title.text(), self.detail.text(), *keys, self.path.text()]
