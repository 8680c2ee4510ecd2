"""``agentdesk exec``: run prompts headless through the same session engine as the window.

Exit codes: 0 every turn completed or was stopped by ``--timeout``; 1 a turn ended in error or
the agent exited unexpectedly; 2 usage error; 3 the agent failed to start.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from desktop.cli.exec_extensions import ExecExtensions, add_extension_arguments
from desktop.cli.exec_output import JsonPrinter, TextPrinter
from desktop.cli.exec_record import ExecRecording, RecordingError
from desktop.core.agents import (
    AgentChoice,
    AgentNotFoundError,
    make_backend_factory,
    resolve_agent,
)
from desktop.core.backend import AgentStartError, Prompt
from desktop.core.events import (
    AgentExited,
    ApprovalMode,
    Decision,
    DecisionSource,
    SessionEvent,
    ToolRequested,
    TurnEnded,
    TurnEndReason,
    TurnStarted,
)
from desktop.core.remote.launch import resolve_remote_agent
from desktop.core.secrets import SecretStore, SecretStoreError
from desktop.core.session import BackendFactory, Session
from desktop.core.settings import SettingsStore

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_START = 0, 1, 2, 3

_ON_REQUEST = {
    "approve": Decision.ONCE,
    "approve-always": Decision.ALWAYS,
    "deny": Decision.DENY,
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the options of ``agentdesk exec``."""
    parser.add_argument(
        "--workspace",
        type=Path,
        default=None,
        help="folder the agent works in (default: the current folder)",
    )
    agent = parser.add_mutually_exclusive_group()
    agent.add_argument("--agent", help="configured agent name (builtin, aionrs, ...)")
    agent.add_argument("--agent-cmd", help='command of an aionrs-protocol agent, "CMD ARGS"')
    parser.add_argument(
        "--profile", help="provider profile for the built-in agent (see `agentdesk profiles`)"
    )
    parser.add_argument(
        "--continue",
        dest="conversation",
        metavar="CONVERSATION",
        help="continue a stored conversation (id or prefix, see `agentdesk history list`)",
    )
    parser.add_argument(
        "--no-history", action="store_true", help="do not record this run in the history"
    )
    parser.add_argument(
        "--mode", choices=[m.value for m in ApprovalMode], default="default", help="approval mode"
    )
    parser.add_argument(
        "--on-request",
        choices=sorted(_ON_REQUEST),
        default=None,
        help="decide tool requests the mode does not approve (default: ask on a "
        "terminal, otherwise deny)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop a turn that runs longer than this",
    )
    parser.add_argument("--json", action="store_true", help="print session events as JSON Lines")
    add_extension_arguments(parser)
    parser.add_argument(
        "-p",
        "--prompt",
        action="append",
        required=True,
        dest="prompts",
        help="a prompt; repeat for successive turns of one conversation",
    )


class _Outcome:
    """Watches turn ends and agent exits to pick the exit code."""

    def __init__(self) -> None:
        self.failed = False

    def __call__(self, event: SessionEvent) -> None:
        if (
            isinstance(event, TurnEnded)
            and event.reason
            in (
                TurnEndReason.ERROR,
                TurnEndReason.AGENT_EXITED,
            )
        ) or (isinstance(event, AgentExited) and not event.expected):
            self.failed = True


class _Approver:
    """Decides requests the mode leaves open: by ``--on-request``, a y/a/n prompt, or deny."""

    def __init__(self, session: Session, on_request: str | None) -> None:
        self._session = session
        self._on_request = on_request
        self._ask_terminal = on_request is None and sys.stdin.isatty()
        self._queue: asyncio.Queue[ToolRequested] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    def __call__(self, event: SessionEvent) -> None:
        if not isinstance(event, ToolRequested) or not event.pending:
            return
        if self._on_request is not None:
            self._session.decide(
                event.call_id,
                _ON_REQUEST[self._on_request],
                DecisionSource.POLICY,
                source_name=f"--on-request {self._on_request}",
            )
        elif not self._ask_terminal:
            self._session.decide(
                event.call_id,
                Decision.DENY,
                DecisionSource.POLICY,
                source_name="exec without a terminal",
                reason="No one was there to approve this tool call",
            )
        else:
            self._queue.put_nowait(event)
            if self._task is None:
                self._task = asyncio.get_running_loop().create_task(self._ask_loop())

    async def _ask_loop(self) -> None:
        while True:
            request = await self._queue.get()
            if not self._session.approvals.is_pending(request.call_id):
                continue
            if request.preview is not None:
                sys.stderr.write(request.preview.text.rstrip("\n") + "\n")
            sys.stderr.write(f"Allow {request.name}? [y]es / [a]lways / [n]o: ")
            sys.stderr.flush()
            answer = (await asyncio.to_thread(sys.stdin.readline)).strip().lower()
            decision = {
                "y": Decision.ONCE,
                "yes": Decision.ONCE,
                "a": Decision.ALWAYS,
                "always": Decision.ALWAYS,
            }.get(answer, Decision.DENY)
            self._session.decide(request.call_id, decision, DecisionSource.USER)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()


