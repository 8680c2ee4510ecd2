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

    Every payload is the frozen pydantic event from ``desktop.core.events``, except the two
    streaming signals, which carry only the text to keep the hot path cheap.

    Signals:
        agent_ready(AgentReady): the agent started and takes prompts.
        state_changed(StateChanged): the session state machine moved.
        mode_changed(ModeChanged): the approval mode changed.
        rules_changed(RulesChanged): the always-rules changed (the whole list).
        turn_started(TurnStarted): a prompt went to the agent.
        text_delta(str): a piece of assistant text.
        thinking_delta(str): a piece of the model's reasoning.
        tool_requested(ToolRequested): a tool call; ``pending`` means it awaits a decision.
        tool_decided(ToolDecided): a tool call was approved or denied, and by whom.
        tool_started(ToolStarted): a tool began running.
        tool_finished(ToolFinished): a tool finished.
        tool_cancelled(ToolCancelled): a tool call will not run.
        turn_ended(TurnEnded): a turn finished; carries usage.
        notice(Notice): information for the user.
        error(ErrorEvent): something went wrong.
        agent_exited(AgentExited): the agent process ended.
    """

    agent_ready = Signal(object)
    state_changed = Signal(object)
    mode_changed = Signal(object)
    rules_changed = Signal(object)
    turn_started = Signal(object)
    text_delta = Signal(str)
    thinking_delta = Signal(str)
    tool_requested = Signal(object)
    tool_decided = Signal(object)
    tool_started = Signal(object)
    tool_finished = Signal(object)
    tool_cancelled = Signal(object)
    turn_ended = Signal(object)
    notice = Signal(object)
    error = Signal(object)
    agent_exited = Signal(object)

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._signals: dict[str, SignalInstance] = {
            "agent_ready": self.agent_ready,
            "state_changed": self.state_changed,
            "mode_changed": self.mode_changed,
            "rules_changed": self.rules_changed,
            "turn_started": self.turn_started,
            "tool_requested": self.tool_requested,
            "tool_decided": self.tool_decided,
            "tool_started": self.tool_started,
            "tool_finished": self.tool_finished,
            "tool_cancelled": self.tool_cancelled,
            "turn_ended": self.turn_ended,
            "notice": self.notice,
            "error": self.error,
            "agent_exited": self.agent_exited,
        }
        self._unsubscribe: Callable[[], None] | None = session.subscribe(self._on_event)

    def _on_event(self, event: SessionEvent) -> None:
        if event.type == "text_delta":
            self.text_delta.emit(event.text)
        elif event.type == "thinking_delta":
            self.thinking_delta.emit(event.text)
        else:
            self._signals[event.type].emit(event)

    def detach(self) -> None:
        """Stop listening to the session (before the widgets go away)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
