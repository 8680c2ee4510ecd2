"""Deny shell commands matching the user's deny list, before anyone can approve them.

The list lives in ``<config>/shell-deny-list.json`` as ``{"patterns": [...]}`` and is read on
every request, so edits apply at once. A pattern is a glob matched against the whole command
line (``sudo *``) or a regular expression searched in it when prefixed with ``re:``. The file is
created with a few defaults the first time.
"""

from __future__ import annotations

import fnmatch
import json
import re
from pathlib import Path
from typing import Any

from desktop.core.paths import app_paths
from desktop.sdk import AgentEventRegistry, AgentRuntimeEvent, action_request

DENY_LIST_FILE = "shell-deny-list.json"
DEFAULT_PATTERNS = [
    "rm -rf /*",
    "rm -rf ~*",
    "sudo *",
    "git push --force*",
    "git push -f*",
    r"re:\bmkfs(\.\w+)?\b",
    r"re:curl[^|]*\|\s*(ba)?sh",
]


def deny_list_path() -> Path:
    """Where the user's deny list is kept."""
    return app_paths().config / DENY_LIST_FILE


def load_patterns(path: Path | None = None) -> list[str]:
    """The patterns of the deny list (written with defaults when missing)."""
    target = path or deny_list_path()
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({"patterns": DEFAULT_PATTERNS}, indent=2) + "\n")
        return list(DEFAULT_PATTERNS)
    data = json.loads(target.read_text(encoding="utf-8"))
    patterns = data.get("patterns") if isinstance(data, dict) else data
    return [p for p in patterns or [] if isinstance(p, str) and p.strip()]


def matching_pattern(command: str, patterns: list[str]) -> str | None:
    """The first pattern that matches ``command``."""
    text = command.strip()
    for pattern in patterns:
        if pattern.startswith("re:"):
            try:
                if re.search(pattern[3:], text):
                    return pattern
            except re.error:
                continue
        elif fnmatch.fnmatchcase(text, pattern):
            return pattern
    return None


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
            "reason": f"The command matches the deny list pattern {pattern!r}",
        },
    )


def register_agent_events(registry: AgentEventRegistry) -> None:
    """Entry point called by the extension loader; runs before other approvers."""
    registry.on("tool.approval_requested", deny_listed, priority=10, timeout_ms=2000)
