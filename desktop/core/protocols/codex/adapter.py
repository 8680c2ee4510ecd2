"""Host side of ``codex app-server``: JSON-RPC over stdio, one Codex thread per conversation.

Flow (``shared/reference/real-agents-offline.md`` §4): ``initialize`` / ``initialized``, then
``thread/start`` (or ``thread/resume`` with the stored thread id, which is this backend's
``session_id``), one ``turn/start`` per prompt, ``turn/interrupt`` for Stop. Item notifications
become session events; approval requests (v2 and legacy) become pending ``ToolRequested`` cards
that the Session decides; ``serverRequest/resolved`` for a request nobody answered here withdraws
its card. Every notification and server request is also published as a ``RawSignal``
(``app_server.*``) to listeners added with ``add_signal_listener``.

This module is the JSON-RPC handshake and turn lifecycle (the process lifecycle is
``ProcessBackend``'s); item notifications are mapped in ``notifications``, approval requests in
``approvals``, and both share the ``turn.TurnState``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Unpack

from desktop import __version__
from desktop.core import session_texts as said
from desktop.core.backend import EmitFn, Prompt
from desktop.core.context.images import split_images
from desktop.core.events import (
    AgentChoice,
    AgentReady,
    ChoiceKind,
    ChoicesChanged,
    Decision,
    ErrorEvent,
    McpServerState,
    McpStatus,
    Notice,
    TurnEnded,
    TurnEndReason,
    Usage,
)
from desktop.core.mcp import McpSource
from desktop.core.mcp.status import left_out
from desktop.core.process import AgentProcess
from desktop.core.protocols.codex.approvals import APPROVAL_METHODS, ApprovalDesk
from desktop.core.protocols.codex.config import CodexOptions
from desktop.core.protocols.codex.mcp_servers import codex_mcp
from desktop.core.protocols.codex.models import model_choices
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
from desktop.core.protocols.process_backend import ProcessBackend, ProcessOptions
from desktop.core.signals import RawSignal
from desktop.core.texts import QT_TRANSLATE_NOOP
from desktop.sdk.types import SignalType

log = logging.getLogger(__name__)

#: Seconds ``model/list`` may take before the picker offers only the thread's model.
MODEL_LIST_TIMEOUT = 15.0
CLIENT_INFO = {"name": "agent-desk", "title": "Agent Desk", "version": __version__}
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
    #: The configured MCP servers of the workspace (``-c mcp_servers.*`` at spawn).
    mcp: McpSource | None = None


class CodexAppServerBackend(ProcessBackend[CodexLaunch]):
    """One ``codex app-server`` child process and one Codex thread.

    Its ``session_id`` is the Codex thread id; raw signals are ``app_server.*``: every
    notification and server request.
    """

    protocol = "codex"
    start_errors = (RpcError, RpcClosedError)

    def __init__(self, launch: CodexLaunch, **options: Unpack[ProcessOptions]) -> None:
        super().__init__(launch, **options)
        self._rpc = self._peer()
        self._state = TurnState(workspace=launch.cwd)
        #: The thread's model, and the one the user chose (sent with each turn).
        self._model: str | None = None
        self._chosen_model: str | None = None
        self._models: list[AgentChoice] = []
        self._approvals = ApprovalDesk(self._state)
        self._notifications = NotificationMapper(self._state, self._approvals)
        self._interrupt_wanted = False

    # ------------------------------------------------------------------ AgentBackend

    async def start(self, emit: EmitFn) -> AgentReady:
        """Spawn Codex, initialize, and start or resume the thread."""
        self._state.emit = emit  # the notification mapper and approval desk emit through it
        if self._launch.mcp is not None and self._process.pid is None:
            await self._add_mcp_servers(self._launch.mcp, emit)
        return await super().start(emit)

    def _peer(self) -> JsonRpcPeer:
        return JsonRpcPeer(
            self._process,
            on_notification=self._on_notification,
            on_request=self._on_request,
            on_bad_line=self._bad_line,
        )

    async def _add_mcp_servers(self, source: McpSource, emit: EmitFn) -> None:
        """Extend the launch (not spawned yet) with the servers' ``-c`` overrides and secrets."""
        found = await source()
        args, env, problems = codex_mcp(found)
        for problem in [*found.problems, *problems]:
            emit(Notice(level="warning", message=problem))
            if (status := left_out(problem)) is not None:
                emit(status)
        if not args:
            return
        launch = self._launch
        self._launch = replace(launch, argv=[*launch.argv, *args], env={**launch.env, **env})
        self._process = AgentProcess(
            self._launch.argv, cwd=launch.cwd, env=self._launch.env, line_limit=self._line_limit
        )
        self._process.on_stall = self._on_stall
        self._rpc = self._peer()
        names = ", ".join(s.name for s in found.servers)
        text = QT_TRANSLATE_NOOP("Mcp", "MCP servers passed to Codex: {names}.")
        said = text.with_args(names=names)
        emit(Notice(message=said.english, i18n=said))
        for server in found.servers:  # Codex starts them and does not say how it went
            if any(arg.startswith(f"mcp_servers.{server.name}.") for arg in args):
                emit(McpStatus(server=server.name, state=McpServerState.PASSED))

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
                text = QT_TRANSLATE_NOOP(
                    "Resume",
                    "Codex could not resume thread {thread}: {error}; a new thread was started.",
                ).with_args(thread=self._resume_id, error=exc.message)
                self._emit(Notice(level="warning", message=text.english, i18n=text))
        if result is None:
            result = await self._rpc.call("thread/start", params)
        thread = result.get("thread") if isinstance(result, dict) else None
        if not isinstance(thread, dict) or not isinstance(thread.get("id"), str):
            raise RpcError(-32603, "thread/start answered without a thread id")
        self._session_id = thread["id"]
        user_agent = str(init.get("userAgent", "")) if isinstance(init, dict) else ""
        version = user_agent.split("/", 1)[1].split(" ", 1)[0] if "/" in user_agent else None
        capabilities = {
            k: result.get(k) for k in ("model", "modelProvider", "approvalPolicy", "sandbox")
        }
        model = result.get("model")
        self._model = self._chosen_model or (model if isinstance(model, str) else None)
        self._spawn(self._list_models())
        return AgentReady(
            agent=self.name,
            protocol=self.protocol,
            version=version,
            session_id=self._session_id,
            capabilities={k: v for k, v in capabilities.items() if v is not None},
        )

    async def send_prompt(self, turn_id: str, prompt: Prompt) -> None:
        """``turn/start`` with the prompt: images as ``localImage`` items, other attached and
        mentioned files named in the text."""
        self._state.begin(turn_id)
        self._interrupt_wanted = False
        images, files = split_images(prompt.files)
        text = prompt.text
        if files:  # Codex reads them itself, as the model decides
            text += "\n\nAttached files:\n" + "\n".join(f"- {f}" for f in files)
        items: list[dict[str, Any]] = [{"type": "text", "text": text, "text_elements": []}]
        items += [{"type": "localImage", "path": path} for path in images]
        params = {"threadId": self._session_id, "input": items}
        if self._chosen_model:
            params["model"] = self._chosen_model
        self._spawn(self._start_turn(turn_id, params))

    async def _list_models(self) -> None:
        """Ask which models Codex offers (the picker); a Codex that cannot say offers its own."""
        try:
            result = await asyncio.wait_for(self._rpc.call("model/list", {}), MODEL_LIST_TIMEOUT)
            self._models = model_choices(result)
        except (RpcError, RpcClosedError, TimeoutError) as exc:
            log.info("codex model/list: %s", exc)
        self._emit(ChoicesChanged(current=self._model, available=self._models))

    async def set_choice(self, kind: ChoiceKind, choice_id: str) -> None:
        """Use ``choice_id`` from the next turn on (Codex takes a model per turn)."""
        if kind == ChoiceKind.MODEL:
            self._model = self._chosen_model = choice_id
            self._emit(ChoicesChanged(current=self._model, available=self._models))

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
        self._approvals.withdraw_all(QT_TRANSLATE_NOOP("ToolReason", "The turn was interrupted"))
        if self._state.turn is None:
            return
        self._interrupt_wanted = True
        if self._state.codex_turn is not None:
            await self._interrupt_now()

    async def _interrupt_now(self) -> None:
        self._interrupt_wanted = False
        with contextlib.suppress(RpcError, RpcClosedError):
            await self._rpc.call(
                "turn/interrupt", {"threadId": self._session_id, "turnId": self._state.codex_turn}
            )

    # ------------------------------------------------------------------ plumbing

    async def _read_output(self) -> None:
        await self._rpc.run()

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
                thread_id=thread_of(params) or self._session_id,
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
            self._approvals.withdraw_request(
                params.get("requestId"),
                QT_TRANSLATE_NOOP("ToolReason", "Codex withdrew the request"),
            )
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
        self._approvals.withdraw_all(said.turn_ended())
        usage = self._state.end()
        self._emit(
            TurnEnded(
                turn_id=turn,
                reason=reason,
                usage=usage if usage != Usage() else None,
                model=self._model,
                message=message,
            )
        )