class _TurnTimer:
    """Stops a turn that runs longer than ``--timeout``."""

    def __init__(self, session: Session, timeout: float | None) -> None:
        self._session = session
        self._timeout = timeout
        self._timer: asyncio.TimerHandle | None = None

    def __call__(self, event: SessionEvent) -> None:
        if self._timeout is None:
            return
        if isinstance(event, TurnStarted):
            self._timer = asyncio.get_running_loop().call_later(
                self._timeout, self._expire, event.turn_id
            )
        elif isinstance(event, TurnEnded) and self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expire(self, turn_id: str) -> None:
        if self._session.active_turn == turn_id:
            sys.stderr.write(f"agentdesk: turn exceeded --timeout {self._timeout:g} s; stopping\n")
            asyncio.get_running_loop().create_task(self._session.stop())


async def _remote(
    options: argparse.Namespace, settings: SettingsStore, secrets: SecretStore
) -> tuple[AgentChoice, BackendFactory] | None:
    """The remote runtime named by ``--agent`` (or the default agent), if it is one."""
    try:
        return await resolve_remote_agent(
            settings.settings, secrets, options.agent, options.profile
        )
    except SecretStoreError as exc:
        raise AgentNotFoundError(str(exc)) from exc


async def _run(options: argparse.Namespace, workspace: Path) -> int:
    record = ExecRecording(workspace, enabled=not options.no_history)
    env: dict[str, str] = {}
    factory: BackendFactory | None = None
    try:
        if options.agent_cmd:
            choice = resolve_agent(None, options.agent_cmd)
        else:
            settings, secrets = SettingsStore(), SecretStore()  # loaded once per run
            for message in settings.messages:
                print(f"agentdesk: {message}", file=sys.stderr)
            if (remote := await _remote(options, settings, secrets)) is not None:
                choice, factory = remote
            else:
                choice, env = await record.launch(options.agent, options.profile, settings, secrets)
        resume_id = await record.open(options.conversation, choice)
    except (AgentNotFoundError, RecordingError) as exc:
        print(f"agentdesk: {exc}", file=sys.stderr)
        return EXIT_START
    session = Session(
        factory or make_backend_factory(choice, workspace, env=env),
        workspace=workspace,
        mode=ApprovalMode(options.mode),
        resume_id=resume_id,
    )
    record.attach(session)
    try:
        return await _drive(options, session, record)
    finally:
        await record.close()


async def _drive(options: argparse.Namespace, session: Session, record: ExecRecording) -> int:
    outcome = _Outcome()
    approver = _Approver(session, options.on_request)
    printer = JsonPrinter() if options.json else TextPrinter()
    session.subscribe(printer)
    session.subscribe(outcome)
    extensions = await ExecExtensions.create(options, session)
    session.subscribe(extensions.wrap(approver))
    session.subscribe(_TurnTimer(session, options.timeout))
    try:
        await session.start()
    except AgentStartError as exc:
        printer.flush()
        print(f"agentdesk: the agent failed to start: {exc}", file=sys.stderr)
        return EXIT_START
    try:
        await record.after_start(session)
        for text in options.prompts:
            session.submit(Prompt(text))
        await session.wait_idle()
    finally:
        await extensions.close()
        approver.close()
        await session.close()
        printer.flush()
    return EXIT_FAILED if outcome.failed else EXIT_OK


def run(options: argparse.Namespace) -> int:
    """Run ``agentdesk exec`` and return its exit code."""
    workspace = (options.workspace or Path.cwd()).expanduser().resolve()
    if not workspace.is_dir():
        print(f"agentdesk: workspace {workspace} is not a folder", file=sys.stderr)
        return EXIT_USAGE
    if options.timeout is not None and options.timeout <= 0:
        print("agentdesk: --timeout must be positive", file=sys.stderr)
        return EXIT_USAGE
    try:
        return asyncio.run(_run(options, workspace))
    except KeyboardInterrupt:
        return EXIT_FAILED
