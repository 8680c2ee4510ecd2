"""Host side of the aionrs JSON Stream Protocol: one agent process per conversation.

Works with agents that follow 0.1.0 as written and with the real aionrs 0.2.x, whose quirks are
listed in ``shared/reference/aionrs-real-behaviour.md`` §8: messages carry both ``content`` and
``input``; ``error`` may lack ``msg_id`` and ``info`` has ``msg_id: ""`` (both attributed to the
active turn); usage is cumulative from 0.2 on; ``stop`` ends the process instead of the turn;
bad lines are never reported, so the host reports what the agent sends wrong instead.

Every event line the agent sends is also published, while someone listens, as a ``RawSignal``
``aionrs.<type>`` (``aionrs.tool_request``, ``aionrs.text_delta``, ...). aionrs has no requests
in the JSON-RPC sense (a ``tool_request`` is answered by a separate command), so all of them are
notifications; ``params`` is the event without its ``type``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import from_json

from desktop.core.backend import AgentBackend, AgentStartError, EmitFn, Prompt
from desktop.core.events import (
    AgentExited,
    AgentReady,
    ApprovalMode,
    Decision,
    ErrorEvent,
    Notice,
    SessionEvent,
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
from desktop.core.lines import DEFAULT_LINE_LIMIT, OversizeLine
from desktop.core.process import AgentProcess
from desktop.core.protocols.aionrs import wire
from desktop.core.protocols.aionrs.heartbeat import Heartbeat
from desktop.core.protocols.aionrs.usage import UsageCounter, version_tuple
from desktop.core.signals import RawSignal, SignalFilter, SignalHub, SignalListener, Unsubscribe
from desktop.core.traffic_log import TrafficLog

log = logging.getLogger(__name__)

_CATEGORIES = {c.value: c for c in ToolCategory}
_NON_FATAL_ERRORS = {"tool_error", "protocol_error"}
_SNIPPET = 160


@dataclass(frozen=True)
class LaunchSpec:
    """How to start an agent process. Secrets go in ``env`` only, never in ``argv``."""

    argv: list[str]
    cwd: Path
    env: dict[str, str]
    name: str = "agent"


class AionrsBackend(AgentBackend):
    """An aionrs JSON-stream agent in a child process."""

    protocol = "aionrs"

    def __init__(
        self,
        launch: LaunchSpec,
        *,
        ready_timeout: float = 30.0,
        line_limit: int = DEFAULT_LINE_LIMIT,
        heartbeat_interval: float = 30.0,
        heartbeat_timeout: float = 10.0,
        usage: UsageCounter | None = None,
        traffic_log: TrafficLog | None = None,
    ) -> None:
        self.name = launch.name
        self._launch = launch
        self._ready_timeout = ready_timeout
        self._line_limit = line_limit
        self._usage = usage or UsageCounter()
        self._traffic = traffic_log
        self._process = AgentProcess(
            launch.argv, cwd=launch.cwd, env=launch.env, line_limit=line_limit
        )
        self._emit: EmitFn = lambda _event: None
        self._pending_text: list[str] = []
        self._pending_turn: str | None = None
        self._ready: asyncio.Future[wire.Ready] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._heartbeat_task: asyncio.Task[None] | None = None
        self._turn: str | None = None
        self._turn_error: str | None = None
        self._calls: dict[str, tuple[str, ToolCategory]] = {}
        self._aionrs_02 = False  # 0.2.x: cumulative usage, stop = quit
        self._session_id: str | None = None
        self._exit_expected = False
        self._stop_sent = False
        self._quitting = False
        self._heartbeat = Heartbeat(
            self.name,
            lambda: self._send(wire.Ping()),
            lambda: self._turn is not None,
            self._out,
            interval=heartbeat_interval,
            timeout=heartbeat_timeout,
        )
        self._logged_unknown: set[str] = set()
        self.capabilities: wire.Capabilities = wire.Capabilities()
        self.signals = SignalHub()

    # ------------------------------------------------------------------ AgentBackend

    @property
    def session_id(self) -> str | None:
        """The agent's session id from ``ready``."""
        return self._session_id

    @property
    def process(self) -> AgentProcess:
        """The child process (for tests and diagnostics)."""
        return self._process

    def add_signal_listener(
        self, listener: SignalListener, wants: SignalFilter | None = None
    ) -> Unsubscribe:
        """Receive every event line the agent sends as an ``aionrs.<type>`` signal."""
        return self.signals.add(listener, wants)

    async def start(self, emit: EmitFn) -> AgentReady:
        """Spawn the agent and wait for ``ready`` (or its early exit)."""
        self._emit = emit
        loop = asyncio.get_running_loop()
        self._ready = loop.create_future()
        try:
            await self._process.start()
        except OSError as exc:
            raise AgentStartError(
                f"Cannot run {self._launch.argv[0]!r}: {exc.strerror or exc}"
            ) from exc
        self._reader = loop.create_task(self._read_loop())
        waiters: set[asyncio.Future[Any]] = {self._ready, self._reader}
        await asyncio.wait(
            waiters,
            timeout=self._ready_timeout,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if not self._ready.done():
            if self._reader.done():
                code = self._process.returncode
                raise AgentStartError(
                    f"{self.name} exited with code {code} before it was ready",
                    exit_code=code,
                    stderr_tail=self._process.stderr_tail(),
                )
            self._exit_expected = True
            await self._process.terminate(timeout=2.0)
            await self._reader
            raise AgentStartError(
                f"{self.name} did not become ready within {self._ready_timeout:g} s",
                stderr_tail=self._process.stderr_tail(),
            )
        ready = self._ready.result()
        self._session_id = ready.session_id
        self.capabilities = ready.capabilities
        self._aionrs_02 = version_tuple(ready.version) >= (0, 2)
        self._heartbeat_task = loop.create_task(self._heartbeat.run())
        return AgentReady(
            agent=self.name,
            protocol=self.protocol,
            version=ready.version,
            session_id=ready.session_id,
            capabilities=ready.capabilities.model_dump(exclude_none=True),
        )

    async def send_prompt(self, turn_id: str, prompt: Prompt) -> None:
        """Send ``message`` with both ``content`` (aionrs 0.2) and ``input`` (0.1.0)."""
        self._turn = turn_id
        self._turn_error = None
        self._exit_expected = False
        self._stop_sent = False
        await self._send(
            wire.Message(
                msg_id=turn_id,
                content=prompt.text,
                input=prompt.text,
                files=list(prompt.files) or None,
            )
        )

    async def send_decision(self, call_id: str, decision: Decision, reason: str | None) -> None:
        """``tool_approve`` (scope once/always) or ``tool_deny`` with the reason."""
        if decision == Decision.DENY:
            await self._send(wire.ToolDeny(call_id=call_id, reason=reason or "Denied by the user"))
        else:
            always = decision == Decision.ALWAYS
            await self._send(
                wire.ToolApprove(call_id=call_id, scope="always" if always else "once")
            )

    async def interrupt(self) -> None:
        """Send ``stop``.

        aionrs 0.2 treats ``stop`` as quit (without ``stream_end``, or right after one if the
        turn was already ending), and only notices once its stdin has more input. So for that
        dialect stdin is closed at once: the process exits promptly and no later prompt can be
        written into a process that is about to die.
        """
        self._exit_expected = True
        self._stop_sent = True
        await self._send(wire.Stop())
        if self._aionrs_02:
            self._quitting = True
            self._process.close_stdin()

    @property
    def accepts_prompts(self) -> bool:
        """False after a ``stop`` that makes the agent quit, or once it has exited."""
        return not self._quitting and self._process.returncode is None

    async def set_mode(self, mode: ApprovalMode) -> None:
        """Forward ``set_mode`` (the host applies the mode itself as well)."""
        await self._send(wire.SetMode(mode=mode.value))

    async def send_history(self, text: str) -> None:
        """``init_history`` (a no-op in real aionrs; resume with ``--resume`` instead)."""
        await self._send(wire.InitHistory(text=text))

    async def shutdown(self, timeout: float) -> None:
        """Close stdin, give the agent a moment, then terminate and kill its process tree."""
        self._exit_expected = True
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
        if self._process.returncode is None and self._process.pid is not None:
            self._process.close_stdin()
            try:
                await asyncio.wait_for(asyncio.shield(self._process.wait()), min(1.0, timeout))
            except TimeoutError:
                await self._process.terminate(timeout)
        if self._reader is not None:
            await self._reader

    # ------------------------------------------------------------------ reading

    async def _send(self, command: wire._Command) -> None:
        data = wire.encode_command(command)
        if self._traffic is not None:
            self._traffic.record(">", data)
        if not await self._process.write(data):
            log.info("%s: stdin is closed; dropped %s", self.name, command.type)

    async def _read_loop(self) -> None:
        try:
            async for batch in self._process.lines():
                self._heartbeat.saw_output()
                for line in batch:
                    try:
                        self._handle_line(line)
                    except Exception as exc:
                        # A bug in mapping one event must not stop reading: the agent would
                        # look hung and its turn would never end.
                        log.exception("%s: handling an event failed", self.name)
                        self._out(
                            ErrorEvent(
                                turn_id=self._turn,
                                code="internal_error",
                                message=f"Agent Desk could not handle an event "
                                f"from the agent: {exc!r}",
                            )
                        )
                if self._pending_text:
                    self._flush_text()
        except Exception:
            log.exception("%s: reading the agent's output failed", self.name)
        code = await self._process.wait()
        self._process.kill_leftovers()
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
        if self._traffic is not None:
            self._traffic.close()
        if self._ready is not None and self._ready.done():
            self._out(
                AgentExited(
                    exit_code=code if code >= 0 else None,
                    signal=-code if code < 0 else None,
                    stderr_tail=self._process.stderr_tail(),
                    expected=self._exit_expected,
                )
            )

    def _out(self, event: SessionEvent) -> None:
        """Emit an event, after any text still waiting to be emitted."""
        if self._pending_text:
            self._flush_text()
        self._emit(event)

    def _flush_text(self) -> None:
        """Emit the text deltas of this read as one ``text_delta``.

        Consecutive deltas that arrived in the same read are merged: the text and its order are
        unchanged, the latency is the same (they arrived together), and every consumer (window,
        history, extensions, exec output) does its per-event work once per read instead of once
        per token.
        """
        text = "".join(self._pending_text)
        self._pending_text.clear()
        self._emit(TextDelta(turn_id=self._pending_turn, text=text))

    def _protocol_error(self, message: str) -> None:
        self._out(ErrorEvent(turn_id=self._turn, code="protocol_error", message=message))

    def _handle_line(self, line: bytes | OversizeLine) -> None:
        if isinstance(line, OversizeLine):
            self._protocol_error(
                f"The agent sent a line of {line.size:,} bytes, over the {self._line_limit:,}-byte "
                "limit; it was skipped."
            )
            return
        if self._traffic is not None:
            self._traffic.record("<", line)
        try:
            data = from_json(line)
        except ValueError:
            self._bad_json(line)
            return
        kind = data.get("type") if isinstance(data, dict) else None
        if self.signals.active and type(kind) is str:  # one attribute check while nobody listens
            self._publish(kind, data)
        if kind == "text_delta":  # the hot path: merged per read, see _flush_text
            text = data.get("text")
            if type(text) is str:
                if not self._pending_text:
                    self._pending_turn = self._turn
                self._pending_text.append(text)
                return
        model = wire.AGENT_EVENT_MODELS.get(kind) if isinstance(kind, str) else None
        if model is None:
            label = str(kind) if isinstance(data, dict) else type(data).__name__
            if label not in self._logged_unknown:
                self._logged_unknown.add(label)
                log.info("%s: ignoring unknown event type %r", self.name, label)
            return
        try:
            event = model.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            self._protocol_error(
                f"The agent sent a malformed {kind!r} event ({where}: {first['msg']}); "
                "it was skipped."
            )
            return
        if event.model_extra:
            self._note_extra(str(kind), event)
        getattr(self, f"_on_{kind}")(event)

    def _publish(self, kind: str, data: dict[str, Any]) -> None:
        if not self.signals.wants(self.protocol, kind, "notification"):
            return
        msg_id = data.get("msg_id")
        session = data.get("session_id") if kind == "ready" else None
        self.signals.publish(
            RawSignal(
                source=self.protocol,
                signal_type="notification",
                method=kind,
                params={k: v for k, v in data.items() if k != "type"},
                thread_id=self._session_id or (session if isinstance(session, str) else None),
                turn_id=msg_id if isinstance(msg_id, str) and msg_id else self._turn,
            )
        )

    def _bad_json(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            self._protocol_error("The agent sent a line that is not valid UTF-8; it was skipped.")
            return
        snippet = line[:_SNIPPET].decode("utf-8", "replace")
        self._protocol_error(f"The agent sent a line that is not valid JSON: {snippet!r}")

    def _note_extra(self, kind: str, event: BaseModel) -> None:
        key = kind + ":" + ",".join(sorted(event.model_extra or {}))
        if key not in self._logged_unknown:
            self._logged_unknown.add(key)
            log.info("%s: ignoring unknown fields in %s: %s", self.name, kind, key)

    # ------------------------------------------------------------------ event handlers

    def _on_ready(self, event: wire.Ready) -> None:
        if self._ready is not None and not self._ready.done():
            self._ready.set_result(event)

    def _on_stream_start(self, event: wire.StreamStart) -> None:
        pass

    def _on_text_delta(self, event: wire.TextDeltaEvent) -> None:
        if not self._pending_text:
            self._pending_turn = self._turn
        self._pending_text.append(event.text)

    def _on_thinking(self, event: wire.Thinking) -> None:
        self._out(ThinkingDelta(turn_id=self._turn, text=event.text))

    def _on_tool_request(self, event: wire.ToolRequest) -> None:
        category = _CATEGORIES.get(event.tool.category, ToolCategory.EXEC)
        self._calls[event.call_id] = (event.tool.name, category)
        self._out(
            ToolRequested(
                turn_id=self._turn,
                call_id=event.call_id,
                name=event.tool.name,
                category=category,
                args=event.tool.args,
                description=event.tool.description,
            )
        )

    def _on_tool_running(self, event: wire.ToolRunning) -> None:
        name, category = self._calls.setdefault(event.call_id, (event.tool_name, ToolCategory.INFO))
        self._out(
            ToolStarted(
                turn_id=self._turn,
                call_id=event.call_id,
                name=event.tool_name or name,
                category=category,
            )
        )

    def _check_known(self, call_id: str, what: str) -> None:
        if call_id not in self._calls:
            self._calls[call_id] = ("", ToolCategory.EXEC)
            self._out(
                Notice(
                    turn_id=self._turn,
                    level="warning",
                    message=f"The agent reported {what} for an unknown tool call {call_id!r}.",
                )
            )

    def _on_tool_result(self, event: wire.ToolResult) -> None:
        self._check_known(event.call_id, "a result")
        metadata = event.metadata or {}
        file_path = metadata.get("file_path")
        self._out(
            ToolFinished(
                turn_id=self._turn,
                call_id=event.call_id,
                name=event.tool_name or self._calls[event.call_id][0],
                status=event.status,
                output=event.output,
                output_type=event.output_type,
                diff=event.output if event.output_type == "diff" else None,
                file_path=file_path if isinstance(file_path, str) else None,
            )
        )

    def _on_tool_cancelled(self, event: wire.ToolCancelledEvent) -> None:
        self._check_known(event.call_id, "a cancellation")
        self._out(ToolCancelled(turn_id=self._turn, call_id=event.call_id, reason=event.reason))

    def _on_stream_end(self, event: wire.StreamEnd) -> None:
        turn = self._turn
        if turn is None:
            log.info("%s: stream_end outside a turn (msg_id %r) ignored", self.name, event.msg_id)
            return
        reported = Usage.model_validate(event.usage.model_dump()) if event.usage else None
        usage = self._usage.per_turn(reported, self._aionrs_02) if reported else None
        self._turn = None
        reason = TurnEndReason.COMPLETED
        if self._stop_sent:
            reason = TurnEndReason.STOPPED
        elif self._turn_error:
            reason = TurnEndReason.ERROR
        self._out(
            TurnEnded(
                turn_id=turn,
                reason=reason,
                usage=usage,
                message=self._turn_error,
            )
        )

    def _on_error(self, event: wire.Error) -> None:
        body = event.error
        if self._heartbeat.on_error(body.message):
            return
        if self._turn is not None and not body.retryable and body.code not in _NON_FATAL_ERRORS:
            self._turn_error = body.message
        self._out(
            ErrorEvent(
                turn_id=self._turn, code=body.code, message=body.message, retryable=body.retryable
            )
        )

    def _on_info(self, event: wire.Info) -> None:
        self._out(Notice(turn_id=self._turn, message=event.message))

    def _on_config_changed(self, event: wire.ConfigChanged) -> None:
        self.capabilities = event.capabilities

    def _on_mcp_ready(self, event: wire.McpReady) -> None:
        self._out(Notice(message=f"MCP server {event.name!r} is ready ({len(event.tools)} tools)."))

    def _on_pong(self, event: wire.Pong) -> None:
        self._heartbeat.on_pong()
