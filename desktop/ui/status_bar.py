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

from desktop.ui.agent_titles import agent_title
from desktop.ui.composer import mode_label
from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.mcp_status import McpIndicator

if TYPE_CHECKING:
    from desktop.ui.pane import ConversationPane

#: ``SessionState`` values in words (a test keeps the keys equal to the enum's values).
STATE_WORDS = {
    "new": QT_TRANSLATE_NOOP("StatusBar", "The agent starts with your first message"),
    "starting": QT_TRANSLATE_NOOP("StatusBar", "Starting…"),
    "ready": QT_TRANSLATE_NOOP("StatusBar", "Ready"),
    "running": QT_TRANSLATE_NOOP("StatusBar", "Working…"),
    "awaiting_approval": QT_TRANSLATE_NOOP("StatusBar", "Waiting for your approval"),
    "idle": QT_TRANSLATE_NOOP("StatusBar", "Ready"),
    "stopping": QT_TRANSLATE_NOOP("StatusBar", "Stopping…"),
    "exited": QT_TRANSLATE_NOOP("StatusBar", "Agent stopped"),
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
        bar.setAccessibleName(QCoreApplication.translate("StatusBar", "Status"))
        names = {
            "state": QT_TRANSLATE_NOOP("StatusBar", "State"),
            "agent": QT_TRANSLATE_NOOP("StatusBar", "Agent"),
            "mode": QT_TRANSLATE_NOOP("StatusBar", "Approval mode"),
            "tokens": QT_TRANSLATE_NOOP("StatusBar", "Tokens"),
        }
        for key, label in self.labels.items():
            label.setObjectName(f"status_{key}")
            label.setAccessibleName(tr(names[key]))
            if key == "tokens":
                #: The conversation's MCP servers ("MCP: 2 connected, 1 failed"), with a popup.
                self.mcp = McpIndicator(bar)
                bar.addPermanentWidget(self.mcp)
                bar.addPermanentWidget(label)
            else:
                bar.addWidget(label)

    def show(self, pane: ConversationPane) -> None:
        """Show ``pane``'s state, agent, mode and usage."""
        usage = pane.usage
        state = state_words(str(pane.session.state.value))
        self.labels["state"].setText(state)
        self.labels["state"].setAccessibleDescription(state)
        self.labels["agent"].setText(agent_title(pane.agent_name))
        self.labels["agent"].setToolTip(
            QCoreApplication.translate("StatusBar", "Agent of this conversation")
        )
        self.labels["mode"].setText(mode_label(str(pane.session.mode.value)))
        self.labels["mode"].setToolTip(
            QCoreApplication.translate("StatusBar", "Approval mode of this conversation")
        )
        cache = usage.cache_read_tokens + usage.cache_write_tokens
        self.labels["tokens"].setText(
            QCoreApplication.translate("StatusBar", "Tokens in {0} · out {1} · cache {2}").format(
                f"{usage.input_tokens:,}", f"{usage.output_tokens:,}", f"{cache:,}"
            )
        )
        self.mcp.show_servers(pane.mcp_servers)
        for label in self.labels.values():  # a reader hears what each label says, not its kind
            label.setAccessibleDescription(label.text())
