"""Host side of ``codex app-server``: JSON-RPC over stdio, one Codex thread per conversation.

Flow (``shared/reference/real-agents-offline.md`` §4): ``initialize`` / ``initialized``, then
``thread/start`` (or ``thread/resume`` with the stored thread id, which is this backend's
``session_id``), one ``turn/start`` per prompt, ``turn/interrupt`` for Stop. Item notifications
become session events; approval requests (v2 and legacy) become pending ``ToolRequested`` cards
that the Session decides; ``serverRequest/resolved`` for a request nobody answered here withdraws
its card. Every notification and server request is also published as a ``RawSignal``
(``app_server.*``) to listeners added with ``add_signal_listener``.
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
    TextDelta,
    ThinkingDelta,
    ToolCancelled,
    ToolCategory,
    ToolFinished,
    ToolRequested,
    ToolStarted,
    TurnEnded,
    TurnEndReason,
    Usage,
)
from desktop.core.lines import DEFAULT_LINE_LIMIT
from desktop.core.process import AgentProcess
from desktop.core.protocols.codex import items
from desktop.core.protocols.codex.config import CodexOptions
from desktop.core.protocols.codex.rpc import (
    METHOD_NOT_FOUND,
    JsonRpcPeer,
    RequestId,
    RpcClosedError,
    RpcError,
)
from desktop.core.protocols.codex.signals import thread_of
from desktop.core.signals import RawSignal, SignalFilter, SignalHub, SignalListener, Unsubscribe
from desktop.sdk.types import SignalType

log = logging.getLogger(__name__)

CLIENT_INFO = {"name": "agent-desk", "title": "Agent Desk", "version": "0.1.0"}
_V2_APPROVALS = {"item/commandExecution/requestApproval", "item/fileChange/requestApproval"}
_LEGACY_APPROVALS = {"execCommandApproval", "applyPatchApproval"}
_V2_DECISIONS = {Decision.ONCE: "accept", Decision.ALWAYS: "acceptForSession"}
_LEGACY_DECISIONS = {Decision.ONCE: "approved", Decision.ALWAYS: "approved_for_session"}
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


@dataclass
class _Approval:
    request_id: RequestId
    method: str
    turn_id: str | None


def _usage(breakdown: Any) -> Usage:
    if not isinstance(breakdown, dict):
        return Usage()
    cached = int(breakdown.get("cachedInputTokens") or 0)
    return Usage(
        input_tokens=max(0, int(breakdown.get("inputTokens") or 0) - cached),
        output_tokens=int(breakdown.get("outputTokens") or 0),
        cache_read_tokens=cached,
        cache_write_tokens=int(breakdown.get("cacheWriteInputTokens") or 0),
    )


def _minus(a: Usage, b: Usage) -> Usage:
    return Usage(
        input_tokens=max(0, a.input_tokens - b.input_tokens),
        output_tokens=max(0, a.output_tokens - b.output_tokens),
        cache_read_tokens=max(0, a.cache_read_tokens - b.cache_read_tokens),
        cache_write_tokens=max(0, a.cache_write_tokens - b.cache_write_tokens),
    )


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
        self._emit: EmitFn = lambda _event: None
        self._reader: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ready = False
        self._exit_expected = False
        self._thread_id: str | None = None
        self._turn: str | None = None
        self._codex_turn: str | None = None
        self._interrupt_wanted = False
        self._total = Usage()
        self._turn_base = Usage()
        self._waiting_on_approval = False
        self._items: dict[str, dict[str, Any]] = {}
        self._shown: set[str] = set()
        self._running: set[str] = set()
        self._approvals: dict[str, _Approval] = {}
        self._output: dict[str, list[str]] = {}

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

    async def start(self, emit: EmitFn) -> AgentReady:
        """Spawn Codex, initialize, and start or resume the thread."""
        self._emit = emit
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
        self._turn = turn_id
        self._codex_turn = None
        self._interrupt_wanted = False
        self._turn_base = self._total
        text = prompt.text
        if prompt.files:
            text += "\n\nAttached files:\n" + "\n".join(f"- {f}" for f in prompt.files)
        params = {
            "threadId": self._thread_id,
            "input": [{"type": "text", "text": text, "text_elements": []}],
        }
        self._spawn(self._start_turn(turn_id, params))

    async def _start_turn(self, turn_id: str, params: dict[str, Any]) -> None:
        try:
            result = await self._rpc.call("turn/start", params)
        except (RpcError, RpcClosedError) as exc:
            if self._turn == turn_id:
                self._emit(ErrorEvent(turn_id=turn_id, code="turn_start_failed", message=str(exc)))
                self._finish_turn(TurnEndReason.ERROR, str(exc))
            return
        turn = result.get("turn") if isinstance(result, dict) else None
        if self._turn == turn_id and self._codex_turn is None and isinstance(turn, dict):
            self._codex_turn = str(turn.get("id"))
        if self._interrupt_wanted and self._turn == turn_id:
            await self._interrupt_now()

    async def send_decision(self, call_id: str, decision: Decision, reason: str | None) -> None:
        """Answer the approval request: accept / acceptForSession / decline (legacy names for
        ``execCommandApproval`` / ``applyPatchApproval``)."""
        approval = self._approvals.pop(call_id, None)
        if approval is None:
            log.info("%s: decision for %s, which is no longer pending", self.name, call_id)
            return
        if approval.method in _LEGACY_APPROVALS:
            answer = _LEGACY_DECISIONS.get(decision, "denied")
        else:
            answer = _V2_DECISIONS.get(decision, "decline")
        await self._rpc.respond(approval.request_id, {"decision": answer})

    async def interrupt(self) -> None:
        """``turn/interrupt`` (once the turn id is known); pending cards are withdrawn."""
        self._withdraw_all("The turn was interrupted")
        if self._turn is None:
            return
        self._interrupt_wanted = True
        if self._codex_turn is not None:
            await self._interrupt_now()

    async def _interrupt_now(self) -> None:
        self._interrupt_wanted = False
        with contextlib.suppress(RpcError, RpcClosedError):
            await self._rpc.call(
                "turn/interrupt", {"threadId": self._thread_id, "turnId": self._codex_turn}
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
        self._emit(ErrorEvent(turn_id=self._turn, code="protocol_error", message=message))

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
                turn_id=turn if isinstance(turn, str) else self._codex_turn,
            )
        )

    # ------------------------------------------------------------------ server requests

    def _on_request(
        self, request_id: RequestId, method: str, params: dict[str, Any] | None
    ) -> None:
        self._publish("request", method, params, request_id)
        params = params or {}
        if method in _V2_APPROVALS or method in _LEGACY_APPROVALS:
            self._approval_request(request_id, method, params)
            return
        self._spawn(
            self._rpc.respond_error(
                request_id, METHOD_NOT_FOUND, f"Agent Desk does not support {method}"
            )
        )

    def _approval_request(self, request_id: RequestId, method: str, params: dict[str, Any]) -> None:
        workspace = self._launch.cwd
        call_id = str(params.get("itemId") or params.get("callId") or f"request-{request_id}")
        item = self._items.get(call_id, {})
        if method in ("item/commandExecution/requestApproval", "execCommandApproval"):
            command = params.get("command") or item.get("command")
            cwd = params.get("cwd") or item.get("cwd")
            name, category = items.COMMAND_TOOL, ToolCategory.EXEC
            preview = items.command_preview(workspace, command, cwd)
            args: dict[str, Any] = {"command": preview.text, "cwd": preview.cwd}
        else:
            raw = params.get("fileChanges") or item.get("changes") or params.get("changes")
            changes = items.normalize_changes(raw)
            name, category = items.PATCH_TOOL, ToolCategory.EDIT
            preview = items.patch_preview(workspace, changes)
            args = {"changes": [c["path"] for c in changes]}
        self._approvals[call_id] = _Approval(request_id, method, self._turn)
        self._shown.add(call_id)
        self._emit(
            ToolRequested(
                turn_id=self._turn,
                call_id=call_id,
                name=name,
                category=category,
                args=args,
                description=str(params.get("reason") or ""),
                pending=True,
                preview=preview,
            )
        )

    def _withdraw(self, call_id: str, reason: str) -> None:
        approval = self._approvals.pop(call_id, None)
        if approval is not None:
            self._emit(ToolCancelled(turn_id=approval.turn_id, call_id=call_id, reason=reason))

    def _withdraw_all(self, reason: str) -> None:
        for call_id in tuple(self._approvals):
            self._withdraw(call_id, reason)

    # ------------------------------------------------------------------ notifications

    def _on_notification(self, method: str, params: dict[str, Any] | None) -> None:
        self._publish("notification", method, params)
        params = params or {}
        if method == "item/agentMessage/delta":
            self._emit(TextDelta(turn_id=self._turn, text=str(params.get("delta", ""))))
        elif method in ("item/reasoning/summaryTextDelta", "item/reasoning/textDelta"):
            self._emit(ThinkingDelta(turn_id=self._turn, text=str(params.get("delta", ""))))
        elif method == "item/commandExecution/outputDelta":
            call_id = str(params.get("itemId", ""))
            self._ensure_running(call_id)
            self._output.setdefault(call_id, []).append(str(params.get("delta", "")))
        elif method == "item/started":
            self._item_started(params.get("item"))
        elif method == "item/completed":
            self._item_completed(params.get("item"))
        elif method == "thread/status/changed":
            status = params.get("status")
            flags = status.get("activeFlags") if isinstance(status, dict) else None
            self._waiting_on_approval = isinstance(flags, list) and "waitingOnApproval" in flags
        elif method == "turn/started":
            turn = params.get("turn")
            if self._turn is not None and self._codex_turn is None and isinstance(turn, dict):
                self._codex_turn = str(turn.get("id"))
        elif method == "thread/tokenUsage/updated":
            usage = params.get("tokenUsage")
            if isinstance(usage, dict):
                self._total = _usage(usage.get("total"))
        elif method == "serverRequest/resolved":
            request_id = params.get("requestId")
            for call_id, approval in tuple(self._approvals.items()):
                if approval.request_id == request_id:
                    self._withdraw(call_id, "Codex withdrew the request")
        elif method == "turn/completed":
            self._turn_completed(params)
        elif method == "error":
            self._error(params)
        elif method in ("warning", "configWarning", "deprecationNotice"):
            message = params.get("message") or params.get("summary") or ""
            if message:
                self._emit(Notice(turn_id=self._turn, level="warning", message=str(message)))

    def _show(self, call_id: str, pending: bool = False) -> None:
        item = self._items.get(call_id)
        if item is None or call_id in self._shown:
            return
        tool = items.tool_of_item(item)
        if tool is None:
            return
        self._shown.add(call_id)
        preview = None
        if item.get("type") == "commandExecution":
            preview = items.command_preview(self._launch.cwd, item.get("command"), item.get("cwd"))
        elif item.get("type") == "fileChange":
            changes = items.normalize_changes(item.get("changes"))
            preview = items.patch_preview(self._launch.cwd, changes)
        self._emit(
            ToolRequested(
                turn_id=self._turn,
                call_id=call_id,
                name=tool[0],
                category=tool[1],
                args=items.item_args(item),
                pending=pending,
                preview=preview,
            )
        )

    def _ensure_running(self, call_id: str) -> None:
        if call_id in self._running or call_id not in self._items:
            return
        self._show(call_id)
        self._running.add(call_id)
        tool = items.tool_of_item(self._items[call_id])
        if tool is not None:
            self._emit(
                ToolStarted(turn_id=self._turn, call_id=call_id, name=tool[0], category=tool[1])
            )

    def _item_started(self, item: Any) -> None:
        if not isinstance(item, dict) or items.tool_of_item(item) is None:
            return
        call_id = str(item.get("id"))
        self._items[call_id] = item
        # A pending approval (announced by waitingOnApproval; always for patches) shows the card.
        if not self._waiting_on_approval and item.get("type") != "fileChange":
            self._ensure_running(call_id)

    def _item_completed(self, item: Any) -> None:
        if not isinstance(item, dict):
            return
        call_id = str(item.get("id"))
        tool = items.tool_of_item(item)
        if tool is None or call_id not in self._items:
            return
        self._items[call_id] = {**self._items[call_id], **item}
        self._withdraw(call_id, "Codex resolved the request")
        status = item.get("status")
        if status == "declined":
            self._emit(ToolCancelled(turn_id=self._turn, call_id=call_id, reason="declined"))
            return
        self._ensure_running(call_id)
        output = item.get("aggregatedOutput")
        text = output if isinstance(output, str) else "".join(self._output.pop(call_id, []))
        exit_code = item.get("exitCode")
        ok = status == "completed" and exit_code in (0, None)
        diff = None
        file_path = None
        if item.get("type") == "fileChange":
            preview = items.patch_preview(
                self._launch.cwd, items.normalize_changes(item.get("changes"))
            )
            diff = preview.text
            file_path = preview.paths[0] if preview.paths else None
        self._emit(
            ToolFinished(
                turn_id=self._turn,
                call_id=call_id,
                name=tool[0],
                status="success" if ok else "error",
                output=text or "",
                output_type="diff" if diff else "text",
                diff=diff,
                file_path=file_path,
            )
        )

    def _error(self, params: dict[str, Any]) -> None:
        error = params.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        retry = bool(params.get("willRetry"))
        self._emit(
            ErrorEvent(
                turn_id=self._turn,
                code="codex_error",
                message=str(message or "Codex reported an error"),
                retryable=retry,
            )
        )

    def _turn_completed(self, params: dict[str, Any]) -> None:
        turn = params.get("turn")
        if not isinstance(turn, dict) or self._turn is None:
            return
        if self._codex_turn is not None and turn.get("id") != self._codex_turn:
            return
        status = str(turn.get("status", "completed"))
        error = turn.get("error")
        message = error.get("message") if isinstance(error, dict) else None
        self._finish_turn(_TURN_REASONS.get(status, TurnEndReason.COMPLETED), message)

    def _finish_turn(self, reason: TurnEndReason, message: str | None) -> None:
        turn = self._turn
        if turn is None:
            return
        self._withdraw_all("The turn ended")
        usage = _minus(self._total, self._turn_base)
        self._turn = None
        self._codex_turn = None
        self._items.clear()
        self._shown.clear()
        self._running.clear()
        self._output.clear()
        self._emit(
            TurnEnded(
                turn_id=turn,
                reason=reason,
                usage=usage if usage != Usage() else None,
                message=message,
            )
        )
