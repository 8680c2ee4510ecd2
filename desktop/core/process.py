"""An agent child process: spawn it in its own process group, stream its stdout as lines, keep a
bounded tail of its stderr, and end it (and every descendant) for certain.

Agents leave grandchildren behind (aionrs's ``ExecCommand`` children live in their own process
group, an npm launcher leaves its native binary), so ending an agent collects the whole
descendant tree with psutil first and then signals the group and every collected process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
from collections import deque
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path

import psutil

from desktop.core.key_pipe import KEY_FD_ENV, open_key_pipe, take_keys
from desktop.core.lines import DEFAULT_LINE_LIMIT, LineSplitter, OversizeLine

log = logging.getLogger(__name__)

STDERR_TAIL_BYTES = 8192
_READ_CHUNK = 256 * 1024


class AgentProcess:
    """One running agent process with line-oriented stdout.

    Args:
        argv: Program and arguments (never secrets: they are visible to every local user).
        cwd: Working directory (the workspace).
        env: The complete environment for the child.
        line_limit: Largest accepted stdout line in bytes.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        line_limit: int = DEFAULT_LINE_LIMIT,
    ) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self._env = dict(env)
        self._line_limit = line_limit
        self._proc: asyncio.subprocess.Process | None = None
        self._stderr_tail: deque[bytes] = deque()
        self._stderr_size = 0
        self._stderr_task: asyncio.Task[None] | None = None
        self._write_lock = asyncio.Lock()

    @property
    def pid(self) -> int | None:
        """The child's process id once started."""
        return self._proc.pid if self._proc else None

    @property
    def returncode(self) -> int | None:
        """Exit status: ``None`` while running, negative signal number when killed (POSIX)."""
        return self._proc.returncode if self._proc else None

    def launched_as(
        self, argv: Sequence[str], cwd: Path, env: Mapping[str, str], line_limit: int
    ) -> bool:
        """Whether this process runs exactly ``argv`` in ``cwd`` with ``env`` and reads lines
        of at most ``line_limit`` bytes (so a backend may take it over, see
        ``ProcessBackend.adopt``)."""
        return (
            self.argv == list(argv)
            and self.cwd == cwd
            and self._env == dict(env)
            and self._line_limit == line_limit
        )

    async def start(self) -> None:
        """Spawn the process; raises ``OSError`` if the program cannot be executed."""
        kwargs: dict[str, object] = {}
        if sys.platform == "win32":
            kwargs["creationflags"] = (
                subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW
            )
        else:
            kwargs["start_new_session"] = True
        env, keys = take_keys(self._env) if sys.platform != "win32" else (self._env, {})
        key_fd = open_key_pipe(keys) if keys else None  # see desktop.core.key_pipe
        if key_fd is not None:
            env[KEY_FD_ENV] = str(key_fd)
            kwargs["pass_fds"] = (key_fd,)
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *self.argv,
                cwd=str(self.cwd),
                env=env,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                limit=_READ_CHUNK,
                **kwargs,  # type: ignore[arg-type]
            )
        finally:
            if key_fd is not None:
                os.close(key_fd)
        self._stderr_task = asyncio.get_running_loop().create_task(self._drain_stderr())

    async def lines(self) -> AsyncIterator[list[bytes | OversizeLine]]:
        """Yield batches of complete stdout lines until EOF."""
        assert self._proc is not None and self._proc.stdout is not None
        stdout = self._proc.stdout
        splitter = LineSplitter(self._line_limit)
        while True:
            chunk = await stdout.read(_READ_CHUNK)
            if not chunk:
                rest = splitter.finish()
                if rest:
                    yield rest
                return
            batch = splitter.feed(chunk)
            if batch:
                yield batch

    async def write(self, data: bytes) -> bool:
        """Write to stdin; returns False when the pipe is closed (the agent is gone)."""
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdin.is_closing():
            return False
        async with self._write_lock:
            try:
                proc.stdin.write(data)
                await proc.stdin.drain()
            except (BrokenPipeError, ConnectionResetError):
                return False
        return True

    def close_stdin(self) -> None:
        """Send EOF to the agent."""
        if self._proc and self._proc.stdin and not self._proc.stdin.is_closing():
            self._proc.stdin.close()

    async def wait(self) -> int:
        """Wait for exit and for stderr to be fully read; return the exit status."""
        assert self._proc is not None
        code = await self._proc.wait()
        if self._stderr_task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._stderr_task), 2.0)
        return code

    def stderr_tail(self, max_lines: int = 20) -> str:
        """The last lines the agent wrote to stderr (bounded)."""
        text = b"".join(self._stderr_tail).decode("utf-8", "replace")
        return "\n".join(text.rstrip("\n").splitlines()[-max_lines:])

    async def terminate(self, timeout: float = 3.0) -> int:
        """End the process tree: close stdin, SIGTERM, then SIGKILL after ``timeout``."""
        if self._proc is None:
            return 0
        self.close_stdin()
        tree = self._descendants()
        if self._proc.returncode is None:
            self._signal_tree(tree, signal.SIGTERM)
            try:
                return await asyncio.wait_for(self.wait(), timeout)
            except TimeoutError:
                log.warning("agent %s ignored SIGTERM for %.1fs; killing it", self.argv[0], timeout)
        self._signal_tree(tree + self._descendants(), _SIGKILL)
        return await self.wait()

    def kill_leftovers(self) -> None:
        """Kill descendants that outlived the agent (e.g. a shell child in its own group)."""
        self._signal_tree(self._descendants(), _SIGKILL)

    def _descendants(self) -> list[psutil.Process]:
        if self._proc is None:
            return []
        try:
            children: list[psutil.Process] = psutil.Process(self._proc.pid).children(recursive=True)
        except psutil.Error:
            return []
        return children

    def _signal_tree(self, tree: list[psutil.Process], sig: int) -> None:
        assert self._proc is not None
        if sys.platform != "win32":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._proc.pid, sig)
        elif self._proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.kill() if sig == _SIGKILL else self._proc.terminate()
        for child in tree:
            with contextlib.suppress(psutil.Error):
                child.send_signal(sig)

    async def _drain_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        stderr = self._proc.stderr
        while chunk := await stderr.read(65536):
            self._stderr_tail.append(chunk)
            self._stderr_size += len(chunk)
            while self._stderr_size - len(self._stderr_tail[0]) >= STDERR_TAIL_BYTES:
                self._stderr_size -= len(self._stderr_tail.popleft())


_SIGKILL: int = getattr(signal, "SIGKILL", signal.SIGTERM)
