"""One conversation: its session, bridge, transcript, view and composer.

Widgets send commands to the ``Session``; what happened comes back only through the bridge.
Every coroutine runs in the pane's ``TaskScope``, so closing the pane cancels its work after the
session has been closed (pending approvals denied, turn stopped, agent ended).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QStackedWidget, QVBoxLayout, QWidget

from desktop.core.backend import AgentStartError, Prompt
from desktop.core.checkpoints.recorder import CheckpointRecorder
from desktop.core.conversation import Conversation, Starter
from desktop.core.entries import ExitItem, Item, PlanItem, ToolStatus, TurnEndItem
from desktop.core.events import (
    AgentReady,
    ApprovalMode,
    ChoiceKind,
    ChoicesChanged,
    Decision,
    DecisionSource,
    McpStatus,
    ModeChanged,
    PlanUpdated,
    RulesChanged,
    SessionState,
    StateChanged,
    Usage,
)
from desktop.core.session import BUSY, BackendFactory
from desktop.core.usage.pricing import PriceTable, load_prices
from desktop.core.usage.spend import Spend
from desktop.ui.announce import announce
from desktop.ui.approvals import ApprovalNavigator, spoken
from desktop.ui.approvals.rules import ModeRules, RulesPanel
from desktop.ui.bridge import SessionSignals
from desktop.ui.composer import Composer
from desktop.ui.composer_context.controller import ComposerContext
from desktop.ui.conversation.find_bar import FindBar
from desktop.ui.conversation.lexers import warm_when_typing
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.conversation.view import ConversationView
from desktop.ui.conversation_ends import ConversationEnds
from desktop.ui.cursor_blink import CursorBlink
from desktop.ui.idle_stop import IdleStop
from desktop.ui.mcp_status import McpServers
from desktop.ui.pane_parts import PaneParts
from desktop.ui.plan_view import PlanView
from desktop.ui.qt_async import TaskScope
from desktop.ui.turn_end import TurnEndShow
from desktop.ui.usage_view import show_turn_usage
from desktop.ui.welcome.banner import FixBanner
from desktop.ui.welcome.controller import WelcomeController
from desktop.ui.welcome.empty import EmptyState

log = logging.getLogger(__name__)


class ConversationPane(QWidget):
    """A conversation with one agent.

    Signals:
        status_changed(): agent, mode, state or usage changed (the window's status bar reads them).
        approval_waiting(str): a tool call waits for the user (the tool name).
    """

    status_changed = Signal()
    approval_waiting = Signal(str)

    def __init__(
        self,
        *,
        title: str,
        workspace: Path,
        agent_name: str,
        factory: BackendFactory,
        scope: TaskScope,
        resume_id: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("conversationPane")
        self.title = title
        self.agent_name = agent_name
        self.scope = scope
        #: Its session and how it starts (``conversation.starter``: a conversation reopened
        #: from history brings its agent up to date), built as ``agentdesk exec`` builds it;
        #: the window's history records it and its add-ons extend it (``Conversation.record``,
        #: ``Conversation.extend``) as ``exec`` does.
        self.conversation = Conversation(factory, workspace=workspace, resume_id=resume_id)
        self.session = self.conversation.session
        #: Records the workspace around each turn, as ``exec`` does; review and restore use its
        #: ``store``. The id is the history's, known once the recording stored the conversation.
        self.checkpoints = CheckpointRecorder.open(
            workspace, lambda: getattr(self.conversation.recording, "conversation_id", None)
        )
        self.conversation.checkpoint(self.checkpoints)
        self.transcript = TranscriptModel(self)
        self.session.subscribe(self.transcript.apply)  # before the bridge: the model goes first
        self.bridge = SessionSignals(self.session, self)
        # Each part is made in its place (a widget given a parent later is polished and
        # resolved again, its whole subtree: 2-4 ms of a pane's first turn).
        self.body = QStackedWidget(self)
        self.view = ConversationView(self.transcript, self.body)
        self.composer = Composer(workspace, self)
        self.usage = Usage()
        #: Tokens and cost of the conversation so far (the status bar), by the price table.
        self.spend = Spend()
        self.prices: PriceTable | None = None  # read at the first turn end
        #: The models and agent modes the agent offers (the status bar's pickers), by kind.
        self.choices: dict[str, ChoicesChanged] = {}
        #: The conversation's MCP servers and their state (the status bar shows them).
        self.mcp_servers = McpServers()
        self.navigator = ApprovalNavigator(self.composer.editor, self)
        self.ends = ConversationEnds(self.view, self.composer.editor)  # Ctrl+Home / Ctrl+End
        CursorBlink.watch(self.composer.editor)  # no blink timer in an idle window
        warm_when_typing(self.composer.editor)  # code's lexers, while the prompt is written
        # The conversation area: empty state until the first item, then the transcript; the
        # welcome panel when the agent cannot start for want of a key or program
        # (``desktop.ui.welcome``). The banner says why the agent cannot start otherwise.
        self.body.addWidget(self.view)
        self.fix_banner = FixBanner(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.body, 1)
        layout.addWidget(self.fix_banner)
        layout.addWidget(self.composer)
        self._closed = False
        self._starting: asyncio.Task[None] | None = None
        self._start_error: AgentStartError | None = None  # of the last start
        #: Stops the agent after it was idle for the configured time (``IdleStop``).
        self.idle_stop = IdleStop(self, self._suspend_idle_agent)
        #: The turn's usage line, summary and focus when a turn ends (a loop turn later).
        self.turn_end = TurnEndShow(self, self)
        self._connect_signals()
        self.welcome = WelcomeController(self, self.body, workspace, self.fix_banner)

    def _connect_signals(self) -> None:
        bridge = self.bridge
        bridge.agent_ready.connect(self._on_ready)
        bridge.state_changed.connect(self._on_state)
        bridge.mode_changed.connect(self._on_mode_changed)
        bridge.rules_changed.connect(self._on_rules_changed)
        bridge.turn_ended.connect(self.turn_end.on_turn_ended)
        bridge.mcp_status.connect(self._on_mcp_status)
        self.view.decided.connect(self.decide)
        self.view.restart_requested.connect(self._on_restart)
        self.view.approval_shown.connect(self._on_approval_shown)
        self.composer.submitted.connect(self.submit)
        self.composer.stop_requested.connect(self.stop)
        self.composer.mode_chosen.connect(self.set_mode)
        # The mode button's panel: modes and always-rules (made when first opened).
        self.rules = ModeRules(
            self, self.composer.mode_chosen.emit, self.revoke_rule, self.revoke_all_rules
        )
        self.composer.mode.clicked.connect(lambda: self.rules_panel.popup_at(self.composer.mode))
        bridge.plan_updated.connect(self._on_plan)
        bridge.choices_changed.connect(self._on_choices)
        #: The context features and the plan view, made at the next turn of the loop.
        self.parts = PaneParts(self, self)

    @property
    def context(self) -> ComposerContext:
        """The composer's ``@`` files, images and ``/`` menu (``PaneParts``)."""
        return self.parts.context

    @property
    def plan_view(self) -> PlanView:
        """The plan checklist above the composer (``PaneParts``)."""
        return self.parts.plan_view

    @property
    def find_bar(self) -> FindBar:
        """Ctrl+F: find inside this conversation, above the transcript (``PaneParts``)."""
        return self.parts.find_bar

    @property
    def empty(self) -> EmptyState:
        """The empty state (made when the pane first shows without items)."""
        return self.welcome.empty

    def showEvent(self, event: QShowEvent) -> None:
        self.parts.build()  # shown at once (a new conversation): no turn of the loop to wait
        self.welcome.shown()
        super().showEvent(event)

    @property
    def rules_panel(self) -> RulesPanel:
        """The mode button's panel (made now if it was never opened)."""
        return self.rules.panel

    @property
    def starter(self) -> Starter | None:
        """What starts the session instead of ``Session.start`` (None: a new conversation)."""
        return self.conversation.starter

    # ------------------------------------------------------------------ commands
    def check(self) -> None:
        """Check that the agent can start, without starting it: it starts with the first prompt
        (``submit``), and a missing key or program is shown now (``Conversation.check``)."""
        self.scope.spawn(self.conversation.check(), name="check")

    def start(self) -> None:
        """Start the agent now (a retry after a fix, or the first prompt)."""
        self._starting = self.scope.spawn(self._start(), name="start")

    async def _start(self) -> None:
        self._start_error = None
        try:
            await self.conversation.start()
        except AgentStartError as exc:
            self._start_error = exc  # the prompts held for this start fail with it
            log.info("agent %s failed to start", self.agent_name)  # shown inline by the session

    def submit(self, text: str, files: list[str]) -> None:
        """Send (or queue) a prompt; the view scrolls to it and follows its answer."""
        if self._closed:
            return
        self.view.follow()
        if self._starting is None and self.session.state == SessionState.NEW:
            self.start()  # not started when opened (a conversation reopened from history)
        starting = self._starting
        if starting is not None and not starting.done():
            # Session._pump does not wait for a start already in progress and would send the
            # prompt before the agent is ready; hold it until the start finished.
            key = f"pending-{id(text)}-{len(self.transcript.items)}"
            self.transcript.add_prompt(key, text, files, queued=True)
            self.scope.spawn(self._submit_after_start(starting, key, text, files))
            return
        busy = self.session.active_turn is not None or bool(self.session.queued)
        turn_id = self.session.submit(Prompt(text, tuple(files)))
        self.transcript.add_prompt(turn_id, text, files, queued=busy)

    async def _submit_after_start(
        self, starting: asyncio.Task[None], key: str, text: str, files: list[str]
    ) -> None:
        await asyncio.wait([starting])
        if self._starting is None and self.session.state == SessionState.NEW:
            self.start()  # ``starting`` was the idle agent's suspension
        if self._starting is not None and self._starting is not starting:
            await asyncio.wait([self._starting])  # the start after it, in the prompts' order
        prompt, failed = Prompt(text, tuple(files)), self._start_error
        if failed is not None and self.session.state == SessionState.EXITED:
            turn_id = self.session.refuse(prompt, failed)  # shown once; not started again
        else:
            turn_id = self.session.submit(prompt)
        self.transcript.rekey_prompt(key, turn_id)

    def stop(self) -> None:
        """Stop the running turn (asks, then ends the agent if it does not confirm)."""
        if self.session.active_turn is not None:
            self.scope.spawn(self.session.stop(), name="stop")

    def set_mode(self, mode: str) -> None:
        """Change the approval mode."""
        self.scope.spawn(self.session.set_mode(ApprovalMode(mode)), name="set_mode")

    def revoke_rule(self, rule_id: str) -> None:
        """Revoke one always-rule: the next matching request asks again."""
        self.session.revoke_rule(rule_id)

    def revoke_all_rules(self) -> None:
        """Revoke every always-rule of this conversation."""
        self.session.revoke_all_rules()

    def decide(self, call_id: str, decision: str, reason: str) -> None:
        """The user decided a pending tool call."""
        self.session.decide(call_id, Decision(decision), DecisionSource.USER, reason=reason or None)

    def _on_restart(self, item: ExitItem) -> None:
        self.transcript.update(item, restarted=True)
        self.scope.spawn(self._restart(), name="restart")

    async def _restart(self) -> None:
        try:
            await self.session.restart()
        except AgentStartError:
            log.info("agent %s failed to restart", self.agent_name)

    # ------------------------------------------------------------------ approvals focus
    def pending_cards(self) -> list[ToolCard]:
        """Cards still waiting for a decision, oldest first."""
        cards = []
        for widget in self.view.widgets.values():
            if isinstance(widget, ToolCard) and widget.item.status == ToolStatus.WAITING:
                cards.append(widget)
        return cards

    def _on_approval_shown(self, card: ToolCard) -> None:
        if card.approval is not None:
            self.navigator.add(card.approval)
            current = self.navigator.current()
            if current is None or current is card.approval:
                self.view.follow()  # the request must be seen; a focused older card stays
            announce(card, spoken.announcement(card.approval.sentence), assertive=True)
        self.approval_waiting.emit(card.item.request.name)

    # ------------------------------------------------------------------ status
    def _on_ready(self, event: AgentReady) -> None:
        self.agent_name = event.agent + (f" {event.version}" if event.version else "")
        self.status_changed.emit()

    def _on_state(self, event: StateChanged) -> None:
        self.composer.set_busy(event.state in BUSY)
        self.idle_stop.follow(event.state)
        self.status_changed.emit()

    def _suspend_idle_agent(self) -> None:
        """The agent was idle for the configured time: stop it (the next prompt resumes it)."""
        if self._starting is None or self._starting.done():
            self._starting = self.scope.spawn(self._suspend(), name="suspend")

    async def _suspend(self) -> None:
        suspended = await self.conversation.suspend(self.transcript.entries.items)
        log.info("idle agent of %r %s", self.title, "stopped" if suspended else "kept (busy)")
        if self._starting is asyncio.current_task():
            self._starting = None  # the next prompt starts (resumes) it

    def _on_mode_changed(self, event: ModeChanged) -> None:
        self.composer.show_mode(event.mode.value)
        self.rules.show_mode(event.mode.value)
        self.status_changed.emit()

    def _on_rules_changed(self, event: RulesChanged) -> None:
        self.composer.show_rules(len(event.rules))
        self.rules.show_rules(event.rules)

    def _on_mcp_status(self, event: McpStatus) -> None:
        self.mcp_servers.apply(event)
        self.status_changed.emit()

    def take_stored(self, entries: Sequence[Item]) -> None:
        """Entries reopened from history, as keyed in the transcript (a long conversation's end,
        then its beginning): what they cost, their usage lines, and the last plan (closed to its
        header) unless a later one is shown."""
        prices = self.prices = self.prices or load_prices()
        ends = [e for e in entries if isinstance(e, TurnEndItem)]
        for end in ends:
            self.spend = self.spend.add(end.usage, end.model, prices)
            show_turn_usage(self.view, end, prices)
        plans = [e for e in entries if isinstance(e, PlanItem)]
        if plans and not self.plan_view.steps:
            self.plan_view.show_plan(plans[-1].entries, plans[-1].explanation)
            self.plan_view.collapse()
        self.status_changed.emit()

    def _on_plan(self, event: PlanUpdated) -> None:
        self.plan_view.show_plan(event.entries, event.explanation)

    def _on_choices(self, event: ChoicesChanged) -> None:
        self.choices[event.kind.value] = event
        if event.kind is ChoiceKind.MODEL:
            self.context.models_offered(bool(event.available))
        self.status_changed.emit()

    def set_choice(self, kind: str, choice_id: str) -> None:
        """Switch the agent to one of the models (or modes) it offers."""
        backend = self.session.backend
        if backend is not None:
            self.scope.spawn(backend.set_choice(ChoiceKind(kind), choice_id), name="set_choice")

    # ------------------------------------------------------------------ shutdown
    async def aclose(self, timeout: float = 8.0) -> None:
        """Close the session (deny pending, stop, end the agent), then cancel leftover tasks."""
        if self._closed:
            return
        self._closed = True
        try:
            await asyncio.wait_for(self.session.close(), timeout)
        except TimeoutError:
            log.warning("closing the conversation %r timed out", self.title)
        self.conversation.detach()  # its recording (what is open is written), its extensions
        self.bridge.detach()
        await self.scope.aclose()
