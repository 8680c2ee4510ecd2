"""Deny shell commands matching the user's deny list, before anyone can approve them.

The patterns, the match (every simple command of a compound line) and the host-side screen live
in ``screen.py``: when this built-in is enabled the host also screens every shell request with
it before the mode and the always-rules, so this handler only catches what reaches the
extensions as a pending request (for example a command preview of an agent-specific tool).
"""

from __future__ import annotations

from typing import Any

from desktop.core.extensions.builtin.shell_deny_list.screen import (
    DEFAULT_PATTERNS,
    DENY_LIST_FILE,
    denial_reason,
    deny_list_path,
    load_patterns,
    matching_pattern,
)
from desktop.sdk import AgentEventRegistry, AgentRuntimeEvent, action_request

__all__ = [
    "DEFAULT_PATTERNS",
    "DENY_LIST_FILE",
    "deny_list_path",
    "deny_listed",
    "load_patterns",
    "matching_pattern",
    "register_agent_events",
]


async def deny_listed(event: AgentRuntimeEvent, tools: Any) -> Any:
    """An ``approval.decide`` decline for a listed command."""
    payload = event["payload"]
    preview = payload.get("preview") or {}
    if preview.get("kind") != "command":
        return None
    pattern = matching_pattern(str(preview.get("text", "")), load_patterns())
    if pattern is None:
        return None
    tools.logger.info({"pattern": pattern}, "denied a listed shell command")
    return action_request(
        "approval.decide",
        {
            "approvalId": payload["context"]["approvalId"],
            "decision": "decline",
            "reason": denial_reason(pattern),
        },
    )


def register_agent_events(registry: AgentEventRegistry) -> None:
    """Entry point called by the extension loader; runs before other approvers."""
    registry.on("tool.approval_requested", deny_listed, priority=10, timeout_ms=2000)
