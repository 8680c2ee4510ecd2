"""What each aionrs agent event means for the session: the event → session-event mapping.

The adapter reads and validates the agent's lines, merges streamed text (its hot path) and
answers ``ready``; every other validated event is dispatched to an ``_on_<type>`` method here.
What an event means depends on the turn it arrives in: aionrs attributes events to the active
turn (``msg_id`` may be missing or empty, §8 of ``shared/reference/aionrs-real-behaviour.md``),
a fatal ``error`` decides how the turn ends, and usage is cumulative from aionrs 0.2 on.
"""

from __future__ import annotations

import logging

from desktop.core.events import (
    ErrorEvent,
    Notice,
    SessionEvent,
    ThinkingDelta,
    ToolCancelled,
    ToolCategory,
    ToolFinished,
    ToolRequested,
    ToolStarted,
    TurnEnded,
    TurnEndReason,
    Usage,
)
from desktop.core.protocols.aionrs import wire
from desktop.core.protocols.aionrs.heartbeat import Heartbeat
from desktop.core.protocols.aionrs.usage import UsageCounter

log = logging.getLogger(__name__)

_CATEGORIES = {c.value: c for c in ToolCategory}
_NON_FATAL_ERRORS = {"tool_error", "protocol_error"}


class EventMapping:
    """The ``_on_<type>`` handlers of ``AionrsBackend``, which owns (and sets up) this state."""

    name: str
    capabilities: wire.Capabilities
    _heartbeat: Heartbeat
    _usage: UsageCounter
    #: The host's turn id (``None`` between turns).
    _turn: str | None
    #: The message of a fatal error in this turn: the turn then ends as ``error``.
    _turn_error: str | None
    #: ``stop`` was sent in this turn: it ends as ``stopped``.
    _stop_sent: bool
    #: aionrs 0.2.x: cumulative usage, ``stop`` = quit.
    _aionrs_02: bool
    #: Name and category of every tool call of the conversation, by call id.
    _calls: dict[str, tuple[str, ToolCategory]]

    def _out(self, event: SessionEvent) -> None:
        """Emit an event (after any merged text still waiting)."""
        raise NotImplementedError

    def _on_stream_start(self, event: wire.StreamStart) -> None:
        pass

    def _on_thinking(self, event: wire.Thinking) -> None:
        self._out(ThinkingDelta(turn_id=self._turn, text=event.text))

    def _on_tool_request(self, event: wire.ToolRequest) -> None:
        category = _CATEGORIES.get(event.tool.category, ToolCategory.EXEC)
        self._calls[event.call_id] = (event.tool.name, category)
        self._out(
            ToolRequested(
                turn_id=self._turn,
                call_id=event.call_id,
                name=event.tool.name,
                category=category,
                args=event.tool.args,
                description=event.tool.description,
            )
        )

    def _on_tool_running(self, event: wire.ToolRunning) -> None:
        name, category = self._calls.setdefault(event.call_id, (event.tool_name, ToolCategory.INFO))
        self._out(
            ToolStarted(
                turn_id=self._turn,
                call_id=event.call_id,
                name=event.tool_name or name,
                category=category,
            )
        )

    def _check_known(self, call_id: str, what: str) -> None:
        if call_id not in self._calls:
            self._calls[call_id] = ("", ToolCategory.EXEC)
            self._out(
                Notice(
                    turn_id=self._turn,
                    level="warning",
                    message=f"The agent reported {what} for an unknown tool call {call_id!r}.",
                )
            )

    def _on_tool_result(self, event: wire.ToolResult) -> None:
        self._check_known(event.call_id, "a result")
        metadata = event.metadata or {}
        file_path = metadata.get("file_path")
        self._out(
            ToolFinished(
                turn_id=self._turn,
                call_id=event.call_id,
                name=event.tool_name or self._calls[event.call_id][0],
                status=event.status,
                output=event.output,
                output_type=event.output_type,
                diff=event.output if event.output_type == "diff" else None,
                file_path=file_path if isinstance(file_path, str) else None,
            )
        )

    def _on_tool_cancelled(self, event: wire.ToolCancelledEvent) -> None:
        self._check_known(event.call_id, "a cancellation")
        self._out(ToolCancelled(turn_id=self._turn, call_id=event.call_id, reason=event.reason))

    def _on_stream_end(self, event: wire.StreamEnd) -> None:
        turn = self._turn
        if turn is None:
            log.info("%s: stream_end outside a turn (msg_id %r) ignored", self.name, event.msg_id)
            return
        reported = Usage.model_validate(event.usage.model_dump()) if event.usage else None
        usage = self._usage.per_turn(reported, self._aionrs_02) if reported else None
        self._turn = None
        reason = TurnEndReason.COMPLETED
        if self._stop_sent:
            reason = TurnEndReason.STOPPED
        elif self._turn_error:
            reason = TurnEndReason.ERROR
        self._out(
            TurnEnded(
                turn_id=turn,
                reason=reason,
                usage=usage,
                message=self._turn_error,
            )
        )

    def _on_error(self, event: wire.Error) -> None:
        body = event.error
        if self._heartbeat.on_error(body.message):
            return
        if self._turn is not None and not body.retryable and body.code not in _NON_FATAL_ERRORS:
            self._turn_error = body.message
        self._out(
            ErrorEvent(
                turn_id=self._turn, code=body.code, message=body.message, retryable=body.retryable
            )
        )

    def _on_info(self, event: wire.Info) -> None:
        self._out(Notice(turn_id=self._turn, message=event.message))

    def _on_config_changed(self, event: wire.ConfigChanged) -> None:
        self.capabilities = event.capabilities

    def _on_mcp_ready(self, event: wire.McpReady) -> None:
        self._out(Notice(message=f"MCP server {event.name!r} is ready ({len(event.tools)} tools)."))

    def _on_pong(self, event: wire.Pong) -> None:
        self._heartbeat.on_pong()
