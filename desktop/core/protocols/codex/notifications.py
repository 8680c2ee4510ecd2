"""Codex item notifications → session events.

Agent text and reasoning deltas become text and thinking; ``commandExecution`` and
``fileChange`` items become tool cards (``tool_started`` / ``tool_finished`` with output or the
diff), their output streams as ``tool_output_delta``; ``turn/plan/updated`` is the plan;
token usage updates the thread total; errors and warnings become error and notice
events. Turn boundaries and approval requests are the adapter's and the approval desk's part.
"""

from __future__ import annotations

from typing import Any

from desktop.core.events import (
    ErrorEvent,
    Notice,
    TextDelta,
    ThinkingDelta,
    ToolCancelled,
    ToolFinished,
    ToolOutputDelta,
    ToolRequested,
    ToolStarted,
)
from desktop.core.plans import codex_plan
from desktop.core.protocols.codex import items
from desktop.core.protocols.codex.approvals import ApprovalDesk
from desktop.core.protocols.codex.turn import TurnState, usage_of
from desktop.core.texts import QT_TRANSLATE_NOOP

_WARNINGS = ("warning", "configWarning", "deprecationNotice")


class NotificationMapper:
    """Maps the item notifications of the running turn into session events."""

    def __init__(self, state: TurnState, approvals: ApprovalDesk) -> None:
        self._state = state
        self._approvals = approvals

    def handle(self, method: str, params: dict[str, Any]) -> None:
        """Map one notification (unknown methods are ignored)."""
        state = self._state
        if method == "item/agentMessage/delta":
            state.emit(TextDelta(turn_id=state.turn, text=str(params.get("delta", ""))))
        elif method in ("item/reasoning/summaryTextDelta", "item/reasoning/textDelta"):
            state.emit(ThinkingDelta(turn_id=state.turn, text=str(params.get("delta", ""))))
        elif method == "item/commandExecution/outputDelta":
            call_id = str(params.get("itemId", ""))
            self._ensure_running(call_id)
            delta = str(params.get("delta", ""))
            state.output.setdefault(call_id, []).append(delta)
            if delta and call_id in state.running:
                state.emit(ToolOutputDelta(turn_id=state.turn, call_id=call_id, text=delta))
        elif method == "turn/plan/updated":
            plan = codex_plan(params)
            if plan is not None:
                state.emit(plan.model_copy(update={"turn_id": state.turn}))
        elif method == "item/started":
            self._item_started(params.get("item"))
        elif method == "item/completed":
            self._item_completed(params.get("item"))
        elif method == "thread/status/changed":
            status = params.get("status")
            flags = status.get("activeFlags") if isinstance(status, dict) else None
            state.waiting_on_approval = isinstance(flags, list) and "waitingOnApproval" in flags
        elif method == "thread/tokenUsage/updated":
            usage = params.get("tokenUsage")
            if isinstance(usage, dict):
                state.total = usage_of(usage.get("total"))
        elif method == "error":
            self._error(params)
        elif method in _WARNINGS:
            message = params.get("message") or params.get("summary") or ""
            if message:
                state.emit(Notice(turn_id=state.turn, level="warning", message=str(message)))

    def _show(self, call_id: str, pending: bool = False) -> None:
        state = self._state
        item = state.items.get(call_id)
        if item is None or call_id in state.shown:
            return
        tool = items.tool_of_item(item)
        if tool is None:
            return
        state.shown.add(call_id)
        preview = None
        if item.get("type") == "commandExecution":
            preview = items.command_preview(state.workspace, item.get("command"), item.get("cwd"))
        elif item.get("type") == "fileChange":
            changes = items.normalize_changes(item.get("changes"))
            preview = items.patch_preview(state.workspace, changes)
        state.emit(
            ToolRequested(
                turn_id=state.turn,
                call_id=call_id,
                name=tool[0],
                category=tool[1],
                args=items.item_args(item),
                pending=pending,
                preview=preview,
            )
        )

    def _ensure_running(self, call_id: str) -> None:
        state = self._state
        if call_id in state.running or call_id not in state.items:
            return
        self._show(call_id)
        state.running.add(call_id)
        tool = items.tool_of_item(state.items[call_id])
        if tool is not None:
            state.emit(
                ToolStarted(turn_id=state.turn, call_id=call_id, name=tool[0], category=tool[1])
            )

    def _item_started(self, item: Any) -> None:
        if not isinstance(item, dict) or items.tool_of_item(item) is None:
            return
        call_id = str(item.get("id"))
        self._state.items[call_id] = item
        # A pending approval (announced by waitingOnApproval; always for patches) shows the card.
        if not self._state.waiting_on_approval and item.get("type") != "fileChange":
            self._ensure_running(call_id)

    def _item_completed(self, item: Any) -> None:
        state = self._state
        if not isinstance(item, dict):
            return
        call_id = str(item.get("id"))
        tool = items.tool_of_item(item)
        if tool is None or call_id not in state.items:
            return
        state.items[call_id] = {**state.items[call_id], **item}
        self._approvals.withdraw(
            call_id, QT_TRANSLATE_NOOP("ToolReason", "Codex resolved the request")
        )
        status = item.get("status")
        if status == "declined":
            state.emit(ToolCancelled(turn_id=state.turn, call_id=call_id, reason="declined"))
            return
        self._ensure_running(call_id)
        output = item.get("aggregatedOutput")
        text = output if isinstance(output, str) else "".join(state.output.pop(call_id, []))
        exit_code = item.get("exitCode")
        ok = status == "completed" and exit_code in (0, None)
        diff = None
        file_path = None
        if item.get("type") == "fileChange":
            preview = items.patch_preview(
                state.workspace, items.normalize_changes(item.get("changes"))
            )
            diff = preview.text
            file_path = preview.paths[0] if preview.paths else None
        state.emit(
            ToolFinished(
                turn_id=state.turn,
                call_id=call_id,
                name=tool[0],
                status="success" if ok else "error",
                output=text or "",
                output_type="diff" if diff else "text",
                diff=diff,
                file_path=file_path,
            )
        )

    def _error(self, params: dict[str, Any]) -> None:
        error = params.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        retry = bool(params.get("willRetry"))
        self._state.emit(
            ErrorEvent(
                turn_id=self._state.turn,
                code="codex_error",
                message=str(message or "Codex reported an error"),
                retryable=retry,
            )
        )
