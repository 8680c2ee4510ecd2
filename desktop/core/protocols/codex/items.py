"""Codex app-server items and approval requests → approval-card previews and tool names.

A ``commandExecution`` item becomes an ``exec`` tool with a command preview; a ``fileChange``
item (Codex's ``apply_patch``) an ``edit`` tool whose preview is the unified diff of its changes.
New files arrive as plain content, updates as hunks; both are made into a proper unified diff.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from desktop.core.events import ToolCategory, ToolPreview
from desktop.core.previews import resolve_path, unified_diff

COMMAND_TOOL = "exec_command"
PATCH_TOOL = "apply_patch"


def _text(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value) if value is not None else ""


def command_preview(workspace: Path, command: Any, cwd: Any) -> ToolPreview:
    """The card for a command: the full command line and its working folder."""
    folder = str(cwd) if cwd else str(workspace)
    _, outside = resolve_path(workspace, folder)
    return ToolPreview(kind="command", text=_text(command), cwd=folder, outside_workspace=outside)


def _change_diff(path: str, label: str, kind: str, diff: str) -> str:
    if diff.startswith(("--- ", "diff --git")):
        return diff if diff.endswith("\n") else diff + "\n"
    if kind == "add":
        return unified_diff("", diff, label)
    if kind == "delete":
        return unified_diff(diff, "", label)
    body = diff if diff.endswith("\n") else diff + "\n"
    return f"--- a/{label}\n+++ b/{label}\n{body}"


def normalize_changes(raw: Any) -> list[dict[str, str]]:
    """v2 ``changes: [{path, kind: {type}, diff}]`` or legacy ``fileChanges: {path: {...}}``."""
    changes: list[dict[str, str]] = []
    if isinstance(raw, list):
        for change in raw:
            if not isinstance(change, dict):
                continue
            kind = change.get("kind")
            kind_name = kind.get("type") if isinstance(kind, dict) else kind
            changes.append(
                {
                    "path": str(change.get("path", "")),
                    "kind": str(kind_name or "update"),
                    "diff": str(change.get("diff") or ""),
                }
            )
    elif isinstance(raw, dict):
        for path, change in raw.items():
            if not isinstance(change, dict):
                continue
            kind = str(change.get("type", "update"))
            diff = change.get("unified_diff") or change.get("content") or ""
            changes.append({"path": str(path), "kind": kind, "diff": str(diff)})
    return changes


def patch_preview(workspace: Path, changes: list[dict[str, str]]) -> ToolPreview:
    """The card for a file change: one unified diff over every changed file."""
    texts: list[str] = []
    paths: list[str] = []
    outside_any = False
    for change in changes:
        resolved, outside = resolve_path(workspace, change["path"])
        outside_any = outside_any or outside
        try:
            label = str(resolved.relative_to(workspace.resolve()))
        except ValueError:
            label = str(resolved)
        paths.append(str(resolved))
        texts.append(_change_diff(change["path"], label, change["kind"], change["diff"]))
    return ToolPreview(
        kind="diff",
        text="".join(texts),
        paths=paths,
        outside_workspace=outside_any,
        new_file=bool(changes) and all(c["kind"] == "add" for c in changes),
    )


def tool_of_item(item: dict[str, Any]) -> tuple[str, ToolCategory] | None:
    """Tool name and category of an item that is a tool call (None for messages etc.)."""
    kind = item.get("type")
    if kind == "commandExecution":
        return COMMAND_TOOL, ToolCategory.EXEC
    if kind == "fileChange":
        return PATCH_TOOL, ToolCategory.EDIT
    if kind in ("mcpToolCall", "dynamicToolCall"):
        return str(item.get("tool") or kind), ToolCategory.MCP
    if kind == "webSearch":
        return "web_search", ToolCategory.INFO
    return None


def item_args(item: dict[str, Any]) -> dict[str, Any]:
    """The arguments shown on a tool card."""
    kind = item.get("type")
    if kind == "commandExecution":
        return {"command": _text(item.get("command")), "cwd": item.get("cwd")}
    if kind == "fileChange":
        return {"changes": [c["path"] for c in normalize_changes(item.get("changes"))]}
    args = item.get("arguments")
    return args if isinstance(args, dict) else {}
