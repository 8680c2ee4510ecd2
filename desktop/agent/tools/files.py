"""Read, Write and Edit: file tools confined to the workspace.

Edit is exact string replacement (the model quotes the text to change) and answers with a
unified diff so the host can show what changed.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from pydantic import Field

from desktop.agent.tools.base import Tool, ToolArgs, ToolContext, ToolFailure, ToolOutput
from desktop.core.atomic_file import atomic_write

_MAX_READ_BYTES = 10 * 1024 * 1024
_DEFAULT_LINES = 2000
_MAX_LINE_CHARS = 2000


def _read_text(path: Path) -> str:
    if not path.exists():
        raise ToolFailure(f"{path} does not exist.")
    if path.is_dir():
        raise ToolFailure(f"{path} is a folder, not a file.")
    size = path.stat().st_size
    if size > _MAX_READ_BYTES:
        raise ToolFailure(f"{path} is {size:,} bytes, over the {_MAX_READ_BYTES:,}-byte limit.")
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        raise ToolFailure(f"{path} is a binary file.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToolFailure(f"{path} is not UTF-8 text ({exc.reason}).") from exc


class ReadArgs(ToolArgs):
    file_path: str = Field(description="Path of the file (absolute, or relative to the workspace)")
    offset: int = Field(1, ge=1, description="First line to read (1-based)")
    limit: int = Field(_DEFAULT_LINES, ge=1, description="Number of lines to read")


class ReadTool(Tool[ReadArgs]):
    name = "Read"
    category = "info"
    description = (
        "Read a text file. Lines are numbered like `cat -n` (the numbers are not part of the "
        "file). Use offset/limit for long files."
    )
    args_model = ReadArgs

    def check(self, args: ReadArgs, ctx: ToolContext) -> None:
        ctx.resolve(args.file_path)

    def summary(self, args: ReadArgs, ctx: ToolContext) -> str:
        return f"Read {args.file_path}"

    async def run(self, args: ReadArgs, ctx: ToolContext) -> ToolOutput:
        path = ctx.resolve(args.file_path)
        lines = _read_text(path).splitlines()
        if not lines:
            return ToolOutput("(the file is empty)")
        start = args.offset - 1
        if start >= len(lines):
            raise ToolFailure(
                f"{path} has {len(lines)} lines; offset {args.offset} is past the end."
            )
        chosen = lines[start : start + args.limit]
        body = "\n".join(
            f"{number:6}\t{line[:_MAX_LINE_CHARS]}"
            for number, line in enumerate(chosen, start=args.offset)
        )
        rest = len(lines) - start - len(chosen)
        if rest > 0:
            body += f"\n… ({rest} more lines; read on with offset={start + len(chosen) + 1})"
        return ToolOutput(body)


class WriteArgs(ToolArgs):
    file_path: str = Field(description="Path of the file (absolute, or relative to the workspace)")
    content: str = Field(description="The complete new content of the file")


class WriteTool(Tool[WriteArgs]):
    name = "Write"
    category = "edit"
    description = "Create a file or replace its whole content. Parent folders are created."
    args_model = WriteArgs

    def check(self, args: WriteArgs, ctx: ToolContext) -> None:
        ctx.resolve(args.file_path)

    def summary(self, args: WriteArgs, ctx: ToolContext) -> str:
        return f"Write to {args.file_path}"

    async def run(self, args: WriteArgs, ctx: ToolContext) -> ToolOutput:
        path = ctx.resolve(args.file_path)
        if path.is_dir():
            raise ToolFailure(f"{path} is a folder, not a file.")
        existed = path.exists()
        atomic_write(path, args.content, mode=None)
        verb = "Overwrote" if existed else "Created"
        size = len(args.content.encode("utf-8"))
        return ToolOutput(
            f"{verb} {ctx.display(path)} ({size:,} bytes).", metadata={"file_path": str(path)}
        )


class EditArgs(ToolArgs):
    file_path: str = Field(description="Path of the file (absolute, or relative to the workspace)")
    old_string: str = Field(description="Exact text to replace (must be unique unless replace_all)")
    new_string: str = Field(description="Replacement text")
    replace_all: bool = Field(False, description="Replace every occurrence")


class EditTool(Tool[EditArgs]):
    name = "Edit"
    category = "edit"
    description = (
        "Replace an exact string in a file. old_string must match the file exactly (including "
        "indentation) and occur once, unless replace_all is true. Returns a unified diff."
    )
    args_model = EditArgs

    def check(self, args: EditArgs, ctx: ToolContext) -> None:
        ctx.resolve(args.file_path)

    def summary(self, args: EditArgs, ctx: ToolContext) -> str:
        return f"Edit {args.file_path}"

    async def run(self, args: EditArgs, ctx: ToolContext) -> ToolOutput:
        path = ctx.resolve(args.file_path)
        before = _read_text(path)
        if not args.old_string:
            raise ToolFailure("old_string is empty; use Write to create a file.")
        if args.old_string == args.new_string:
            raise ToolFailure("old_string and new_string are the same; nothing to change.")
        count = before.count(args.old_string)
        if count == 0:
            raise ToolFailure(f"old_string was not found in {ctx.display(path)}.")
        if count > 1 and not args.replace_all:
            raise ToolFailure(
                f"old_string occurs {count} times in {ctx.display(path)}; add context to make it "
                "unique or set replace_all."
            )
        after = before.replace(args.old_string, args.new_string)
        atomic_write(path, after, mode=None)
        name = ctx.display(path)
        diff = "\n".join(
            difflib.unified_diff(
                before.splitlines(),
                after.splitlines(),
                fromfile=f"a/{name}",
                tofile=f"b/{name}",
                lineterm="",
            )
        )
        return ToolOutput(diff, output_type="diff", metadata={"file_path": str(path)})
