"""What a session event makes of a transcript entry: the new entry, or the fields it changes.

Pure functions of an event (and, for a tool call, of its entry as it stands), used by
``desktop.core.transcript.Transcript.apply``. Kept apart from the transcript because they are
the other half of its work: the transcript keeps the list (keys, the open stream, which entry
is whose call or prompt, when to close a stream), these say what goes into an entry, so a
field added to an event or entry (``desktop.core.entries``) is carried over in one place. They
make no keys: ``Transcript`` keys each entry it adds.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from desktop.core.entries import (
    LIVE_OUTPUT_LIMIT,
    ExitItem,
    MessageItem,
    ToolItem,
    ToolStatus,
    TurnEndItem,
    is_tool_echo,
)
from desktop.core.events import (
    AgentExited,
    ErrorEvent,
    Notice,
    ToolCancelled,
    ToolDecided,
    ToolFinished,
    ToolOutputDelta,
    ToolRequested,
    ToolStarted,
    TurnEnded,
)


def turn_end(event: TurnEnded) -> TurnEndItem:
    """The entry of a turn's end (its reason, usage and model; why, if it failed)."""
    return TurnEndItem(
        turn_id=event.turn_id,
        reason=event.reason,
        usage=event.usage,
        model=event.model,
        message=event.message,
        i18n=event.i18n,
    )


def notice(event: Notice, tool_names: Collection[str]) -> MessageItem:
    """The entry of a notice; an ``echo`` when it only repeats a call of one of ``tool_names``."""
    return MessageItem(
        type="notice", turn_id=event.turn_id, level=event.level, text=event.message,
        echo=is_tool_echo(event.message, tool_names), i18n=event.i18n,
    )  # fmt: skip


def error(event: ErrorEvent) -> MessageItem:
    """The entry of an error."""
    return MessageItem(
        type="error", turn_id=event.turn_id, level="error", text=event.message,
        code=event.code, retryable=event.retryable, i18n=event.i18n,
    )  # fmt: skip


def agent_exit(event: AgentExited) -> ExitItem:
    """The entry of an unexpected exit (an expected one makes none)."""
    return ExitItem(exit_code=event.exit_code, signal=event.signal, stderr_tail=event.stderr_tail)


def requested(event: ToolRequested) -> dict[str, Any]:
    """A tool call's fields once it is requested: waiting for a decision unless it needs none."""
    status = ToolStatus.WAITING if event.pending else ToolStatus.APPROVED
    return {"request": event, "status": status}


def decided(event: ToolDecided, at: float) -> dict[str, Any]:
    """A tool call's fields once decided, ``at`` epoch seconds."""
    denied = event.decision.denies
    return {
        "decision": event,
        "decided_at": at,
        "status": ToolStatus.DENIED if denied else ToolStatus.APPROVED,
    }


def unasked(event: ToolStarted) -> ToolItem:
    """The entry of a call that runs with no request before it (the agent's own, or one the
    host never saw asked): its request is made up from what the start says."""
    request = ToolRequested(
        turn_id=event.turn_id,
        call_id=event.call_id,
        name=event.name,
        category=event.category or "info",
        args=event.args or {},
        pending=False,
    )
    return ToolItem(
        turn_id=event.turn_id, request=request, status=ToolStatus.RUNNING, unasked=event.unasked
    )


def finished(event: ToolFinished) -> dict[str, Any]:
    """A tool call's fields once it finished: its result, succeeded or failed."""
    ok = event.status == "success"
    return {"result": event, "status": ToolStatus.SUCCEEDED if ok else ToolStatus.FAILED}


def cancelled(tool: ToolItem, event: ToolCancelled) -> dict[str, Any]:
    """``tool``'s fields once cancelled: denied if its decision denied it, with the reason."""
    denied = tool.decision is not None and tool.decision.decision.denies
    status = ToolStatus.DENIED if denied else ToolStatus.CANCELLED
    reason, said = event.reason or None, event.i18n if event.reason else None
    return {"status": status, "cancel_reason": reason, "cancel_i18n": said}


def with_output(tool: ToolItem, event: ToolOutputDelta) -> ToolItem:
    """``tool`` with a piece of its running output: the end of it kept (``LIVE_OUTPUT_LIMIT``),
    every character counted."""
    live = tool.live_output + event.text
    if len(live) > LIVE_OUTPUT_LIMIT:
        live = live[-LIVE_OUTPUT_LIMIT:]
    return tool.model_copy(
        update={"live_output": live, "live_chars": tool.live_chars + len(event.text)}
    )
