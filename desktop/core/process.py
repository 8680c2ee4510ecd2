"""An agent child process: spawn it in its own process group, stream its stdout as lines, keep a
bounded tail of its stderr, and end it (and every descendant) for certain.

Agents leave grandchildren behind (aionrs's ``ExecCommand`` children live in their own process
group, an npm launcher leaves its native binary, a tool may daemonize and ignore SIGTERM), so
ending an agent collects its whole tree first (``desktop.core.proctree``) and then signals the
group and every collected process, and kills what remains.

Writes to the agent have a time limit: an agent that stops reading its input would otherwise
block the writer (and everyone queued behind it) forever once the pipe is full. A write that
times out marks the agent stalled and reports it (``on_stall``); ending the agent never waits
for a writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path

from desktop.core.cgroup_scope import CgroupScope
from desktop.core.key_pipe import KEY_FD_ENV, open_key_pipe, take_keys
from desktop.core.lines import DEFAULT_LINE_LIMIT, LineSplitter, OversizeLine
from desktop.core.proctree import TREE_ENV, ProcessTree, new_tag, reap

log = logging.getLogger(__name__)

STDERR_TAIL_BYTES = 8192
_READ_CHUNK = 256 * 1024
#: Lines handed to the reader at once, and the time its batches may take before the event loop
#: gets a turn (``AgentProcess.lines``).
BATCH_LINES = 64
TURN_BUDGET_S = 0.002
#: Seconds a write may wait for the agent to read its input before the agent counts as hung.
WRITE_TIMEOUT = 15.0


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
        #: Seconds a write may wait (see ``WRITE_TIMEOUT``).
        self.write_timeout = WRITE_TIMEOUT
        #: Called once when a write times out: the agent stopped reading its input.
        self.on_stall: Callable[[], None] | None = None
        self._stalled = False
        self._tree: ProcessTree | None = None

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

    @property
    def tree_tag(self) -> str | None:
        """The tag of this agent's process tree (``TREE_ENV``), for processes started on its
        behalf (ACP client terminals), so they are found and ended with the agent's tree."""
        return self._tree.tag if self._tree is not None else None

    @property
    def stalled(self) -> bool:
        """Whether a write timed out (the agent stopped reading its input)."""
        return self._stalled

    async def start(self) -> None:
        """Spawn the process; raises ``OSError`` if the program cannot be executed."""
        kwargs: dict[str, object] = {}
        tag = new_tag() if sys.platform.startswith("linux") else None  # find escaped descendants
        if sys.platform == "win32":
            kwargs["creationflags"] = (
                subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW
            )
        else:
            kwargs["start_new_session"] = True
        env, keys = take_keys(self._env) if sys.platform != "win32" else (self._env, {})
        key_fd = open_key_pipe(keys) if keys else None  # see desktop.core.key_pipe
        if tag is not None:
            env = {**env, TREE_ENV: tag}
        if key_fd is not None:
            env[KEY_FD_ENV] = str(key_fd)
            kwargs["pass_fds"] = (key_fd,)
        scope = CgroupScope.create() if tag is not None else None
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
        except BaseException:
            if scope is not None:
                scope.remove()
            raise
        finally:
            if key_fd is not None:
                os.close(key_fd)
        if scope is not None and not scope.add(self._proc.pid):
            scope = None
        self._tree = ProcessTree(self._proc.pid, tag, scope)
        loop = asyncio.get_running_loop()
        self._stderr_task = loop.create_task(self._drain_stderr())

    async def lines(self) -> AsyncIterator[list[bytes | OversizeLine]]:
        """Yield batches of complete stdout lines until EOF, in order.

        A batch holds at most ``BATCH_LINES`` lines, and once the batches handed out (and what
        their reader did with them, up to asking for the next) have taken ``TURN_BUDGET_S``,
        the loop gets a turn before the next: a flood of buffered lines never holds the event
        loop (a window's repaint, its input) for longer than about one budget.
        """
        assert self._proc is not None and self._proc.stdout is not None
        stdout = self._proc.stdout
        splitter = LineSplitter(self._line_limit)
        spent = 0.0  # time taken since the loop last had a turn
        while True:
            chunk = await stdout.read(_READ_CHUNK)
            if not chunk:
                rest = splitter.finish()
                if rest:
                    yield rest
                return
            started = time.perf_counter()
            batch = splitter.feed(chunk)
            for at in range(0, len(batch), BATCH_LINES):
                yield batch[at : at + BATCH_LINES]
                spent += time.perf_counter() - started
                if spent >= TURN_BUDGET_S:
                    await asyncio.sleep(0)
                    spent = 0.0
                started = time.perf_counter()

    async def write(self, data: bytes, *, urgent: bool = False) -> bool:
        """Write to stdin within ``write_timeout``; returns False when the pipe is closed (the
        agent is gone) or the agent stopped reading (then ``on_stall`` is called).

        An ``urgent`` write (a stop) never waits: its bytes go into the pipe's buffer after
        whatever is buffered already (whole lines, so the stream stays intact) and are sent when
        the agent reads; the caller escalates if the agent does not react.
        """
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdin.is_closing() or self._stalled:
            return False
        stdin = proc.stdin
        if urgent:
            try:
                stdin.write(data)
            except (BrokenPipeError, ConnectionResetError):
                return False
            return True
        try:
            async with asyncio.timeout(self.write_timeout), self._write_lock:
                stdin.write(data)
                await stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            return False
        except TimeoutError:
            self._stall()
            return False
        return True

    def _stall(self) -> None:
        if self._stalled:
            return
        self._stalled = True
        log.warning(
            "agent %s stopped reading its input for %.0fs", self.argv[0], self.write_timeout
        )
        self._abort_stdin()  # what is buffered would arrive as half a line: drop it
        if self.on_stall is not None:
            self.on_stall()

    def _abort_stdin(self) -> None:
        """Close stdin at once, dropping unsent data (releases a writer blocked on the pipe)."""
        stdin = self._proc.stdin if self._proc is not None else None
        if stdin is not None and (
            not stdin.is_closing() or stdin.transport.get_write_buffer_size()
        ):
            stdin.transport.abort()

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
        """End the process tree: drop stdin (never waiting for a writer), SIGTERM, then SIGKILL
        after ``timeout``, then kill whatever of the tree is left."""
        if self._proc is None or self._tree is None:
            return 0
        self._abort_stdin()
        tree = self._tree
        await asyncio.to_thread(tree.collect)
        if self._proc.returncode is None:
            self._signal_tree(signal.SIGTERM)
            try:
                code = await asyncio.wait_for(self.wait(), timeout)
            except TimeoutError:
                log.warning("agent %s ignored SIGTERM for %.1fs; killing it", self.argv[0], timeout)
            else:
                await self._end_leftovers()
                return code
        await asyncio.to_thread(tree.collect)
        self._signal_tree(_SIGKILL)
        code = await self.wait()
        await self._end_leftovers()
        return code

    async def _end_leftovers(self, within: float = 2.0) -> None:
        """Kill the rest of the tree and wait (boundedly) until what we adopted is reaped."""
        assert self._tree is not None
        await asyncio.to_thread(self.kill_leftovers)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        tree = self._tree
        while (tree.unreaped() or tree.scope_busy()) and loop.time() < deadline:
            await asyncio.sleep(0.02)  # SIGKILL is delivered asynchronously
            reap()
        tree.release()

    def kill_leftovers(self) -> None:
        """Kill what of the tree outlived the agent (a shell child in its own group, a daemon
        that called ``setsid()`` and ignores SIGTERM) and reap what was adopted."""
        if self._proc is None or self._tree is None:
            return
        self._tree.collect()  # escaped orphans (now init's children) are found by their tag
        self._signal_tree(_SIGKILL)
        reap()
        self._tree.release()

    def kill_escaped(self) -> int:
        """Kill what the agent started that left its tree (a daemon of a stopped turn's tool);
        its remaining descendants are the agent's own business. Returns how many were killed."""
        if self._proc is None or self._tree is None:
            return 0
        killed = self._tree.kill_escaped()
        if killed:
            log.info("killed %d process(es) that left agent %s's tree", killed, self.argv[0])
        reap()
        return killed

    def _signal_tree(self, sig: int) -> None:
        assert self._proc is not None and self._tree is not None
        if sys.platform != "win32":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._proc.pid, sig)
        elif self._proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.kill() if sig == _SIGKILL else self._proc.terminate()
        self._tree.signal(sig)

    async def _drain_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        stderr = self._proc.stderr
        while chunk := await stderr.read(65536):
            self._stderr_tail.append(chunk)
            self._stderr_size += len(chunk)
            while self._stderr_size - len(self._stderr_tail[0]) >= STDERR_TAIL_BYTES:
                self._stderr_size -= len(self._stderr_tail.popleft())


_SIGKILL: int = getattr(signal, "SIGKILL", signal.SIGTERM)
