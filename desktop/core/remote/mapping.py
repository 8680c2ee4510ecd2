"""Map one turn's ``ConverseEvent`` stream into session events.

Pure and transport-free so every mapping rule can be tested with plain protobuf messages.
Rules (deployed runtime, ``runtime-grpc.md`` §5 and client cases K5–K9, K15):

- ``chunk`` → text, ``thinking`` → thinking; an empty ``ConverseEvent`` is ignored.
- ``tool_call``/``tool_result`` → ``tool_started``/``tool_finished`` in the ``remote`` category,
  paired by ``call_id`` (the runtime runs its own tools, so nothing waits for approval).
- ``usage`` may come zero, one or several times per turn; they are summed into the turn's usage.
- ``done`` ends the turn; a ``model`` starting ``ERROR:`` makes it a failed turn. Its ``turns``
  repeat the final text, which a streaming runtime has already sent as chunks; they are shown
  only when no chunk came (a runtime that does not stream partial output).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from desktop.core.events import (
    ErrorEvent,
    SessionEvent,
    TextDelta,
    ThinkingDelta,
    ToolCancelled,
    ToolCategory,
    ToolFinished,
    ToolStarted,
    TurnEnded,
    TurnEndReason,
    Usage,
)
from desktop.core.remote.generated import runtime_pb2 as pb
from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText

_ERROR_RE = re.compile(r"ERROR:\s*(?:([A-Za-z_]+):\s*)?(.*)", re.DOTALL)
_RETRYABLE_CODES = {"internal", "unavailable", "deadline_exceeded", "unknown", "aborted"}


def usage_of(event: pb.UsageEvent) -> Usage:
    """One LLM call's usage in Agent Desk's terms.

    The runtime reports Gemini-style counts, whose total is prompt + completion + tool-use
    prompt + thoughts: tool-use prompt tokens are input, thoughts are output, cached tokens are
    the part of the prompt read from the cache.
    """
    return Usage(
        input_tokens=max(0, event.prompt_tokens) + max(0, event.tool_use_prompt_tokens),
        output_tokens=max(0, event.completion_tokens) + max(0, event.thoughts_tokens),
        cache_read_tokens=max(0, event.cached_tokens),
    )


def parse_error_model(model: str) -> tuple[str, str] | None:
    """``(code, message)`` of an ``ERROR:`` done event, or None for a normal one.

    The code name is read leniently (``Internal``, ``InvalidArgument``, ``INVALID_ARGUMENT``) and
    returned in snake case; ``unknown`` when the text has none.
    """
    if not model.startswith("ERROR:"):
        return None
    match = _ERROR_RE.fullmatch(model)
    assert match is not None  # the pattern accepts anything after the prefix
    name, message = match.group(1), match.group(2).strip()
    if name is None:
        return "unknown", message or model
    code = name.lower() if name.isupper() else re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    return code, message or name


def parse_args(args_json: str) -> dict[str, Any]:
    """Tool arguments from ``args_json`` (may be empty, or not a JSON object)."""
    if not args_json.strip():
        return {}
    try:
        value = json.loads(args_json)
    except ValueError:
        return {"raw": args_json}
    return value if isinstance(value, dict) else {"value": value}


@dataclass
class TurnMapper:
    """The state of one turn: open tool calls, summed usage, whether ``done`` arrived."""

    turn_id: str
    usage: Usage | None = None
    ended: bool = False
    received: int = 0
    _text_seen: bool = False
    _calls: dict[str, str] = field(default_factory=dict)
    _anonymous: int = 0

    def feed(self, event: pb.ConverseEvent) -> list[SessionEvent]:
        """Session events for one ``ConverseEvent`` (none after the turn ended)."""
        self.received += 1
        kind = event.WhichOneof("event")
        if self.ended or kind is None:
            return []
        if kind == "chunk":
            if not event.chunk.text:
                return []
            self._text_seen = True
            return [TextDelta(turn_id=self.turn_id, text=event.chunk.text)]
        if kind == "thinking":
            text = event.thinking.text
            return [ThinkingDelta(turn_id=self.turn_id, text=text)] if text else []
        if kind == "tool_call":
            return [self._tool_call(event.tool_call)]
        if kind == "tool_result":
            return [self._tool_result(event.tool_result)]
        if kind == "usage":
            one = usage_of(event.usage)
            self.usage = one if self.usage is None else self.usage + one
            return []
        return self._done(event.done)

    def _tool_call(self, call: pb.ToolCallEvent) -> SessionEvent:
        call_id = call.call_id
        if not call_id:
            self._anonymous += 1
            call_id = f"{self.turn_id}-call-{self._anonymous}"
        self._calls[call_id] = call.tool
        return ToolStarted(
            turn_id=self.turn_id,
            call_id=call_id,
            name=call.tool,
            category=ToolCategory.REMOTE,
            args=parse_args(call.args_json),
        )

    def _tool_result(self, result: pb.ToolResultEvent) -> SessionEvent:
        call_id = result.call_id or next(iter(self._calls), f"{self.turn_id}-result")
        name = self._calls.pop(call_id, "")
        failed = result.error or bool(result.error_message)
        return ToolFinished(
            turn_id=self.turn_id,
            call_id=call_id,
            name=name,
            status="error" if failed else "success",
            output=result.error_message or result.result_json,
            output_type="text" if result.error_message else "json",
        )

    def _done(self, done: pb.DoneEvent) -> list[SessionEvent]:
        events = self.close_tools(
            QT_TRANSLATE_NOOP("ToolReason", "The runtime ended the turn without a result")
        )
        failure = parse_error_model(done.model)
        if failure is None:
            final = "\n\n".join(t.text for t in done.turns if t.text.strip())
            if final and not self._text_seen:
                events.append(TextDelta(turn_id=self.turn_id, text=final))
            events.append(self.end(TurnEndReason.COMPLETED))
            return events
        code, message = failure
        text = f"The runtime failed the turn: {message}"
        events.append(
            ErrorEvent(
                turn_id=self.turn_id,
                code=f"runtime_{code}",
                message=text,
                retryable=code in _RETRYABLE_CODES,
            )
        )
        events.append(self.end(TurnEndReason.ERROR, text))
        return events

    def close_tools(self, reason: CoreText) -> list[SessionEvent]:
        """Cancel tool calls that never got a result."""
        events: list[SessionEvent] = [
            ToolCancelled(turn_id=self.turn_id, call_id=call_id, reason=reason.english, i18n=reason)
            for call_id in self._calls
        ]
        self._calls.clear()
        return events

    def end(self, reason: TurnEndReason, message: str | None = None) -> TurnEnded:
        """The turn's end (with the usage summed so far); later events are ignored."""
        self.ended = True
        return TurnEnded(turn_id=self.turn_id, reason=reason, usage=self.usage, message=message)
