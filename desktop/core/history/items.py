"""Transcript entries as the history stores them, and items stored before entries existed.

An item row keeps its entry (``desktop.core.transcript``) as typed JSON in ``data``, and in
``text`` what full-text search sees of it. Streamed text is kept once, in ``text``: the JSON of
an assistant or thinking entry leaves it out (a long answer grows there a piece at a time, every
0.25 s). ``from_legacy`` turns an item of schema 3 and earlier (``data`` a free-form dict per
kind) into its entry; the schema migration to version 4 and nothing else uses it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from desktop.core.entries import (
    ExitItem,
    Item,
    MessageItem,
    PlanItem,
    StreamItem,
    ToolItem,
    ToolStatus,
    TurnEndItem,
    UserItem,
    is_tool_echo,
    item_adapter,
)
from desktop.core.events import (
    ToolDecided,
    ToolFinished,
    ToolPreview,
    ToolRequested,
    TurnEndReason,
    Usage,
)
from desktop.core.history.models import ItemKind, StoredItem

log = logging.getLogger(__name__)

#: Tool output beyond this many characters is cut (the agent's own log keeps the rest).
MAX_OUTPUT = 256 * 1024

#: The word for a call's outcome in exports and resume summaries (as history always said it).
OUTCOME = {
    ToolStatus.WAITING: "requested",
    ToolStatus.APPROVED: "requested",
    ToolStatus.RUNNING: "running",
    ToolStatus.SUCCEEDED: "success",
    ToolStatus.FAILED: "error",
    ToolStatus.DENIED: "cancelled",
    ToolStatus.CANCELLED: "cancelled",
}


def dumps(data: object) -> str:
    """Compact JSON (non-ASCII kept readable), for search text."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


def entry_json(item: Item) -> str:
    """The ``data`` column of ``item`` (a stream's text is in the ``text`` column)."""
    exclude = {"text"} if isinstance(item, StreamItem) else None
    return item.model_dump_json(exclude=exclude)


def entry_from_row(data: str, text: str) -> Item:
    """The entry of an item row; one that does not fit (damaged, or written by a newer version)
    is a warning notice with the row's text."""
    try:
        raw = json.loads(data)
        if isinstance(raw, dict) and raw.get("type") in ("assistant", "thinking"):
            raw["text"] = text
        return item_adapter().validate_python(raw)
    except (ValidationError, ValueError):
        log.warning("a stored item does not fit an entry; shown as a notice")
        return MessageItem(level="warning", text=text or "(unreadable item)")


#: The columns of an item row, in the order ``stored_item`` reads them.
ITEM_COLUMNS = "id, seq, kind, turn_id, call_id, text, data, complete, created_at"


def stored_item(row: tuple[Any, ...]) -> StoredItem:
    """The item of a row of ``ITEM_COLUMNS``."""
    return StoredItem(
        id=row[0],
        seq=row[1],
        kind=ItemKind(row[2]),
        turn_id=row[3],
        call_id=row[4],
        text=row[5],
        entry=entry_from_row(row[6], row[5]),
        complete=bool(row[7]),
        created_at=row[8],
    )


@dataclass(frozen=True, slots=True)
class UnparsedItems:
    """Stored items as read, parsed a slice at a time (``parse``): a long conversation's
    beginning is read in one query off the event loop and parsed on it in short slices (parsing
    in the reading thread would hold the interpreter's lock against the window)."""

    rows: list[tuple[Any, ...]]

    def __len__(self) -> int:
        return len(self.rows)

    def parse(self, start: int, stop: int) -> list[StoredItem]:
        """The items ``start`` to ``stop`` (indices into ``rows``)."""
        return [stored_item(row) for row in self.rows[start:stop]]


def search_text(item: Item) -> str:
    """What full-text search sees of ``item``; a tool call: name, arguments, description and
    output."""
    match item:
        case ToolItem():
            request = item.request
            parts = [request.name, dumps(request.args), request.description]
            if item.result is not None and item.result.output:
                parts.append(item.result.output)
            return "\n".join(p for p in parts if p and p != "{}")
        case UserItem() | StreamItem() | MessageItem():
            return item.text
        case TurnEndItem():
            return item.message or ""
        case PlanItem():
            return "\n".join(step.content for step in item.entries)
        case ExitItem():
            return "The agent exited."


def clip_output(item: ToolItem) -> ToolItem:
    """``item`` with its output cut to ``MAX_OUTPUT`` characters for the record."""
    result = item.result
    if result is None or len(result.output) <= MAX_OUTPUT:
        return item
    clipped = result.model_copy(update={"output": result.output[:MAX_OUTPUT]})
    return item.model_copy(update={"result": clipped, "output_truncated": True})


