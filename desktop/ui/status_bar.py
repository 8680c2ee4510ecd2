"""The window's status bar, in words: "Waiting for your approval · claude · Ask every time".

It shows the shown conversation's state, agent, approval mode and token counts. States and
modes arrive as the core's enum values (``SessionState``, ``ApprovalMode``); they are shown as
the words a person would use, never as the values (a test covers every state). Plain strings
here, because the bar is built with the first frame, before the core is imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel, QStatusBar

from desktop.ui.composer import mode_label

if TYPE_CHECKING:
    from desktop.ui.pane import ConversationPane

#: ``SessionState`` values in words (a test keeps the keys equal to the enum's values).
STATE_WORDS = {
    "new": "Starting…",
    "starting": "Starting…",
    "ready": "Ready",
    "running": "Working…",
    "awaiting_approval": "Waiting for your approval",
    "idle": "Ready",
    "stopping": "Stopping…",
    "exited": "Agent stopped",
}


def tr(text: str) -> str:
    """``text`` translated (context "StatusBar")."""
    return QCoreApplication.translate("StatusBar", text)


def state_words(state: str) -> str:
    """A session state (``SessionState`` value) as the status bar says it."""
    return tr(STATE_WORDS.get(state, "Ready"))


class WindowStatus:
    """The labels of a window's status bar: state, agent and mode on the left, tokens right."""

    def __init__(self, bar: QStatusBar) -> None:
        self.labels = {key: QLabel(bar) for key in ("state", "agent", "mode", "tokens")}
        names = {"state": "State", "agent": "Agent", "mode": "Approval mode", "tokens": "Tokens"}
        for key, label in self.labels.items():
            label.setObjectName(f"status_{key}")
            label.setAccessibleName(tr(names[key]))
            if key == "tokens":
                bar.addPermanentWidget(label)
            else:
                bar.addWidget(label)

    def show(self, pane: ConversationPane) -> None:
        """Show ``pane``'s state, agent, mode and usage."""
        usage = pane.usage
        state = state_words(str(pane.session.state.value))
        self.labels["state"].setText(state)
        self.labels["state"].setAccessibleDescription(state)
        self.labels["agent"].setText(pane.agent_name)
        self.labels["agent"].setToolTip(tr("Agent of this conversation"))
        self.labels["mode"].setText(mode_label(str(pane.session.mode.value)))
        self.labels["mode"].setToolTip(tr("Approval mode of this conversation"))
        cache = usage.cache_read_tokens + usage.cache_write_tokens
        self.labels["tokens"].setText(
            tr("Tokens in {0} · out {1} · cache {2}").format(
                f"{usage.input_tokens:,}", f"{usage.output_tokens:,}", f"{cache:,}"
            )
        )
