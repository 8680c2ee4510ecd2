"""Show exactly what a tool call will do, before it is approved.

For file writes and edits the host computes the diff itself from the file on disk and the tool's
arguments (AionUi showed an empty diff until after the edit ran). For shell commands it shows the
full command line and working directory; for anything else the arguments as formatted JSON.
A call the host cannot preview (a NUL in a path, a path too long for the system, a file it
may not read) still gets a preview (``safe_preview``): the arguments and the reason, so the
request is shown and decided like any other instead of being dropped.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

from desktop.core.events import ToolCategory, ToolPreview

MAX_PREVIEW_FILE_BYTES = 8 * 1024 * 1024
_WRITE_TOOLS = {"write", "create", "write_file", "writefile"}
_EDIT_TOOLS = {"edit", "str_replace", "multiedit", "edit_file"}
_SHELL_TOOLS = {"bash", "execcommand", "exec_command", "shell", "run_shell_command"}


def resolve_path(workspace: Path, raw: str) -> tuple[Path, bool]:
    """Resolve a tool path against the workspace; the flag says it lies outside it."""
    path = Path(raw).expanduser()
    if not path.is_absolute():
        path = workspace / path
    resolved = path.resolve()
    try:
        resolved.relative_to(workspace.resolve())
    except ValueError:
        return resolved, True
    return resolved, False


class PreviewError(Exception):
    """The host cannot compute what the call will do; the message says why."""


def _read_text(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_PREVIEW_FILE_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise PreviewError(f"the file cannot be read ({exc.strerror or exc})") from exc


def _args_json(args: dict[str, Any]) -> str:
    return json.dumps(args, indent=2, ensure_ascii=False, sort_keys=True, default=repr)


def safe_preview(
    workspace: Path, name: str, category: ToolCategory, args: dict[str, Any]
) -> ToolPreview:
    """``build_preview``, or the arguments with the reason no preview could be made."""
    try:
        return build_preview(workspace, name, category, args)
    except PreviewError as exc:
        reason = str(exc)
    except (OSError, ValueError) as exc:  # NUL in a path, ENAMETOOLONG, ...
        reason = f"the path is not usable ({exc})"
    reason = reason if len(reason) <= 200 else reason[:199] + "…"
    return ToolPreview(
        kind="json",
        text=f"(Agent Desk cannot preview this call: {reason})\n" + _args_json(args),
        unavailable=reason,
    )


def unified_diff(old: str, new: str, label: str) -> str:
    """A unified diff of two texts labelled with ``a/`` and ``b/`` paths."""
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"a/{label}" if old else "/dev/null",
        tofile=f"b/{label}",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def _apply_edit(old: str, args: dict[str, Any]) -> str | None:
    edits = args.get("edits")
    pairs = edits if isinstance(edits, list) else [args]
    text = old
    for edit in pairs:
        if not isinstance(edit, dict):
            return None
        before, after = edit.get("old_string"), edit.get("new_string")
        if not isinstance(before, str) or not isinstance(after, str) or before not in text:
            return None
        text = (
            text.replace(before, after)
            if edit.get("replace_all")
            else text.replace(before, after, 1)
        )
    return text


def _file_arg(args: dict[str, Any]) -> str | None:
    for key in ("file_path", "path", "filePath", "filename"):
        value = args.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def build_preview(
    workspace: Path, name: str, category: ToolCategory, args: dict[str, Any]
) -> ToolPreview:
    """The preview for one tool call (reads the target file for edits)."""
    key = name.lower()
    raw_path = _file_arg(args)
    if raw_path and (key in _WRITE_TOOLS or key in _EDIT_TOOLS):
        path, outside = resolve_path(workspace, raw_path)
        try:
            label = str(path.relative_to(workspace.resolve()))
        except ValueError:
            label = str(path)
        old = _read_text(path) if path.is_file() else None
        new: str | None
        if key in _WRITE_TOOLS:
            content = args.get("content")
            new = content if isinstance(content, str) else None
        else:
            new = _apply_edit(old or "", args) if old is not None else None
        if new is not None:
            return ToolPreview(
                kind="diff",
                text=unified_diff(old or "", new, label),
                paths=[str(path)],
                outside_workspace=outside,
                new_file=old is None,
            )
        note = "(the text to replace was not found in the file)\n" if old is not None else ""
        return ToolPreview(
            kind="json",
            text=note + json.dumps(args, indent=2, ensure_ascii=False),
            paths=[str(path)],
            outside_workspace=outside,
        )
    if key in _SHELL_TOOLS or category == ToolCategory.EXEC:
        command = args.get("command", args.get("cmd"))
        if isinstance(command, list):
            command = " ".join(str(part) for part in command)
        if isinstance(command, str):
            raw_cwd = args.get("cwd") or args.get("workdir") or args.get("directory")
            cwd, outside = (
                resolve_path(workspace, raw_cwd)
                if isinstance(raw_cwd, str)
                else (
                    workspace.resolve(),
                    False,
                )
            )
            return ToolPreview(
                kind="command", text=command, cwd=str(cwd), outside_workspace=outside
            )
    paths: list[str] = []
    outside_any = False
    if raw_path:
        path, outside_any = resolve_path(workspace, raw_path)
        paths.append(str(path))
    return ToolPreview(
        kind="json",
        text=json.dumps(args, indent=2, ensure_ascii=False, sort_keys=True),
        paths=paths,
        outside_workspace=outside_any,
    )
