"""What each aionrs agent event means for the session: the event → session-event mapping.

The adapter reads and validates the agent's lines and merges streamed text (its hot path); every
validated event is handed to ``EventMapper.handle``, which dispatches on its wire type with a
``match`` that mypy checks is exhaustive. What an event means depends on the turn it arrives in:
aionrs attributes events to the active turn (``msg_id`` may be missing or empty, §8 of
``shared/reference/aionrs-real-behaviour.md``), a fatal ``error`` decides how the turn ends, and
usage is cumulative from aionrs 0.2 on. The mapper owns that per-turn state; the adapter tells it
when a turn begins and when ``stop`` was sent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import assert_never

from desktop.core.backend import EmitFn
from desktop.core.events import (
    ChoicesChanged,
    ErrorEvent,
    Notice,
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
from desktop.core.protocols.aionrs.mcp_servers import McpTracker
from desktop.core.protocols.aionrs.models import model_choices
from desktop.core.protocols.aionrs.usage import UsageCounter
from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText

log = logging.getLogger(__name__)

_CATEGORIES = {c.value: c for c in ToolCategory}
_NON_FATAL_ERRORS = {"tool_error", "protocol_error", "mcp_error"}


class EventMapper:
    """Turns one aionrs agent's validated events into session events.

    Args:
        name: The agent's name (for log messages).
        out: Where session events go (the adapter's, after any merged text).
        on_ready: Called with the agent's ``ready``.
        on_text: Called with the text of a ``text_delta`` the adapter did not merge itself.
        heartbeat: Answers pongs and recognises the heartbeat's own errors.
        usage: Turns reported usage into per-turn usage.
    """

    def __init__(
        self,
        name: str,
        out: EmitFn,
        *,
        on_ready: Callable[[wire.Ready], None],
        on_text: Callable[[str], None],
        heartbeat: Heartbeat,
        usage: UsageCounter,
    ) -> None:
        self.name = name
        self.capabilities = wire.ReadyCapabilities()
        #: The host's turn id (``None`` between turns).
        self.turn: str | None = None
        #: ``stop`` was sent in this turn: it ends as ``stopped``.
        self.stop_sent = False
        #: aionrs 0.2.x: cumulative usage, ``stop`` = quit.
        self.aionrs_02 = False
        self._out = out
        self._on_ready = on_ready
        self._on_text = on_text
        self._heartbeat = heartbeat
        self._usage = usage
        #: The message of a fatal error in this turn: the turn then ends as ``error``.
        self._turn_error: str | None = None
        #: Name and category of every tool call of the conversation, by call id.
        self._calls: dict[str, tuple[str, ToolCategory]] = {}
        #: The MCP servers sent to the agent, and their typed status.
        self.mcp = McpTracker()
        #: The model it runs (``--model``, or what it reports), and the last choice shown.
        self.model: str | None = None
        self._shown_choices: ChoicesChanged | None = None

    def report_model(self) -> None:
        """Show the model it runs and offers (from its capabilities), once per change."""
        extras = self.capabilities.model_extra or {}
        choices = model_choices(extras, self.model)
        if choices is not None and choices != self._shown_choices:
            self.model = choices.current
            self._shown_choices = choices
            self._out(choices)

    def choose(self, model: str) -> None:
        """The user chose ``model`` (sent with ``set_config``): shown and priced from now on."""
        self.model = model
        shown = self._shown_choices
        self._shown_choices = ChoicesChanged(
            current=model, available=shown.available if shown else []
        )
        self._out(self._shown_choices)

    def begin_turn(self, turn_id: str) -> None:
        """A prompt went out: events from now on belong to ``turn_id``."""
        self.turn = turn_id
        self._turn_error = None
        self.stop_sent = False

    def handle(self, event: wire.AgentEvent) -> None:
        """Map one validated agent event."""
        match event:
            case wire.Ready():
                self._on_ready(event)
            case wire.TextDeltaEvent():
                self._on_text(event.text)
            case wire.StreamStart():
                pass
            case wire.Thinking():
                self._out(ThinkingDelta(turn_id=self.turn, text=event.text))
            case wire.ToolRequest():
                self._tool_request(event)
            case wire.ToolRunning():
                self._tool_running(event)
            case wire.ToolResult():
                self._tool_result(event)
            case wire.ToolCancelledEvent():
                self._check_known(event.call_id, QT_TRANSLATE_NOOP("AgentNotice", "a cancellation"))
                self._out(
                    ToolCancelled(turn_id=self.turn, call_id=event.call_id, reason=event.reason)
                )
            case wire.StreamEnd():
                self._stream_end(event)
            case wire.Error():
                self._error(event)
            case wire.Info():
                self._out(Notice(turn_id=self.turn, message=event.message))
                if (stopped := self.mcp.stopped(event)) is not None:
                    self._out(stopped)
            case wire.ConfigChanged():
                self.capabilities = event.capabilities
                self.report_model()
            case wire.McpReady():
                ready = QT_TRANSLATE_NOOP("Mcp", "MCP server {name} is ready ({n} tools).")
                ready = ready.with_args(name=repr(event.name), n=len(event.tools))
                self._out(Notice(message=ready.english, i18n=ready))
                self._out(self.mcp.ready(event))
            case wire.Pong():
                self._heartbeat.on_pong()
            case _:
                assert_never(event)

    def _tool_request(self, event: wire.ToolRequest) -> None:
        category = _CATEGORIES.get(event.tool.category, ToolCategory.EXEC)
        self._calls[event.call_id] = (event.tool.name, category)
        self._out(
            ToolRequested(
                turn_id=self.turn,
                call_id=event.call_id,
                name=event.tool.name,
                category=category,
                args=event.tool.args,
                description=event.tool.description,
            )
        )

    def _tool_running(self, event: wire.ToolRunning) -> None:
        name, category = self._calls.setdefault(event.call_id, (event.tool_name, ToolCategory.INFO))
        self._out(
            ToolStarted(
                turn_id=self.turn,
                call_id=event.call_id,
                name=event.tool_name or name,
                category=category,
            )
        )

    def _check_known(self, call_id: str, what: CoreText) -> None:
        if call_id not in self._calls:
            self._calls[call_id] = ("", ToolCategory.EXEC)
            text = QT_TRANSLATE_NOOP(
                "AgentNotice", "The agent reported {what} for an unknown tool call {call_id}."
            ).with_args(what=what, call_id=repr(call_id))
            self._out(Notice(turn_id=self.turn, level="warning", message=text.english, i18n=text))

    def _tool_result(self, event: wire.ToolResult) -> None:
        self._check_known(event.call_id, QT_TRANSLATE_NOOP("AgentNotice", "a result"))
        metadata = event.metadata or {}
        file_path = metadata.get("file_path")
        self._out(
            ToolFinished(
                turn_id=self.turn,
                call_id=event.call_id,
                name=event.tool_name or self._calls[event.call_id][0],
                status=event.status,
                output=event.output,
                output_type=event.output_type,
                diff=event.output if event.output_type == "diff" else None,
                file_path=file_path if isinstance(file_path, str) else None,
            )
        )

    def _stream_end(self, event: wire.StreamEnd) -> None:
        turn = self.turn
        if turn is None:
            log.info("%s: stream_end outside a turn (msg_id %r) ignored", self.name, event.msg_id)
            return
        reported = Usage.model_validate(event.usage.model_dump()) if event.usage else None
        usage = self._usage.per_turn(reported, self.aionrs_02) if reported else None
        self.turn = None
        reason = TurnEndReason.COMPLETED
        if self.stop_sent:
            reason = TurnEndReason.STOPPED
        elif self._turn_error:
            reason = TurnEndReason.ERROR
        self._out(
            TurnEnded(
                turn_id=turn,
                reason=reason,
                usage=usage,
                model=self.model,
                message=self._turn_error,
            )
        )

    def _error(self, event: wire.Error) -> None:
        body = event.error
        if self._heartbeat.on_error(body.message):
            return
        if self.turn is not None and not body.retryable and body.code not in _NON_FATAL_ERRORS:
            self._turn_error = body.message
        self._out(
            ErrorEvent(
                turn_id=self.turn, code=body.code, message=body.message, retryable=body.retryable
            )
        )
        if (failed := self.mcp.failed(event)) is not None:
            self._out(failed)
