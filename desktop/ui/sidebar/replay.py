"""Rebuild a conversation's transcript from stored history, and find a stored item in it.

A stored conversation is shown with the same item widgets as a live one: its items are turned
back into session events and fed to the ``Transcript`` model through the public methods the
bridge uses, so nothing here renders anything. Stored data comes from disk (and older versions),
so every record is validated; one that does not fit an event is shown as a plain notice instead.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError

from desktop.core.events import (
    ErrorEvent,
    Notice,
    ToolCancelled,
    ToolDecided,
    ToolFinished,
    ToolPreview,
    ToolRequested,
    TurnEnded,
    TurnEndReason,
    TurnStarted,
    Usage,
)
from desktop.core.history import ItemKind, StoredConversation, StoredItem
from desktop.ui.conversation.model import (
    Item,
    MessageItem,
    StreamItem,
    ToolItem,
    Transcript,
    UserItem,
)

log = logging.getLogger(__name__)

#: Stored kinds shown as exactly one transcript item each, in order (so the n-th stored item of
#: such a kind is the n-th transcript item of the matching type, live or replayed).
_ONE_TO_ONE = (ItemKind.USER, ItemKind.ASSISTANT, ItemKind.THINKING, ItemKind.TOOL)


def replay(transcript: Transcript, conversation: StoredConversation) -> Usage:
    """Append every stored item of ``conversation`` to ``transcript``; returns the total usage."""
    usage = Usage()
    for item in conversation.items:
        try:
            usage = usage + _replay_item(transcript, item)
        except (ValidationError, ValueError, TypeError):
            log.warning("stored item %s of %s does not fit", item.seq, conversation.id)
            transcript.on_notice(Notice(level="warning", message=item.text or "(unreadable item)"))
    _close_stream(transcript)
    return usage


def _close_stream(transcript: Transcript) -> None:
    # A completed turn end closes the open stream and adds nothing to the transcript.
    transcript.on_turn_ended(TurnEnded(turn_id="", reason=TurnEndReason.COMPLETED))


def _replay_item(transcript: Transcript, item: StoredItem) -> Usage:
    data = item.data
    kind = item.kind
    if kind == ItemKind.USER:
        files = [str(f) for f in data.get("files") or []]
        turn = item.turn_id or f"stored-{item.seq}"
        transcript.on_turn_started(TurnStarted(turn_id=turn, prompt=item.text, files=files))
    elif kind in (ItemKind.ASSISTANT, ItemKind.THINKING):
        _close_stream(transcript)  # each stored text is its own transcript item
        if kind == ItemKind.ASSISTANT:
            transcript.on_text(item.text)
        else:
            transcript.on_thinking(item.text)
        if not item.complete:
            _close_stream(transcript)
            transcript.on_notice(Notice(level="warning", message="This reply was cut off."))
    elif kind == ItemKind.TOOL:
        _replay_tool(transcript, item)
    elif kind == ItemKind.ERROR:
        transcript.on_error(ErrorEvent(code=str(data.get("code", "error")), message=item.text))
    elif kind == ItemKind.NOTICE:
        level = "warning" if data.get("level") == "warning" else "info"
        transcript.on_notice(Notice(level=level, message=item.text))
    elif kind == ItemKind.TURN_END:
        reason = TurnEndReason(data.get("reason") or TurnEndReason.COMPLETED)
        used = Usage.model_validate(data["usage"]) if data.get("usage") else None
        turn = item.turn_id or f"stored-{item.seq}"
        transcript.on_turn_ended(
            TurnEnded(turn_id=turn, reason=reason, usage=used, message=data.get("message"))
        )
        return used or Usage()
    elif kind == ItemKind.AGENT_EXITED:
        # Not an exit panel: its Restart button belongs to a live agent, not to history.
        code, signal = data.get("exit_code"), data.get("signal")
        what = f"signal {signal}" if signal is not None else f"exit code {code}"
        message = f"The agent exited unexpectedly ({what})."
        transcript.on_error(ErrorEvent(code="agent_exited", message=message))
    return Usage()


def _replay_tool(transcript: Transcript, item: StoredItem) -> None:
    data: dict[str, Any] = item.data
    # Agents reuse call ids across turns; the stored sequence number is unique.
    call_id = f"stored-{item.seq}"
    preview = data.get("preview")
    transcript.on_tool_requested(
        ToolRequested(
            call_id=call_id,
            name=str(data.get("name") or "tool"),
            category=data.get("category") or "info",
            args=data.get("args") or {},
            description=str(data.get("description") or ""),
            pending=False,
            preview=ToolPreview.model_validate(preview) if preview else None,
        )
    )
    decision = data.get("decision")
    if isinstance(decision, dict) and decision.get("decision"):
        transcript.on_tool_decided(
            ToolDecided(
                call_id=call_id,
                decision=decision["decision"],
                source=decision.get("source") or "user",
                source_name=decision.get("source_name"),
                reason=decision.get("reason"),
            ),
            at=float(decision.get("at") or item.created_at),  # older records: the request's time
        )
    status = data.get("status")
    if status in ("success", "error"):
        transcript.on_tool_finished(
            ToolFinished(
                call_id=call_id,
                name=str(data.get("name") or "tool"),
                status=status,
                output=str(data.get("output") or ""),
                output_type=str(data.get("output_type") or "text"),
                diff=data.get("diff"),
                file_path=data.get("file_path"),
            )
        )
    elif status == "cancelled":
        transcript.on_tool_cancelled(
            ToolCancelled(call_id=call_id, reason=str(data.get("reason") or ""))
        )
    else:  # requested or running when the app stopped: it never finished
        transcript.on_tool_cancelled(ToolCancelled(call_id=call_id, reason="interrupted"))


def _matches(kind: ItemKind, item: Item) -> bool:
    if kind == ItemKind.USER:
        return isinstance(item, UserItem)
    if kind == ItemKind.TOOL:
        return isinstance(item, ToolItem)
    if isinstance(item, StreamItem):
        return item.thinking == (kind == ItemKind.THINKING)
    return False


def locate(transcript: Transcript, conversation: StoredConversation, seq: int) -> Item | None:
    """The transcript item that shows stored item ``seq`` (live or replayed), if any.

    Prompts, replies, thinking and tool calls map one to one, in order, so the n-th of a kind
    is found by counting. Errors and notices are found by their text.
    """
    target = next((i for i in conversation.items if i.seq == seq), None)
    if target is None:
        return None
    if target.kind in _ONE_TO_ONE:
        ordinal = sum(1 for i in conversation.items if i.kind == target.kind and i.seq < seq)
        shown = [item for item in transcript.items if _matches(target.kind, item)]
        return shown[ordinal] if ordinal < len(shown) else None
    return next(
        (i for i in transcript.items if isinstance(i, MessageItem) and target.text in i.text),
        None,
    )
