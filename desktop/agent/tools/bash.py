"""Bash: a shell command in the workspace, in its own process group.

The command's whole process group (and any descendant that left it) is killed on timeout, on
``stop`` and when the command finishes, so nothing it started outlives the tool call. The
provider API keys and the key pipe variables are removed from its environment (the agent took its
keys out of ``os.environ`` at start already): the model must not be able to print them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys

import psutil
from pydantic import Field

from desktop.agent.tools.base import Tool, ToolArgs, ToolContext, ToolFailure, ToolOutput
from desktop.core.key_pipe import KEY_FD_ENV, KEY_PIPE_ENV, PROVIDER_KEY_ENV

MAX_TIMEOUT = 600.0
_DRAIN_AFTER_EXIT = 0.3
SECRET_ENV = (*PROVIDER_KEY_ENV, KEY_PIPE_ENV, KEY_FD_ENV)


class BashArgs(ToolArgs):
    command: str = Field(description="The shell command to run in the workspace")
    timeout: float | None = Field(
        None, gt=0, le=MAX_TIMEOUT, description="Seconds before the command is killed"
    )
    description: str | None = Field(None, description="What the command does, in a few words")


class _Capture:
    """Keeps the first ``cap`` bytes of the output and counts the rest."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.data = bytearray()
        self.total = 0

    async def pump(self, stream: asyncio.StreamReader) -> None:
        while chunk := await stream.read(65536):
            self.total += len(chunk)
            room = self.cap - len(self.data)
            if room > 0:
                self.data += chunk[:room]

    def text(self) -> str:
        text = self.data.decode("utf-8", "replace")
        if self.total > len(self.data):
            text += f"\n… [output truncated: {len(self.data):,} of {self.total:,} bytes shown]"
        return text


def _kill_tree(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL the command's process group and every descendant found by psutil."""
    try:
        tree = psutil.Process(proc.pid).children(recursive=True)
    except psutil.Error:
        tree = []
    if sys.platform != "win32":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    elif proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
    for child in tree:
        with contextlib.suppress(psutil.Error):
            child.kill()


async def _spawn(command: str, ctx: ToolContext) -> asyncio.subprocess.Process:
    env = {k: v for k, v in (ctx.env or os.environ).items() if k not in SECRET_ENV}
    if sys.platform == "win32":
        return await asyncio.create_subprocess_shell(
            command,
            cwd=ctx.workspace,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            creationflags=subprocess.CREATE_NEW_PROCESS_GROUP,
        )
    return await asyncio.create_subprocess_exec(
        "/bin/bash",
        "-c",
        command,
        cwd=ctx.workspace,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


class BashTool(Tool[BashArgs]):
    name = "Bash"
    category = "exec"
    description = (
        "Run a shell command (bash -c) in the workspace. stdout and stderr are combined; long "
        "output is truncated. Commands are killed after the timeout (default 120 s)."
    )
    args_model = BashArgs

    def summary(self, args: BashArgs, ctx: ToolContext) -> str:
        first = args.command.strip().splitlines()[0] if args.command.strip() else ""
        return args.description or f"Run {first[:120]}"

    async def run(self, args: BashArgs, ctx: ToolContext) -> ToolOutput:
        if not args.command.strip():
            raise ToolFailure("The command is empty.")
        timeout = min(args.timeout or ctx.bash_timeout, MAX_TIMEOUT)
        try:
            proc = await _spawn(args.command, ctx)
        except OSError as exc:
            raise ToolFailure(f"Cannot start the shell: {exc}") from exc
        assert proc.stdout is not None
        capture = _Capture(max(0, ctx.output_cap - 256))  # room for the marker and footer
        reader = asyncio.create_task(capture.pump(proc.stdout))
        timed_out = False
        try:
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                timed_out = True
            # Background children may still hold the pipe open: drain briefly, then end them.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(reader), _DRAIN_AFTER_EXIT)
        finally:
            _kill_tree(proc)
            with contextlib.suppress(ProcessLookupError):
                await proc.wait()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
        output = capture.text()
        if output and not output.endswith("\n"):
            output += "\n"
        if timed_out:
            return ToolOutput(
                f"{output}\n[killed: the command timed out after {timeout:g} s]", True
            )
        code = proc.returncode
        footer = f"[exit code {code}]"
        return ToolOutput(output + footer, is_error=code != 0)