# ---------------------------------------------------------------------- before schema 4


def from_legacy(
    kind: str,
    text: str,
    data: dict[str, Any],
    *,
    seq: int,
    turn_id: str | None,
    created_at: float,
    tools: set[str],
) -> Item:
    """The entry of an item stored by schema 3 or earlier; ``tools``: names of the tool calls
    stored before it (to recognise a notice that only echoes one). An item that does not fit is
    kept as a warning notice with its text."""
    try:
        item = _legacy(kind, text, data, seq=seq, turn_id=turn_id, tools=tools)
    except (ValidationError, ValueError, TypeError, KeyError, AttributeError):
        log.warning("stored item %s (%s) does not fit; kept as a notice", seq, kind)
        return MessageItem(level="warning", text=text or "(unreadable item)")
    if isinstance(item, ToolItem):
        tools.add(item.request.name)
        if item.decision is not None and item.decided_at is None:
            return item.model_copy(update={"decided_at": created_at})  # older: the request's time
    return item


def _legacy(
    kind: str, text: str, data: dict[str, Any], *, seq: int, turn_id: str | None, tools: set[str]
) -> Item:
    if kind == "user":
        return UserItem(turn_id=turn_id, text=text, files=[str(f) for f in data.get("files") or []])
    if kind in ("assistant", "thinking"):
        return StreamItem(type=kind, turn_id=turn_id, text=text, done=True)
    if kind == "tool":
        return _legacy_tool(data, seq=seq, turn_id=turn_id)
    if kind == "error":
        code = str(data.get("code") or "error")
        retryable = bool(data.get("retryable"))
        return MessageItem(
            type="error", turn_id=turn_id, level="error", text=text, code=code, retryable=retryable
        )
    if kind == "notice":
        level = "warning" if data.get("level") == "warning" else "info"
        echo = is_tool_echo(text, tools)
        return MessageItem(turn_id=turn_id, level=level, text=text, echo=echo)
    if kind == "turn_end":
        usage = Usage.model_validate(data["usage"]) if data.get("usage") else None
        reason = TurnEndReason(data.get("reason") or TurnEndReason.COMPLETED)
        turn = turn_id or f"stored-{seq}"
        return TurnEndItem(turn_id=turn, reason=reason, usage=usage, message=data.get("message"))
    if kind == "agent_exited":
        return ExitItem(exit_code=data.get("exit_code"), signal=data.get("signal"))
    raise ValueError(f"unknown item kind {kind!r}")


def _legacy_tool(data: dict[str, Any], *, seq: int, turn_id: str | None) -> ToolItem:
    call_id = f"stored-{seq}"  # agents reuse call ids across turns; the sequence is unique
    name = str(data.get("name") or "tool")
    preview = data.get("preview")
    request = ToolRequested(
        turn_id=turn_id,
        call_id=call_id,
        name=name,
        category=data.get("category") or "info",
        args=data.get("args") or {},
        description=str(data.get("description") or ""),
        pending=False,
        preview=ToolPreview.model_validate(preview) if preview else None,
    )
    decided = data.get("decision")
    decision = None
    decided_at = None
    if isinstance(decided, dict) and decided.get("decision"):
        decision = ToolDecided(
            turn_id=turn_id,
            call_id=call_id,
            decision=decided["decision"],
            source=decided.get("source") or "user",
            source_name=decided.get("source_name"),
            reason=decided.get("reason"),
        )
        decided_at = float(decided["at"]) if decided.get("at") else None
    denied = decision is not None and decision.decision.denies
    status = data.get("status")
    result = None
    if status in ("success", "error"):
        result = ToolFinished(
            turn_id=turn_id,
            call_id=call_id,
            name=name,
            status=status,
            output=str(data.get("output") or ""),
            output_type=str(data.get("output_type") or "text"),
            diff=data.get("diff"),
            file_path=data.get("file_path"),
        )
        state = ToolStatus.SUCCEEDED if status == "success" else ToolStatus.FAILED
    elif status == "cancelled":
        state = ToolStatus.DENIED if denied else ToolStatus.CANCELLED
    elif status == "running":
        state = ToolStatus.RUNNING
    else:
        state = ToolStatus.DENIED if denied else ToolStatus.APPROVED
    return ToolItem(
        turn_id=turn_id,
        request=request,
        status=state,
        decision=decision,
        decided_at=decided_at,
        result=result,
        output_truncated=bool(data.get("output_truncated")),
        cancel_reason=str(data["reason"]) if status == "cancelled" and data.get("reason") else None,
    )
