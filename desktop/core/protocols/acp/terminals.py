"""ACP client terminals: ``terminal/create``, ``output``, ``wait_for_exit``, ``kill``, ``release``.

An ACP agent that advertises nothing of its own may ask the client to run a command. Each
``terminal/create`` is a tool call like any exec tool: a pending command card goes through the
session's approval gate (modes, always-rules, the shell deny list), and only an approved command
runs. It runs in the workspace (or the folder asked for), in its own process group, with the
agent's environment and the agent's process-tree tag (``desktop.core.proctree``), so ending the
agent's tree ends it too. Its stdout and stderr stream into the card as ``tool_output_delta``;
the output the agent reads back is bounded by ``outputByteLimit`` (the start is dropped, at a
character boundary). ``release`` (and the agent's exit) kills what still runs.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import logging
import os
import shlex
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp.exceptions import RequestError
from acp.schema import (
    CreateTerminalResponse,
    ReleaseTerminalResponse,
    TerminalExitStatus,
    TerminalOutputResponse,
    WaitForTerminalExitResponse,
)

from desktop.core.backend import EmitFn
from desktop.core.events import (
    ToolCategory,
    ToolFinished,
    ToolOutputDelta,
    ToolPreview,
    ToolStarted,
)
from desktop.core.previews import resolve_path
from desktop.core.proctree import TREE_ENV
from desktop.core.protocols.acp.cards import ToolCards

log = logging.getLogger(__name__)

#: Output kept when the agent gives no ``outputByteLimit`` (and the most it may ask for).
DEFAULT_OUTPUT_LIMIT = 1024 * 1024
_CHUNK = 64 * 1024
_SHELLS = frozenset({"sh", "bash", "zsh", "dash"})


@dataclass
class Terminal:
    """One command the agent asked the client to run."""

    terminal_id: str
    call_id: str
    process: asyncio.subprocess.Process
    limit: int
    turn: str | None
    buffer: bytearray = field(default_factory=bytearray)
    truncated: bool = False
    exited: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None

    def keep(self, chunk: bytes) -> None:
        """Add output; drop the start beyond ``limit`` bytes, at a UTF-8 character boundary."""
        self.buffer += chunk
        excess = len(self.buffer) - self.limit
        if excess > 0:
            while excess < len(self.buffer) and (self.buffer[excess] & 0xC0) == 0x80:
                excess += 1
            del self.buffer[:excess]
            self.truncated = True

    @property
    def output(self) -> str:
        return self.buffer.decode("utf-8", "replace")

    @property
    def exit_status(self) -> tuple[int | None, str | None]:
        """The exit code, or the signal's name when a signal ended it."""
        code = self.process.returncode
        if code is not None and code < 0:
            with contextlib.suppress(ValueError):
                return None, signal.Signals(-code).name
            return None, str(-code)
        return code, None


