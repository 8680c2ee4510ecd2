"""The notice of a reopened conversation whose recorded agent is not available here.

Shown in the conversation, above the composer, instead of silently running another agent: it
says which agent recorded the conversation and why that one cannot run, and offers the choice —
continue with the window's agent, or open Settings (to add the agent or its program; the
conversation then continues with it by itself). It goes away once an agent is chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.core.events import Notice
from desktop.ui.sidebar.resume import AgentSource, PendingAgent
from desktop.ui.theme import set_role

if TYPE_CHECKING:
    from desktop.core.session import BackendFactory
    from desktop.ui.pane import ConversationPane

#: The Settings page where agents are added (``SettingsDialog.pages``).
AGENTS_PAGE = "Agents"


class UnavailableAgentNotice(QFrame):
    """ "This conversation was recorded with X, which is not available: why." and two buttons.

    Signals:
        continue_requested(): continue with the window's agent.
        settings_requested(): open Settings.
    """

    continue_requested = Signal()
    settings_requested = Signal()

    def __init__(
        self, recorded: str, reason: str, alternative: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("unavailableAgent")
        set_role(self, "card")
        self.setAccessibleName(self.tr("{recorded} is not available").format(recorded=recorded))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.setSpacing(6)
        self.title = QLabel(self.tr("{recorded} is not available").format(recorded=recorded))
        set_role(self.title, "toolName")
        self.message = QLabel()
        self.message.setWordWrap(True)
        set_role(self.message, "muted")
        layout.addWidget(self.title)
        layout.addWidget(self.message)
        buttons = QHBoxLayout()
        buttons.setSpacing(8)
        self.continue_button = QPushButton(
            self.tr("Continue with {alternative}").format(alternative=alternative)
        )
        self.continue_button.setObjectName("continueWithWindowAgent")
        self.continue_button.setToolTip(
            self.tr(
                "Continue this conversation with {alternative}; it gets a summary of it"
            ).format(alternative=alternative)
        )
        set_role(self.continue_button, "primary")
        self.settings_button = QPushButton(self.tr("Open Settings"))
        self.settings_button.setObjectName("openAgentSettings")
        self.settings_button.setToolTip(
            self.tr("Add {recorded} or install its program in Settings ▸ Agents").format(
                recorded=recorded
            )
        )
        buttons.addWidget(self.continue_button)
        buttons.addWidget(self.settings_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.continue_button.clicked.connect(self.continue_requested)
        self.settings_button.clicked.connect(self.settings_requested)
        self.set_reason(recorded, reason)

    def set_reason(self, recorded: str, reason: str) -> None:
        """Say again why ``recorded`` cannot run (after a settings change that did not help)."""
        reason = reason.rstrip(".")
        self.message.setText(
            self.tr(
                "This conversation was recorded with {recorded}, which is not available: "
                "{reason}. Nothing was started."
            ).format(recorded=recorded, reason=reason)
        )


class AgentChoiceOffer:
    """Puts the notice in ``pane`` and carries out the choice made with it.

    The recorded agent is checked again after every change of the agents or profiles (Settings,
    in any window): once it can run, the conversation continues with it by itself.

    Args:
        pane: The reopened conversation (made with ``pending.factory``, started by ``pending``).
        pending: Holds the start until the choice.
        recorded: The agent the conversation was recorded with.
        reason: Why it is not available.
        agents: The window's agents.
    """

    def __init__(
        self,
        pane: ConversationPane,
        pending: PendingAgent,
        recorded: str,
        reason: str,
        agents: AgentSource,
    ) -> None:
        self.pane, self.pending, self.recorded, self.agents = pane, pending, recorded, agents
        alternative, _ = agents.current()
        self.notice: UnavailableAgentNotice | None = UnavailableAgentNotice(
            recorded, reason, alternative
        )
        layout = pane.layout()
        assert isinstance(layout, QVBoxLayout)  # the pane's column: view, composer
        self._holder = QWidget()  # lined up with the composer's frame
        inset = QVBoxLayout(self._holder)
        inset.setContentsMargins(24, 8, 24, 0)
        inset.addWidget(self.notice)
        layout.insertWidget(max(layout.indexOf(pane.composer), 0), self._holder)
        self.notice.continue_requested.connect(self.continue_with_window_agent)
        self.notice.settings_requested.connect(lambda: agents.open_settings(AGENTS_PAGE))
        self._unsubscribe: Callable[[], None] | None = agents.on_changed(self._on_agents_changed)
        pane.destroyed.connect(self._release)

    def continue_with_window_agent(self) -> None:
        """Continue with the window's agent (it gets a summary of the conversation)."""
        name, factory = self.agents.current()
        self._chosen(name, factory, recorded=False)
        self.pane.transcript.apply(
            Notice(
                message=QCoreApplication.translate(
                    "UnavailableAgentNotice", "Continuing this conversation with {name}."
                ).format(name=name)
            )
        )

    def _on_agents_changed(self) -> None:
        if not self.pending.chosen:
            self.pane.scope.spawn(self._check_again(), name="recorded agent check")

    async def _check_again(self) -> None:
        found = await self.agents.named(self.recorded)
        if self.pending.chosen:
            return
        if isinstance(found, str):
            if self.notice is not None:
                self.notice.set_reason(self.recorded, found)
            return
        self._chosen(self.recorded, found, recorded=True)
        self.pane.transcript.apply(
            Notice(
                message=f"{self.recorded} is available now; this conversation continues with it."
            )
        )

    def _chosen(self, name: str, factory: BackendFactory | str, *, recorded: bool) -> None:
        self.pending.choose(factory, recorded=recorded)
        self.pane.agent_name = name
        self.pane.status_changed.emit()
        self._release()
        if self.notice is not None:
            self._holder.hide()
            self._holder.deleteLater()
            self.notice = None

    def _release(self) -> None:
        if self._unsubscribe is not None:
            unsubscribe, self._unsubscribe = self._unsubscribe, None
            unsubscribe()
