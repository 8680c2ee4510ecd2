"""Approve read-only tool calls inside the workspace; leave everything else to others."""

from __future__ import annotations

from typing import Any

from desktop.sdk import AgentEventRegistry, AgentRuntimeEvent, action_request


async def approve_reads(event: AgentRuntimeEvent, tools: Any) -> Any:
    """An ``approval.decide`` accept for info-category tools whose paths stay inside."""
    del tools
    payload = event["payload"]
    tool = payload.get("tool") or {}
    preview = payload.get("preview") or {}
    if tool.get("category") != "info" or preview.get("outsideWorkspace", True):
        return None
    return action_request(
        "approval.decide",
        {
            "approvalId": payload["context"]["approvalId"],
            "decision": "accept",
            "scope": "turn",
            "reason": "read-only tool inside the workspace",
        },
    )


def register_agent_events(registry: AgentEventRegistry) -> None:
    """Entry point called by the extension loader."""
    registry.on("tool.approval_requested", approve_reads, priority=50, timeout_ms=2000)
