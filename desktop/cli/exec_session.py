"""The running part of ``agentdesk exec``: printing, approving and timing the turns of a session.

Imported by ``exec_command`` only after the agent was spawned (it loads the session engine and
the event models; see ``desktop.core.launch.early``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from desktop.cli.exec_extensions import ExecExtensions
from desktop.cli.exec_output import JsonPrinter, TextPrinter, exec_redactor
from desktop.cli.exec_record import ExecRecording
from desktop.core.backend import AgentStartError, Prompt
from desktop.core.conversation import Conversation
from desktop.core.events import (
    AgentExited,
    Decision,
    DecisionSource,
    SessionEvent,
    ToolRequested,
    TurnEnded,
    TurnEndReason,
    TurnStarted,
)
from desktop.core.session import Session

EXIT_OK, EXIT_FAILED, EXIT_START = 0, 1, 3

#: ``--on-request`` choices and the decision each makes.
ON_REQUEST = {
    "approve": Decision.ONCE,
    "approve-always": Decision.ALWAYS,
    "deny": Decision.DENY,
}


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
                ON_REQUEST[self._on_request],
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


async def drive(
    options: argparse.Namespace, conversation: Conversation, record: ExecRecording
) -> int:
    """Print, approve and time the turns of ``conversation``; returns the exit code."""
    session = conversation.session
    outcome = _Outcome()
    approver = _Approver(session, options.on_request)
    redact = exec_redactor(record.secrets)  # the launch's keys never reach the output
    printer = JsonPrinter(redact=redact) if options.json else TextPrinter(redact=redact)
    session.subscribe(printer)
    record.report_to(printer, printer.flush)  # history write failures, as error events
    session.subscribe(outcome)
    extensions = await ExecExtensions.create(options, conversation)
    session.subscribe(extensions.wrap(approver))
    session.subscribe(_TurnTimer(session, options.timeout))
    try:
        await conversation.start()
    except AgentStartError as exc:
        printer.flush()
        print(f"agentdesk: the agent failed to start: {redact(str(exc))}", file=sys.stderr)
        return EXIT_START
    try:
        for text in options.prompts:
            session.submit(Prompt(text))
        await session.wait_idle()
    finally:
        await extensions.close()
        approver.close()
        await session.close()
        printer.flush()
    return EXIT_FAILED if outcome.failed else EXIT_OK
