"""Glob and Grep: read-only searches of the workspace, run in a worker thread so a ``stop``
is never stuck behind a large tree walk.

Walks resolve every path they find and skip what resolves outside the workspace (a symlink to
``/etc/passwd`` or to an outside folder), the rule Read/Write/Edit follow for the paths the model
names; ``--allow-outside-workspace`` lifts both.
"""

from __future__ import annotations

import asyncio
import fnmatch
import os
import re
from collections.abc import Iterator
from pathlib import Path

from pydantic import Field

from desktop.agent.tools.base import Tool, ToolArgs, ToolContext, ToolFailure, ToolOutput

MAX_RESULTS = 500
_SKIPPED_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", ".mypy_cache"}
_MAX_GREP_FILE = 5 * 1024 * 1024


def _walk_files(root: Path, ctx: ToolContext) -> Iterator[Path]:
    """Files under ``root`` (not following directory symlinks), confined to the workspace."""
    if root.is_file():
        yield root
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        for name in sorted(files):
            path = Path(folder) / name
            if ctx.confines(path):
                yield path


def _search_root(raw: str | None, ctx: ToolContext) -> Path:
    root = ctx.resolve(raw) if raw else ctx.workspace
    if not root.exists():
        raise ToolFailure(f"{raw} does not exist.")
    return root


class GlobArgs(ToolArgs):
    pattern: str = Field(description="Glob pattern such as **/*.py")
    path: str | None = Field(None, description="Folder to search (default: the workspace)")


class GlobTool(Tool[GlobArgs]):
    name = "Glob"
    category = "info"
    description = "Find files by glob pattern (** matches any folders), newest first."
    args_model = GlobArgs

    def check(self, args: GlobArgs, ctx: ToolContext) -> None:
        if args.path:
            ctx.resolve(args.path)

    def summary(self, args: GlobArgs, ctx: ToolContext) -> str:
        return f"Find files matching {args.pattern}" + (f" in {args.path}" if args.path else "")

    async def run(self, args: GlobArgs, ctx: ToolContext) -> ToolOutput:
        root = _search_root(args.path, ctx)
        if not root.is_dir():
            raise ToolFailure(f"{args.path} is not a folder.")
        if Path(args.pattern).is_absolute() or ".." in Path(args.pattern).parts:
            raise ToolFailure("The pattern must be relative to the search folder.")
        return await asyncio.to_thread(self._glob, root, args.pattern, ctx)

    def _glob(self, root: Path, pattern: str, ctx: ToolContext) -> ToolOutput:
        found: list[tuple[float, Path]] = []
        for path in root.glob(pattern):
            if not path.is_file() or _SKIPPED_DIRS.intersection(path.relative_to(root).parts):
                continue
            if not ctx.confines(path):
                continue
            found.append((path.stat().st_mtime, path))
        if not found:
            return ToolOutput("No files found.")
        found.sort(key=lambda item: (-item[0], str(item[1])))
        lines = [ctx.display(path) for _, path in found[:MAX_RESULTS]]
        if len(found) > MAX_RESULTS:
            lines.append(f"… ({len(found) - MAX_RESULTS} more files not shown)")
        return ToolOutput("\n".join(lines))


class GrepArgs(ToolArgs):
    pattern: str = Field(description="Regular expression (Python syntax)")
    path: str | None = Field(None, description="File or folder to search (default: workspace)")
    glob: str | None = Field(None, description="Only files whose name matches, e.g. *.py")
    case_insensitive: bool = Field(False, description="Ignore case")
    files_only: bool = Field(False, description="List matching files instead of lines")


class GrepTool(Tool[GrepArgs]):
    name = "Grep"
    category = "info"
    description = "Search file contents with a regular expression; prints path:line:text."
    args_model = GrepArgs

    def check(self, args: GrepArgs, ctx: ToolContext) -> None:
        if args.path:
            ctx.resolve(args.path)

    def summary(self, args: GrepArgs, ctx: ToolContext) -> str:
        return f"Search for /{args.pattern}/" + (f" in {args.path}" if args.path else "")

    async def run(self, args: GrepArgs, ctx: ToolContext) -> ToolOutput:
        try:
            regex = re.compile(args.pattern, re.IGNORECASE if args.case_insensitive else 0)
        except re.error as exc:
            raise ToolFailure(f"Invalid regular expression: {exc}") from exc
        root = _search_root(args.path, ctx)
        return await asyncio.to_thread(self._grep, root, regex, args, ctx)

    def _grep(
        self, root: Path, regex: re.Pattern[str], args: GrepArgs, ctx: ToolContext
    ) -> ToolOutput:
        hits: list[str] = []
        more = False
        for path in _walk_files(root, ctx):
            if args.glob and not fnmatch.fnmatch(path.name, args.glob):
                continue
            try:
                if path.stat().st_size > _MAX_GREP_FILE:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            if b"\0" in data[:8192]:
                continue
            text = data.decode("utf-8", "replace")
            for number, line in enumerate(text.splitlines(), start=1):
                if not regex.search(line):
                    continue
                if len(hits) >= MAX_RESULTS:
                    more = True
                    break
                hits.append(
                    ctx.display(path) if args.files_only else f"{ctx.display(path)}:{number}:{line}"
                )
                if args.files_only:
                    break
            if more:
                break
        if not hits:
            return ToolOutput("No matches.")
        if more:
            hits.append(f"… (stopped after {MAX_RESULTS} matches)")
        return ToolOutput("\n".join(hits))
