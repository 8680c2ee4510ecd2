"""Codex approval requests as approval cards, and the answers that go back.

``item/commandExecution/requestApproval`` and ``item/fileChange/requestApproval`` (and the legacy
``execCommandApproval`` / ``applyPatchApproval``) become pending ``ToolRequested`` events with a
host-computed preview. The Session's decision is answered with accept / acceptForSession /
decline (legacy: approved / approved_for_session / denied). A request Codex resolved itself
(``serverRequest/resolved``), an interrupt or the end of the turn withdraws the card. The
waiting requests are held in the shared ``PendingRequests`` book.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from desktop.core.events import Decision, ToolCancelled, ToolCategory, ToolRequested
from desktop.core.previews import build_preview
from desktop.core.protocols.codex import items
from desktop.core.protocols.codex.rpc import RequestId
from desktop.core.protocols.codex.turn import TurnState
from desktop.core.protocols.pending import PendingRequests
from desktop.core.texts import CoreText

log = logging.getLogger(__name__)

COMMAND_APPROVALS = {"item/commandExecution/requestApproval", "execCommandApproval"}
V2_APPROVALS = {"item/commandExecution/requestApproval", "item/fileChange/requestApproval"}
LEGACY_APPROVALS = {"execCommandApproval", "applyPatchApproval"}
#: Codex asks about an MCP server's tool call (``default_tools_approval_mode = "prompt"``) as an
#: elicitation whose ``_meta`` names the tool; answered ``accept`` or ``decline``.
MCP_APPROVAL = "mcpServer/elicitation/request"
APPROVAL_METHODS = V2_APPROVALS | LEGACY_APPROVALS | {MCP_APPROVAL}
#: "Approve always" is answered as a one-off: the host keeps the rule (``ApprovalBook``), so
#: Codex keeps asking, every later call is shown with what it runs and the rule that allowed it,
#: and revoking the rule takes effect (``acceptForSession`` would make Codex stop asking).
_V2_DECISIONS = {Decision.ONCE: "accept", Decision.ALWAYS: "accept"}
_LEGACY_DECISIONS = {Decision.ONCE: "approved", Decision.ALWAYS: "approved"}


@dataclass
class _Approval:
    request_id: RequestId
    method: str
    turn_id: str | None


class ApprovalDesk:
    """The approval requests Codex is waiting on, by tool call id."""

    def __init__(self, state: TurnState) -> None:
        self._state = state
        self._pending: PendingRequests[_Approval] = PendingRequests()

    def request(self, request_id: RequestId, method: str, params: dict[str, Any]) -> None:
        """Show an approval request (one of ``APPROVAL_METHODS``) as a pending card."""
        state = self._state
        call_id = str(params.get("itemId") or params.get("callId") or f"request-{request_id}")
        item = state.items.get(call_id, {})
        if method == MCP_APPROVAL:
            raw_meta = params.get("_meta")
            meta: dict[str, Any] = raw_meta if isinstance(raw_meta, dict) else {}
            tool = str(meta.get("tool_name") or "elicitation")
            name = f"mcp__{params.get('serverName') or 'server'}__{tool}"
            category = ToolCategory.MCP
            tool_args = meta.get("tool_params")
            args: dict[str, Any] = tool_args if isinstance(tool_args, dict) else {}
            preview = build_preview(state.workspace, name, category, args)
            params = {"reason": params.get("message") or ""}
        elif method in COMMAND_APPROVALS:
            command = params.get("command") or item.get("command")
            cwd = params.get("cwd") or item.get("cwd")
            name, category = items.COMMAND_TOOL, ToolCategory.EXEC
            preview = items.command_preview(state.workspace, command, cwd)
            args = {"command": preview.text, "cwd": preview.cwd}
        else:
            raw = params.get("fileChanges") or item.get("changes") or params.get("changes")
            changes = items.normalize_changes(raw)
            name, category = items.PATCH_TOOL, ToolCategory.EDIT
            preview = items.patch_preview(state.workspace, changes)
            args = {"changes": [c["path"] for c in changes]}
        self._pending.add(call_id, _Approval(request_id, method, state.turn))
        state.shown.add(call_id)
        state.emit(
            ToolRequested(
                turn_id=state.turn,
                call_id=call_id,
                name=name,
                category=category,
                args=args,
                description=str(params.get("reason") or ""),
                pending=True,
                preview=preview,
            )
        )

    def answer(self, call_id: str, decision: Decision) -> tuple[RequestId, dict[str, Any]] | None:
        """The JSON-RPC result for a decision, or None when the request is gone."""
        approval = self._pending.take(call_id)
        if approval is None:
            log.info("decision for %s, which is no longer pending", call_id)
            return None
        if approval.method == MCP_APPROVAL:
            accepted = decision in (Decision.ONCE, Decision.ALWAYS)
            return approval.request_id, (
                {"action": "accept", "content": {}} if accepted else {"action": "decline"}
            )
        if approval.method in LEGACY_APPROVALS:
            answer = _LEGACY_DECISIONS.get(decision, "denied")
        else:
            answer = _V2_DECISIONS.get(decision, "decline")
        return approval.request_id, {"decision": answer}

    def withdraw(self, call_id: str, reason: CoreText) -> None:
        """Withdraw the card of ``call_id`` if it is still pending."""
        approval = self._pending.take(call_id)
        if approval is not None:
            self._withdrawn([(call_id, approval)], reason)

    def withdraw_request(self, request_id: Any, reason: CoreText) -> None:
        """Withdraw the card of JSON-RPC request ``request_id`` (Codex resolved it)."""
        self._withdrawn(self._pending.take_all(lambda a: a.request_id == request_id), reason)

    def withdraw_all(self, reason: CoreText) -> None:
        """Withdraw every pending card."""
        self._withdrawn(self._pending.take_all(), reason)

    def _withdrawn(self, taken: list[tuple[str, _Approval]], reason: CoreText) -> None:
        for call_id, approval in taken:
            self._state.emit(
                ToolCancelled(
                    turn_id=approval.turn_id, call_id=call_id, reason=reason.english, i18n=reason
                )
            )
