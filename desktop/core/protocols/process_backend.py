"""The lifecycle of an agent that runs as a local child process, shared by its adapters.

aionrs, ``codex app-server`` and ACP agents differ only in what they say on stdin/stdout; how
they are started, waited for, watched and ended is the same, and getting it subtly different
per adapter is how an agent ends up hung or its exit unreported. ``ProcessBackend`` owns that
part once:

- start: spawn (``OSError`` → ``AgentStartError("Cannot run …")``), then wait for the
  protocol's handshake, the reader ending, or ``ready_timeout``, whichever comes first. An agent
  that exits first, fails the handshake or never answers is reported as ``AgentStartError``
  with its exit code and stderr tail; one that is still running is terminated first.
- exit: once the protocol's reader is done, wait for the process, kill what it left behind and,
  if it had been ready, emit ``AgentExited`` (code or signal, stderr tail, whether we ended it).
- shutdown: close stdin, give the agent a moment to quit on its own, then terminate and kill
  its whole process tree, and wait for the reader to report the exit.
- stall: a write the agent does not read within ``AgentProcess.write_timeout`` is an error
  ("the agent stopped reading its input") and the agent is treated as hung: its tree is ended,
  so the turn ends with its exit and the next prompt starts it again.

Adapters implement ``_handshake`` and ``_read_output`` and keep only their protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import abstractmethod
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypedDict, TypeVar

from desktop.core.backend import AgentBackend, AgentStartError, EmitFn
from desktop.core.events import AgentExited, AgentReady, ErrorEvent, SessionEvent
from desktop.core.lines import DEFAULT_LINE_LIMIT
from desktop.core.process import AgentProcess
from desktop.core.signals import SignalFilter, SignalHub, SignalListener, Unsubscribe
from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText

log = logging.getLogger(__name__)


class ProcessLaunch(Protocol):
    """What every adapter's launch description has. Secrets go in ``env``, never in ``argv``."""

    @property
    def argv(self) -> list[str]: ...

    @property
    def cwd(self) -> Path: ...

    @property
    def env(self) -> dict[str, str]: ...

    @property
    def name(self) -> str: ...


LaunchT = TypeVar("LaunchT", bound=ProcessLaunch)


class ProcessOptions(TypedDict, total=False):
    """The keyword arguments every process backend takes (``Unpack`` them in a subclass)."""

    #: The agent's own session id to resume, where the protocol can.
    resume_id: str | None
    #: Seconds the handshake may take.
    ready_timeout: float
    #: Longest stdout line read (longer ones are skipped and reported).
    line_limit: int


def _discard(_event: SessionEvent) -> None:
    """Where events go before the backend is started."""


