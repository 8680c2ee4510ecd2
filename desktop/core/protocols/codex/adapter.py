"""Host side of ``codex app-server``: JSON-RPC over stdio, one Codex thread per conversation.

Flow (``shared/reference/real-agents-offline.md`` §4): ``initialize`` / ``initialized``, then
``thread/start`` (or ``thread/resume`` with the stored thread id, which is this backend's
``session_id``), one ``turn/start`` per prompt, ``turn/interrupt`` for Stop. Item notifications
become session events; approval requests (v2 and legacy) become pending ``ToolRequested`` cards
that the Session decides; ``serverRequest/resolved`` for a request nobody answered here withdraws
its card. Every notification and server request is also published as a ``RawSignal``
(``app_server.*``) to listeners added with ``add_signal_listener``.

This module is the process, JSON-RPC and turn lifecycle; item notifications are mapped in
``notifications``, approval requests in ``approvals``, and both share the ``turn.TurnState``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop.core.backend import AgentBackend, AgentStartError, EmitFn, Prompt
from desktop.core.events import (
    AgentExited,
    AgentReady,
    Decision,
    ErrorEvent,
    Notice,
    TurnEnded,
    TurnEndReason,
    Usage,
)
from desktop.core.lines import DEFAULT_LINE_LIMIT
from desktop.core.process import AgentProcess
from desktop.core.protocols.codex.approvals import APPROVAL_METHODS, ApprovalDesk
from desktop.core.protocols.codex.config import CodexOptions
from desktop.core.protocols.codex.notifications import NotificationMapper
from desktop.core.protocols.codex.rpc import (
    METHOD_NOT_FOUND,
    JsonRpcPeer,
    RequestId,
    RpcClosedError,
    RpcError,
)
from desktop.core.protocols.codex.signals import thread_of
from desktop.core.protocols.codex.turn import TurnState
from desktop.core.signals import RawSignal, SignalFilter, SignalHub, SignalListener, Unsubscribe
from desktop.sdk.types import SignalType

log = logging.getLogger(__name__)

CLIENT_INFO = {"name": "agent-desk", "title": "Agent Desk", "version": "0.1.0"}
_TURN_REASONS = {
    "completed": TurnEndReason.COMPLETED,
    "interrupted": TurnEndReason.STOPPED,
    "failed": TurnEndReason.ERROR,
}


@dataclass(frozen=True)
class CodexLaunch:
    """How to start ``codex app-server``. Keys go in ``env`` only."""

    argv: list[str]
    cwd: Path
    env: dict[str, str]
    name: str = "codex"
    options: CodexOptions = field(default_factory=CodexOptions)


class CodexAppServerBackend(AgentBackend):
    """One ``codex app-server`` child process and one Codex thread."""

    protocol = "codex"

    def __init__(
        self,
        launch: CodexLaunch,
        *,
        resume_id: str | None = None,
        ready_timeout: float = 60.0,
        line_limit: int = DEFAULT_LINE_LIMIT,
    ) -> None:
        self.name = launch.name
        self._launch = launch
        self._resume_id = resume_id
        self._ready_timeout = ready_timeout
        self._process = AgentProcess(
            launch.argv, cwd=launch.cwd, env=launch.env, line_limit=line_limit
        )
        self._rpc = JsonRpcPeer(
            self._process,
            on_notification=self._on_notification,
            on_request=self._on_request,
            on_bad_line=self._bad_line,
        )
        self.signals = SignalHub()
        self._state = TurnState(workspace=launch.cwd)
        self._approvals = ApprovalDesk(self._state)
        self._notifications = NotificationMapper(self._state, self._approvals)
        self._reader: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ready = False
        self._exit_expected = False
        self._thread_id: str | None = None
        self._interrupt_wanted = False

    # ------------------------------------------------------------------ AgentBackend

    @property
    def session_id(self) -> str | None:
        """The Codex thread id."""
        return self._thread_id

    @property
    def process(self) -> AgentProcess:
        """The child process (tests and diagnostics)."""
        return self._process

    def add_signal_listener(
        self, listener: SignalListener, wants: SignalFilter | None = None
    ) -> Unsubscribe:
        """Receive every notification and server request as an ``app_server.*`` signal."""
        return self.signals.add(listener, wants)

    @property
    def _emit(self) -> EmitFn:
        return self._state.emit

    async def start(self, emit: EmitFn) -> AgentReady:
        """Spawn Codex, initialize, and start or resume the thread."""
        self._state.emit = emit
        try:
            await self._process.start()
        except OSError as exc:
            raise AgentStartError(
                f"Cannot run {self._launch.argv[0]!r}: {exc.strerror or exc}"
            ) from exc
        self._reader = asyncio.get_running_loop().create_task(self._read_loop())
        try:
            async with asyncio.timeout(self._ready_timeout):
                ready = await self._handshake()
        except (TimeoutError, RpcError, RpcClosedError) as exc:
            self._exit_expected = True
            await self._process.terminate(timeout=2.0)
            await self._reader
            what = (
                f"did not become ready within {self._ready_timeout:g} s"
                if isinstance(exc, TimeoutError)
                else f"failed to start: {exc}"
            )
            raise AgentStartError(
                f"{self.name} {what}",
                exit_code=self._process.returncode,
                stderr_tail=self._process.stderr_tail(),
            ) from exc
        self._ready = True
        return ready

    async def _handshake(self) -> AgentReady:
        init = await self._rpc.call(
            "initialize",
            {
                "clientInfo": CLIENT_INFO,
                "capabilities": {"experimentalApi": False, "requestAttestation": False},
            },
        )
        await self._rpc.notify("initialized")
        params = self._launch.options.thread_params(self._launch.cwd)
        result: Any = None
        if self._resume_id:
            try:
                result = await self._rpc.call(
                    "thread/resume", {**params, "threadId": self._resume_id}
                )
            except RpcError as exc:
                self._emit(
                    Notice(
                        level="warning",
                        message=f"Codex could not resume thread {self._resume_id}: "
                        f"{exc.message}; a new thread was started.",
                    )
                )
        if result is None:
            result = await self._rpc.call("thread/start", params)
        thread = result.get("thread") if isinstance(result, dict) else None
        if not isinstance(thread, dict) or not isinstance(thread.get("id"), str):
            raise RpcError(-32603, "thread/start answered without a thread id")
        self._thread_id = thread["id"]
        user_agent = str(init.get("userAgent", "")) if isinstance(init, dict) else ""
        version = user_agent.split("/", 1)[1].split(" ", 1)[0] if "/" in user_agent else None
        capabilities = {
            k: result.get(k) for k in ("model", "modelProvider", "approvalPolicy", "sandbox")
        }
        return AgentReady(
            agent=self.name,
            protocol=self.protocol,
            version=version,
            session_id=self._thread_id,
            capabilities={k: v for k, v in capabilities.items() if v is not None},
        )

    async def send_prompt(self, turn_id: str, prompt: Prompt) -> None:
        """``turn/start`` with the prompt (attached files are named in the text)."""
        self._state.begin(turn_id)
        self._interrupt_wanted = False
        text = prompt.text
        if prompt.files:
            text += "\n\nAttached files:\n" + "\n".join(f"- {f}" for f in prompt.files)
        params = {
            "threadId": self._thread_id,
            "input": [{"type": "text", "text": text, "text_elements": []}],
        }
        self._spawn(self._start_turn(turn_id, params))

    async def _start_turn(self, turn_id: str, params: dict[str, Any]) -> None:
        state = self._state
        try:
            result = await self._rpc.call("turn/start", params)
        except (RpcError, RpcClosedError) as exc:
            if state.turn == turn_id:
                self._emit(ErrorEvent(turn_id=turn_id, code="turn_start_failed", message=str(exc)))
                self._finish_turn(TurnEndReason.ERROR, str(exc))
            return
        turn = result.get("turn") if isinstance(result, dict) else None
        if state.turn == turn_id and state.codex_turn is None and isinstance(turn, dict):
            state.codex_turn = str(turn.get("id"))
        if self._interrupt_wanted and state.turn == turn_id:
            await self._interrupt_now()

    async def send_decision(self, call_id: str, decision: Decision, reason: str | None) -> None:
        """Answer the approval request: accept / acceptForSession / decline (legacy names for
        ``execCommandApproval`` / ``applyPatchApproval``)."""
        answer = self._approvals.answer(call_id, decision)
        if answer is not None:
            await self._rpc.respond(*answer)

    async def interrupt(self) -> None:
        """``turn/interrupt`` (once the turn id is known); pending cards are withdrawn."""
        self._approvals.withdraw_all("The turn was interrupted")
        if self._state.turn is None:
            return
        self._interrupt_wanted = True
        if self._state.codex_turn is not None:
            await self._interrupt_now()

    async def _interrupt_now(self) -> None:
        self._interrupt_wanted = False
        with contextlib.suppress(RpcError, RpcClosedError):
            await self._rpc.call(
                "turn/interrupt", {"threadId": self._thread_id, "turnId": self._state.codex_turn}
            )

    async def shutdown(self, timeout: float) -> None:
        """Close stdin (Codex exits ~20 ms later), then end the whole process group."""
        self._exit_expected = True
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

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read_loop(self) -> None:
        try:
            await self._rpc.run()
        except Exception:
            log.exception("%s: reading the agent's output failed", self.name)
        code = await self._process.wait()
        self._process.kill_leftovers()
        if self._ready:
            self._emit(
                AgentExited(
                    exit_code=code if code >= 0 else None,
                    signal=-code if code < 0 else None,
                    stderr_tail=self._process.stderr_tail(),
                    expected=self._exit_expected,
                )
            )

    def _bad_line(self, message: str) -> None:
        self._emit(ErrorEvent(turn_id=self._state.turn, code="protocol_error", message=message))

    def _publish(self, kind: str, method: str, params: Any, request_id: Any = None) -> None:
        signal_type: SignalType = "request" if kind == "request" else "notification"
        if not self.signals.wants("app_server", method, signal_type):
            return
        turn = params.get("turnId") if isinstance(params, dict) else None
        self.signals.publish(
            RawSignal(
                source="app_server",
                signal_type=signal_type,
                method=method,
                params=params,
                request_id=request_id,
                thread_id=thread_of(params) or self._thread_id,
                turn_id=turn if isinstance(turn, str) else self._state.codex_turn,
            )
        )

    # ------------------------------------------------------------------ incoming

    def _on_request(
        self, request_id: RequestId, method: str, params: dict[str, Any] | None
    ) -> None:
        self._publish("request", method, params, request_id)
        if method in APPROVAL_METHODS:
            self._approvals.request(request_id, method, params or {})
            return
        self._spawn(
            self._rpc.respond_error(
                request_id, METHOD_NOT_FOUND, f"Agent Desk does not support {method}"
            )
        )

    def _on_notification(self, method: str, params: dict[str, Any] | None) -> None:
        self._publish("notification", method, params)
        params = params or {}
        state = self._state
        if method == "turn/started":
            turn = params.get("turn")
            if state.turn is not None and state.codex_turn is None and isinstance(turn, dict):
                state.codex_turn = str(turn.get("id"))
        elif method == "serverRequest/resolved":
            self._approvals.withdraw_request(params.get("requestId"), "Codex withdrew the request")
        elif method == "turn/completed":
            self._turn_completed(params)
        else:
            self._notifications.handle(method, params)

    # ------------------------------------------------------------------ turn end

    def _turn_completed(self, params: dict[str, Any]) -> None:
        turn = params.get("turn")
        if not isinstance(turn, dict) or self._state.turn is None:
            return
        if self._state.codex_turn is not None and turn.get("id") != self._state.codex_turn:
            return
        status = str(turn.get("status", "completed"))
        error = turn.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        self._finish_turn(_TURN_REASONS.get(status, TurnEndReason.COMPLETED), message)

    def _finish_turn(self, reason: TurnEndReason, message: str | None) -> None:
        turn = self._state.turn
        if turn is None:
            return
        self._approvals.withdraw_all("The turn ended")
        usage = self._state.end()
        self._emit(
            TurnEnded(
                turn_id=turn,
                reason=reason,
                usage=usage if usage != Usage() else None,
                message=message,
            )
        )