class Terminals:
    """The terminals of one ACP session.

    Args:
        workspace: Where commands run unless the agent asks for another folder.
        cards: The session's tool cards (approval and the card the output streams into).
        env: The agent's environment (commands run as the agent would run them).
        tree_tag: The agent's process-tree tag, once it runs.
    """

    def __init__(
        self,
        workspace: Path,
        cards: ToolCards,
        env: Mapping[str, str],
        tree_tag: Callable[[], str | None],
    ) -> None:
        self.workspace = workspace
        self._cards = cards
        self._env = dict(env)
        self._tree_tag = tree_tag
        self._terminals: dict[str, Terminal] = {}
        self._ids = 0

    @property
    def _emit(self) -> EmitFn:
        return self._cards.emit

    async def create(
        self,
        command: str,
        args: list[str] | None,
        env: Mapping[str, str],
        cwd: str | None,
        output_byte_limit: int | None,
    ) -> str:
        """Ask, then start the command; its terminal id. Denied: an ACP error."""
        argv = [command, *args] if args else ["/bin/sh", "-c", command]
        shown = _shown(command, args)
        folder, outside = resolve_path(self.workspace, cwd or str(self.workspace))
        preview = ToolPreview(
            kind="command", text=shown, cwd=str(folder), outside_workspace=outside
        )
        call_id = await self._cards.ask_terminal(shown, preview)
        if call_id is None:
            raise RequestError(-32000, f"The user denied running {shown}")
        full_env = {**self._env, **env}
        tag = self._tree_tag()
        if tag is not None:
            full_env[TREE_ENV] = tag
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                cwd=str(folder),
                env=full_env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=sys.platform != "win32",
            )
        except OSError as exc:
            self._emit(
                ToolFinished(
                    turn_id=self._cards.turn, call_id=call_id, name="terminal",
                    status="error", output=f"Could not run {shown}: {exc}",
                )
            )  # fmt: skip
            raise RequestError(-32000, f"Could not run {shown}: {exc}") from exc
        self._ids += 1
        terminal_id = f"term-{self._ids}"
        limit = min(output_byte_limit or DEFAULT_OUTPUT_LIMIT, DEFAULT_OUTPUT_LIMIT)
        terminal = Terminal(terminal_id, call_id, process, max(1, limit), self._cards.turn)
        self._terminals[terminal_id] = terminal
        self._emit(
            ToolStarted(
                turn_id=terminal.turn, call_id=call_id, name="terminal",
                category=ToolCategory.EXEC,
            )
        )  # fmt: skip
        terminal.reader = asyncio.get_running_loop().create_task(self._read(terminal))
        return terminal_id

    async def _read(self, terminal: Terminal) -> None:
        stdout = terminal.process.stdout
        assert stdout is not None
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while chunk := await stdout.read(_CHUNK):
            terminal.keep(chunk)
            text = decoder.decode(chunk)
            if text:
                self._emit(
                    ToolOutputDelta(turn_id=terminal.turn, call_id=terminal.call_id, text=text)
                )
        await terminal.process.wait()
        terminal.exited.set()
        code, sig = terminal.exit_status
        self._emit(
            ToolFinished(
                turn_id=terminal.turn,
                call_id=terminal.call_id,
                name="terminal",
                status="success" if code == 0 else "error",
                output=terminal.output,
            )
        )
        log.debug("terminal %s ended: code %s, signal %s", terminal.terminal_id, code, sig)

    def get(self, terminal_id: str) -> Terminal:
        """The terminal, or ACP's invalid-params error."""
        terminal = self._terminals.get(terminal_id)
        if terminal is None:
            raise RequestError.invalid_params({"terminalId": f"unknown terminal {terminal_id}"})
        return terminal

    async def wait(self, terminal_id: str) -> Terminal:
        """Wait until the command exited (its output read to the end)."""
        terminal = self.get(terminal_id)
        await terminal.exited.wait()
        return terminal

    def kill(self, terminal_id: str) -> None:
        """End the command's whole process group (the terminal stays readable)."""
        _kill_group(self.get(terminal_id).process)

    def release(self, terminal_id: str) -> None:
        """Kill what still runs and forget the terminal."""
        terminal = self._terminals.pop(terminal_id, None)
        if terminal is not None:
            _kill_group(terminal.process)

    def release_all(self) -> None:
        """Kill every terminal (the agent exited or the session ends)."""
        for terminal_id in list(self._terminals):
            self.release(terminal_id)


class TerminalClient:
    """The ACP client's ``terminal/*`` methods over the session's ``Terminals``."""

    _terminals: Terminals

    async def create_terminal(
        self,
        command: str,
        session_id: str,
        args: list[str] | None = None,
        env: list[Any] | None = None,
        cwd: str | None = None,
        output_byte_limit: int | None = None,
        **kwargs: Any,
    ) -> CreateTerminalResponse:
        """Ask (an exec tool call), then run the command in its own process group."""
        variables = {str(v.name): str(v.value) for v in env or []}
        terminal_id = await self._terminals.create(command, args, variables, cwd, output_byte_limit)
        return CreateTerminalResponse(terminal_id=terminal_id)

    async def terminal_output(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> TerminalOutputResponse:
        terminal = self._terminals.get(terminal_id)
        status = None
        if terminal.exited.is_set():
            code, sig = terminal.exit_status
            status = TerminalExitStatus(exit_code=code, signal=sig)
        return TerminalOutputResponse(
            output=terminal.output, truncated=terminal.truncated, exit_status=status
        )

    async def release_terminal(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> ReleaseTerminalResponse:
        self._terminals.release(terminal_id)
        return ReleaseTerminalResponse()

    async def wait_for_terminal_exit(
        self, session_id: str, terminal_id: str, **kwargs: Any
    ) -> WaitForTerminalExitResponse:
        code, sig = (await self._terminals.wait(terminal_id)).exit_status
        return WaitForTerminalExitResponse(exit_code=code, signal=sig)

    async def kill_terminal(self, session_id: str, terminal_id: str, **kwargs: Any) -> None:
        self._terminals.kill(terminal_id)


def _shown(command: str, args: list[str] | None) -> str:
    """The command line as the card says it: a shell's ``-c`` script as the script itself."""
    if not args:
        return command
    if Path(command).name in _SHELLS and len(args) == 2 and args[0] in ("-c", "-lc"):
        return args[1]
    return shlex.join([command, *args])


def _kill_group(process: asyncio.subprocess.Process) -> None:
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if sys.platform == "win32":
            process.kill()
        else:
            os.killpg(process.pid, signal.SIGKILL)