class ProcessBackend(AgentBackend, Generic[LaunchT]):
    """An agent in a child process: start, exit reporting and shutdown around its protocol."""

    #: Exceptions of ``_handshake`` that mean "the agent refused or broke the handshake".
    start_errors: ClassVar[tuple[type[BaseException], ...]] = ()

    def __init__(
        self,
        launch: LaunchT,
        *,
        resume_id: str | None = None,
        ready_timeout: float = 60.0,
        line_limit: int = DEFAULT_LINE_LIMIT,
    ) -> None:
        self.name = launch.name
        self._launch = launch
        self._resume_id = resume_id
        self._ready_timeout = ready_timeout
        self._line_limit = line_limit
        self._process = AgentProcess(
            launch.argv, cwd=launch.cwd, env=launch.env, line_limit=line_limit
        )
        self._process.on_stall = self._on_stall
        self.signals = SignalHub()
        self._emit: EmitFn = _discard
        self._reader: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Set once the agent is ready; only then is its exit reported as ``agent_exited``.
        self._ready = False
        #: Whether the next exit is one we asked for (stop, shutdown, a failed start).
        self._exit_expected = False
        self._session_id: str | None = None

    # ------------------------------------------------------------------ for the adapters

    @abstractmethod
    async def _handshake(self) -> AgentReady:
        """Whatever the protocol does until the agent is ready (runs while output is read)."""

    @abstractmethod
    async def _read_output(self) -> None:
        """Read the agent's stdout until EOF (the reader task; exceptions are logged)."""

    def _before_shutdown(self) -> None:
        """First step of ``shutdown``: stop what must not outlive the agent's input."""

    async def _after_exit(self) -> None:
        """The process has exited and its leftovers are killed; ``agent_exited`` comes next."""

    # ------------------------------------------------------------------ AgentBackend

    @property
    def session_id(self) -> str | None:
        """The agent's own session (or thread) id, for resuming the conversation later."""
        return self._session_id

    @property
    def process(self) -> AgentProcess:
        """The child process (for tests and diagnostics)."""
        return self._process

    def add_signal_listener(
        self, listener: SignalListener, wants: SignalFilter | None = None
    ) -> Unsubscribe:
        """Receive the agent's raw traffic as ``<protocol>.*`` signals (see the adapter)."""
        return self.signals.add(listener, wants)

    def adopt(self, process: AgentProcess) -> bool:
        """Take over ``process``, already spawned from this backend's launch, so ``start`` reads
        it instead of spawning another.

        ``agentdesk exec`` spawns its agent before it imports the session engine, so the agent
        starts up meanwhile. Returns False, changing nothing, when ``process`` was launched
        differently (command, folder, environment, line limit), is not running yet, or this
        backend was started already.
        """
        launch = self._launch
        if self._reader is not None or process.pid is None:
            return False
        if not process.launched_as(launch.argv, launch.cwd, launch.env, self._line_limit):
            return False
        self._process = process
        process.on_stall = self._on_stall
        return True

    async def start(self, emit: EmitFn) -> AgentReady:
        """Spawn the agent (unless one was adopted) and wait until its handshake is done (or it
        exits, or time runs out)."""
        self._emit = emit
        try:
            if self._process.pid is None:
                await self._process.start()
        except OSError as exc:
            text = QT_TRANSLATE_NOOP("AgentStart", "Cannot run {program}: {error}").with_args(
                program=repr(self._launch.argv[0]), error=exc.strerror or exc
            )
            raise AgentStartError(text.english, text=text) from exc
        if self._exit_expected:  # shut down while the process was being spawned
            await self._end_failed_start()
            raise self._start_error(
                QT_TRANSLATE_NOOP("AgentStart", "{name} was shut down while it was starting")
            )
        loop = asyncio.get_running_loop()
        reader = self._reader = loop.create_task(self._follow())
        handshake = loop.create_task(self._handshake())
        try:
            await asyncio.wait(
                {handshake, reader},
                timeout=self._ready_timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            if not handshake.done():
                handshake.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await handshake
        if handshake.done() and not handshake.cancelled():
            error = handshake.exception()
            if error is None:
                self._ready = True
                return handshake.result()
            if not isinstance(error, self.start_errors):
                raise error
            await self._end_failed_start()
            failed = QT_TRANSLATE_NOOP("AgentStart", "{name} failed to start: {error}")
            raise self._start_error(failed.with_args(error=error)) from error
        if reader.done():
            exited = QT_TRANSLATE_NOOP(
                "AgentStart", "{name} exited with code {code} before it was ready"
            )
            raise self._start_error(exited.with_args(code=self._process.returncode))
        await self._end_failed_start()
        late = QT_TRANSLATE_NOOP("AgentStart", "{name} did not become ready within {seconds} s")
        raise self._start_error(late.with_args(seconds=f"{self._ready_timeout:g}"))

    async def end_escaped(self) -> None:
        """Kill the stopped turn's processes that left the agent's tree (found by tag/scope)."""
        if self._process.returncode is None and self._process.pid is not None:
            await asyncio.to_thread(self._process.kill_escaped)

    async def shutdown(self, timeout: float) -> None:
        """Close stdin, give the agent a moment, then terminate and kill its process tree."""
        self._exit_expected = True
        self._before_shutdown()
        if self._process.returncode is None and self._process.pid is not None:
            self._process.close_stdin()
            try:
                await asyncio.wait_for(asyncio.shield(self._process.wait()), min(1.0, timeout))
            except TimeoutError:
                await self._process.terminate(timeout)
        if self._reader is not None:
            await self._reader
        for task in tuple(self._tasks):
            task.cancel()

    # ------------------------------------------------------------------ plumbing

    def _on_stall(self) -> None:
        """A write timed out: report it and end the agent (a hung agent never recovers)."""
        text = QT_TRANSLATE_NOOP(
            "AgentHung",
            "The agent stopped reading its input for {seconds} s; it was ended as hung. "
            "The next prompt starts it again.",
        ).with_args(seconds=f"{self._process.write_timeout:g}")
        self._emit(ErrorEvent(code="agent_hung", message=text.english, i18n=text))
        self._spawn(self._process.terminate(2.0))

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background until it ends or the backend shuts down."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _end_failed_start(self) -> None:
        self._exit_expected = True
        await self._process.terminate(timeout=2.0)
        if self._reader is not None:
            await self._reader

    def _start_error(self, what: CoreText) -> AgentStartError:
        """The start failure ``what`` (its ``{name}``: the agent's), with code and stderr."""
        text = what.with_args(name=self.name)
        return AgentStartError(
            text.english,
            exit_code=self._process.returncode,
            stderr_tail=self._process.stderr_tail(),
            text=text,
        )

    async def _follow(self) -> None:
        """The reader task: the protocol's reader, then the exit."""
        try:
            await self._read_output()
        except Exception:
            log.exception("%s: reading the agent's output failed", self.name)
        code = await self._process.wait()
        self._process.kill_leftovers()
        await self._after_exit()
        if self._ready:
            self._emit(
                AgentExited(
                    exit_code=code if code >= 0 else None,
                    signal=-code if code < 0 else None,
                    stderr_tail=self._process.stderr_tail(),
                    expected=self._exit_expected,
                )
            )
