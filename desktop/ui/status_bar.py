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
    from desktop.ui.model_picker import ChoicePicker
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
        self._bar = bar
        self._pane: ConversationPane | None = None
        #: The model and agent-mode pickers, built when a conversation first offers a choice.
        self.pickers: dict[str, ChoicePicker] | None = None
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
        self._show_spend(pane)
        self._show_choices(pane)
        for label in self.labels.values():  # a reader hears what each label says, not its kind
            label.setAccessibleDescription(label.text())

    def _show_spend(self, pane: ConversationPane) -> None:
        """The cost estimate after the tokens, where the models are priced."""
        from desktop.core.usage.pricing import dollars  # the core is loaded once a pane shows

        spend, label = pane.spend, self.labels["tokens"]
        if spend.cost is None:
            label.setToolTip(
                QCoreApplication.translate(
                    "StatusBar", "No cost estimate: the price table does not know this model"
                )
            )
            return
        if spend.partial:
            said = QCoreApplication.translate("StatusBar", "≈ at least {0}")
        else:
            said = QCoreApplication.translate("StatusBar", "≈ {0}")
        label.setText(f"{label.text()} · {said.format(dollars(spend.cost))}")
        label.setToolTip(
            QCoreApplication.translate(
                "StatusBar",
                "Estimated from the price table (Settings ▸ Usage and cost); the bill may differ",
            )
        )

    def _show_choices(self, pane: ConversationPane) -> None:
        """The model and agent-mode pickers (built when a conversation first offers one)."""
        self._pane = pane
        if not pane.choices and self.pickers is None:
            return
        if self.pickers is None:
            from desktop.ui.model_picker import ChoicePicker

            self.pickers = {kind: ChoicePicker(kind, self._bar) for kind in ("model", "mode")}
            first = len(self.labels) - 1  # after the labels on the left: mode, model, MCP, tokens
            for picker in self.pickers.values():
                self._bar.insertPermanentWidget(first, picker)
                picker.chosen.connect(self._on_chosen)
        for kind, picker in self.pickers.items():
            picker.show_choices(pane.choices.get(kind))

    def _on_chosen(self, kind: str, choice_id: str) -> None:
        if self._pane is not None:
            self._pane.set_choice(kind, choice_id)

    def open_model_menu(self) -> bool:
        """Open the model picker's menu (its shortcut); False when there is nothing to pick."""
        picker = (self.pickers or {}).get("model")
        return picker is not None and picker.open_menu()
