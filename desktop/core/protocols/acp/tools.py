"""ACP tool calls → tool cards: merged tool state, categories, previews, permission options.

Tool calls arrive in pieces (``tool_call``, several ``tool_call_update``s, and the ``toolCall``
of ``session/request_permission``), in an order that differs per agent (codex-acp asks for
permission before announcing the call), so each call's fields are merged as they come.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop.core.events import Decision, ToolCategory, ToolPreview
from desktop.core.previews import resolve_path, unified_diff

_CATEGORIES = {
    "edit": ToolCategory.EDIT,
    "delete": ToolCategory.EDIT,
    "move": ToolCategory.EDIT,
    "execute": ToolCategory.EXEC,
    "read": ToolCategory.INFO,
    "search": ToolCategory.INFO,
    "fetch": ToolCategory.INFO,
    "think": ToolCategory.INFO,
}
#: Option kinds to pick for a decision, best first (option ids differ per agent). "Approve
#: always" and "reject always" pick a one-off option when the agent offers one: the host keeps
#: the rule, so the agent keeps asking and revoking the rule takes effect.
OPTION_KINDS = {
    Decision.ONCE: ("allow_once", "allow_always"),
    Decision.ALWAYS: ("allow_once", "allow_always"),
    Decision.DENY: ("reject_once", "reject_always"),
    Decision.REJECT_ALWAYS: ("reject_once", "reject_always"),
}


@dataclass
class ToolState:
    """Everything known about one ACP tool call."""

    call_id: str
    title: str = ""
    kind: str = "other"
    status: str = "pending"
    raw_input: dict[str, Any] = field(default_factory=dict)
    content: list[dict[str, Any]] = field(default_factory=list)
    raw_output: Any = None

    def merge(self, data: dict[str, Any]) -> None:
        """Take the fields present in a ``tool_call``/``tool_call_update``/``toolCall``."""
        if data.get("title"):
            self.title = str(data["title"])
        if data.get("kind"):
            self.kind = str(data["kind"])
        if data.get("status"):
            self.status = str(data["status"])
        raw = data.get("rawInput")
        if isinstance(raw, dict) and raw:
            self.raw_input = raw
        content = data.get("content")
        if isinstance(content, list) and content:
            self.content = [c for c in content if isinstance(c, dict)]
        if "rawOutput" in data:
            self.raw_output = data["rawOutput"]

    @property
    def category(self) -> ToolCategory:
        if self.kind == "other" and self.title.startswith("mcp__"):
            return ToolCategory.MCP  # an MCP server's tool (claude-agent-acp names it so)
        return _CATEGORIES.get(self.kind, ToolCategory.EXEC)

    @property
    def name(self) -> str:
        """A short name for the card: the title when short, else the kind."""
        title = self.title.strip()
        return title if title and len(title) <= 60 else self.kind

    def diffs(self) -> list[dict[str, Any]]:
        return [c for c in self.content if c.get("type") == "diff"]

    def preview(self, workspace: Path) -> ToolPreview:
        """Diff for edits (from the agent's own diff content), command, or JSON arguments."""
        diffs = self.diffs()
        if diffs:
            return diff_preview(workspace, diffs)
        if self.kind == "execute":
            command = self.raw_input.get("command", self.title)
            if isinstance(command, list):
                command = " ".join(str(c) for c in command)
            cwd = self.raw_input.get("cwd")
            return ToolPreview(
                kind="command", text=str(command), cwd=str(cwd) if cwd else str(workspace)
            )
        return ToolPreview(
            kind="json", text=json.dumps(self.raw_input or {"title": self.title}, indent=2)
        )

    def output_text(self) -> str:
        """Text of the call's result (content blocks, else rawOutput)."""
        parts: list[str] = []
        for item in self.content:
            inner = item.get("content")
            if item.get("type") == "content" and isinstance(inner, dict):
                text = inner.get("text")
                if isinstance(text, str):
                    parts.append(text)
        if parts:
            return "\n".join(parts)
        raw = self.raw_output
        if isinstance(raw, str):
            return raw
        if isinstance(raw, dict):
            for key in ("aggregated_output", "stdout", "output"):
                if isinstance(raw.get(key), str):
                    return str(raw[key])
        return "" if raw is None else json.dumps(raw)


def diff_preview(workspace: Path, diffs: list[dict[str, Any]]) -> ToolPreview:
    """One unified diff over ACP ``{type: diff, path, oldText?, newText}`` items."""
    texts: list[str] = []
    paths: list[str] = []
    outside_any = False
    new_file = True
    for item in diffs:
        raw_path = str(item.get("path", ""))
        resolved, outside = resolve_path(workspace, raw_path)
        outside_any = outside_any or outside
        try:
            label = str(resolved.relative_to(workspace.resolve()))
        except ValueError:
            label = str(resolved)
        old = item.get("oldText")
        new_file = new_file and not old
        texts.append(unified_diff(str(old or ""), str(item.get("newText") or ""), label))
        paths.append(str(resolved))
    return ToolPreview(
        kind="diff",
        text="".join(texts),
        paths=paths,
        outside_workspace=outside_any,
        new_file=new_file,
    )


def pick_option(options: list[dict[str, Any]], decision: Decision) -> str | None:
    """The agent's ``optionId`` for ``decision``; None means answer ``cancelled``."""
    for kind in OPTION_KINDS[decision]:
        for option in options:
            if option.get("kind") == kind:
                return str(option.get("optionId"))
    return None
