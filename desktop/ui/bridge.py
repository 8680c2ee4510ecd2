"""The one QObject between a core ``Session`` and the widgets.

Data flows one way: wire → adapter → Session → bridge → widgets. Widgets never subscribe to a
session themselves and never call back into the bridge; they send commands to the session.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, SignalInstance

from desktop.core.events import SessionEvent
from desktop.core.session import Session


class SessionSignals(QObject):
    """Re-emits one session's events as Qt signals (all on the GUI thread).

    Every payload is the frozen pydantic event from ``desktop.core.events``. Only the events
    widgets react to have a signal (the transcript model reads every event from the session
    directly, before the bridge); the others, text deltas included, cost one lookup.

    Signals:
        agent_ready(AgentReady): the agent started and takes prompts.
        state_changed(StateChanged): the session state machine moved.
        mode_changed(ModeChanged): the approval mode changed.
        rules_changed(RulesChanged): the always-rules changed (the whole list).
        turn_started(TurnStarted): a prompt went to the agent.
        turn_ended(TurnEnded): a turn finished; carries usage.
        mcp_status(McpStatus): one of the conversation's MCP servers changed state.
        commands_changed(CommandsChanged): the agent's slash commands changed.
        plan_updated(PlanUpdated): the agent's plan changed (the whole plan).
        choices_changed(ChoicesChanged): the models or modes the agent offers, or its current one.
    """

    agent_ready = Signal(object)
    state_changed = Signal(object)
    mode_changed = Signal(object)
    rules_changed = Signal(object)
    turn_started = Signal(object)
    turn_ended = Signal(object)
    mcp_status = Signal(object)
    commands_changed = Signal(object)
    plan_updated = Signal(object)
    choices_changed = Signal(object)

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._signals: dict[str, SignalInstance] = {
            "agent_ready": self.agent_ready,
            "state_changed": self.state_changed,
            "mode_changed": self.mode_changed,
            "rules_changed": self.rules_changed,
            "turn_started": self.turn_started,
            "turn_ended": self.turn_ended,
            "mcp_status": self.mcp_status,
            "commands_changed": self.commands_changed,
            "plan_updated": self.plan_updated,
            "choices_changed": self.choices_changed,
        }
        self._unsubscribe: Callable[[], None] | None = session.subscribe(self._on_event)

    def _on_event(self, event: SessionEvent) -> None:
        signal = self._signals.get(event.type)
        if signal is not None:
            signal.emit(event)

    def detach(self) -> None:
        """Stop listening to the session (before the widgets go away)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
