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

This module is the commands and the reading of the agent's lines (validation, merged text,
signals); what each event means for the session is its ``mapping.EventMapper``'s, and the
process lifecycle is ``ProcessBackend``'s.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import from_json

from desktop.core.backend import EmitFn, Prompt
from desktop.core.context.images import ImageInput, image_input, refused_images, split_images
from desktop.core.events import (
    AgentReady,
    ApprovalMode,
    ChoiceKind,
    Decision,
    ErrorEvent,
    SessionEvent,
    TextDelta,
)
from desktop.core.lines import DEFAULT_LINE_LIMIT, OversizeLine
from desktop.core.mcp import McpSource
from desktop.core.protocols.aionrs import wire
from desktop.core.protocols.aionrs.heartbeat import Heartbeat
from desktop.core.protocols.aionrs.mapping import EventMapper
from desktop.core.protocols.aionrs.mcp_servers import add_servers, redacted
from desktop.core.protocols.aionrs.models import launched_model
from desktop.core.protocols.aionrs.usage import UsageCounter, version_tuple
from desktop.core.protocols.process_backend import ProcessBackend
from desktop.core.signals import RawSignal
from desktop.core.traffic_log import TrafficLog

log = logging.getLogger(__name__)

_SNIPPET = 160


@dataclass(frozen=True)
class LaunchSpec:
    """How to start an agent process. Secrets go in ``env`` only, never in ``argv``."""

    argv: list[str]
    cwd: Path
    env: dict[str, str]
    name: str = "agent"


class AionrsBackend(ProcessBackend[LaunchSpec]):
    """An aionrs JSON-stream agent in a child process (raw signals: ``aionrs.<type>``)."""

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
        mcp: McpSource | None = None,
    ) -> None:
        super().__init__(launch, ready_timeout=ready_timeout, line_limit=line_limit)
        self._traffic = traffic_log
        self._mcp = mcp
        self._mcp_task: asyncio.Task[None] | None = None
        self._pending_text: list[str] = []
        self._pending_turn: str | None = None
        self._ready_event: asyncio.Future[wire.Ready] | None = None
        self._heartbeat_task: asyncio.Task[None] | None = None
        self._quitting = False
        self._heartbeat = Heartbeat(
            self.name,
            lambda: self._send(wire.Ping()),
            lambda: self._mapper.turn is not None,
            self._out,
            interval=heartbeat_interval,
            timeout=heartbeat_timeout,
        )
        self._mapper = EventMapper(
            self.name,
            self._out,
            on_ready=self._on_ready,
            on_text=self._add_text,
            heartbeat=self._heartbeat,
            usage=usage or UsageCounter(),
        )
        self._logged_unknown: set[str] = set()

    # ------------------------------------------------------------------ AgentBackend

    async def start(self, emit: EmitFn) -> AgentReady:
        """Spawn the agent and wait for ``ready`` (or its early exit)."""
        self._ready_event = asyncio.get_running_loop().create_future()
        return await super().start(emit)

    async def _handshake(self) -> AgentReady:
        assert self._ready_event is not None
        ready = await self._ready_event
        self._session_id = ready.session_id
        self._mapper.capabilities = ready.capabilities
        self._mapper.model = launched_model(self._launch.argv, self._launch.env)
        self._mapper.report_model()
        self._mapper.aionrs_02 = version_tuple(ready.version) >= (0, 2)
        self._heartbeat_task = asyncio.get_running_loop().create_task(self._heartbeat.run())
        if self._mcp is not None:
            adding = add_servers(
                self._mcp, ready.capabilities, self._send, self._out, self._mapper.mcp
            )
            self._mcp_task = asyncio.get_running_loop().create_task(adding)
        return AgentReady(
            agent=self.name,
            protocol=self.protocol,
            version=ready.version,
            session_id=ready.session_id,
            capabilities=ready.capabilities.model_dump(exclude_none=True),
        )

    async def send_prompt(self, turn_id: str, prompt: Prompt) -> None:
        """Send ``message`` with both ``content`` (aionrs 0.2) and ``input`` (0.1.0); attached,
        mentioned and pasted files go in ``files``, images only unless ``image_input`` is
        ``unsupported``."""
        self._mapper.begin_turn(turn_id)
        self._exit_expected = False
        files = list(prompt.files)
        if image_input("aionrs", {"image_input": self._mapper.capabilities.image_input}) is (
            ImageInput.REFUSED
        ):
            refused, files = split_images(files)
            if refused:
                self._out(refused_images(refused, turn_id))
        await self._send(
            wire.Message(
                msg_id=turn_id, content=prompt.text, input=prompt.text, files=files or None
            )
        )

    async def send_decision(self, call_id: str, decision: Decision, reason: str | None) -> None:
        """``tool_approve`` (always with scope ``once``) or ``tool_deny`` with the reason.

        "Approve always" is kept by the host (``ApprovalBook``), never handed to the agent: an
        agent that honours ``scope: "always"`` (0.1.0, the built-in agent) stops asking, so the
        host would see a bare ``tool_running`` (no arguments, no rule; the card said "Bash info
        {}") and revoking the rule could not take effect. Asked every time, the host answers
        from its rule, shows what runs and says which rule allowed it.
        """
        if decision.denies:
            await self._send(wire.ToolDeny(call_id=call_id, reason=reason or "Denied by the user"))
        else:
            await self._send(wire.ToolApprove(call_id=call_id, scope="once"))

    async def interrupt(self) -> None:
        """Send ``stop``.

        aionrs 0.2 treats ``stop`` as quit (without ``stream_end``, or right after one if the
        turn was already ending), and only notices once its stdin has more input. So for that
        dialect stdin is closed at once: the process exits promptly and no later prompt can be
        written into a process that is about to die. ``stop`` never waits behind a blocked write
        (an agent that stopped reading): the session ends the agent after its grace period.
        """
        self._exit_expected = True
        self._mapper.stop_sent = True
        await self._send(wire.Stop(), urgent=True)
        if self._mapper.aionrs_02:
            self._quitting = True
            self._process.close_stdin()

    @property
    def accepts_prompts(self) -> bool:
        """False after a ``stop`` that makes the agent quit, or once it has exited."""
        return not self._quitting and self._process.returncode is None

    async def set_mode(self, mode: ApprovalMode) -> None:
        """Forward ``set_mode`` (the host applies the mode itself as well)."""
        await self._send(wire.SetMode(mode=mode.value))

    async def set_choice(self, kind: ChoiceKind, choice_id: str) -> None:
        """``set_config {model}`` (aionrs applies it after a running turn)."""
        if kind == ChoiceKind.MODEL:
            await self._send(wire.SetConfig(model=choice_id))
            self._mapper.choose(choice_id)

    async def send_history(self, text: str) -> None:
        """``init_history`` (a no-op in real aionrs; resume with ``--resume`` instead)."""
        await self._send(wire.InitHistory(text=text))

    # ------------------------------------------------------------------ process lifecycle

    def _before_shutdown(self) -> None:
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()

    async def _after_exit(self) -> None:
        if self._heartbeat_task is not None:
            self._heartbeat_task.cancel()
        if self._mcp_task is not None:
            self._mcp_task.cancel()
        if self._traffic is not None:
            self._traffic.close()
        if self._ready and self._pending_text:  # agent_exited comes after the text before it
            self._flush_text()

    # ------------------------------------------------------------------ reading

    async def _send(self, command: wire._Command, *, urgent: bool = False) -> None:
        data = wire.encode_command(command)
        if self._traffic is not None:
            shown = redacted(command) if isinstance(command, wire.AddMcpServer) else None
            self._traffic.record(">", wire.encode_command(shown) if shown else data)
        if not await self._process.write(data, urgent=urgent):
            log.info("%s: stdin is closed or blocked; dropped %s", self.name, command.type)

    async def _read_output(self) -> None:
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
                            turn_id=self._mapper.turn,
                            code="internal_error",
                            message=f"Agent Desk could not handle an event from the agent: {exc!r}",
                        )
                    )
            if self._pending_text:
                self._flush_text()

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

    def _on_ready(self, event: wire.Ready) -> None:
        if self._ready_event is not None and not self._ready_event.done():
            self._ready = True  # from now on its exit is reported, even before start returns
            self._ready_event.set_result(event)

    def _add_text(self, text: str) -> None:
        """Queue streamed text to be merged and emitted with the rest of this read."""
        if not self._pending_text:
            self._pending_turn = self._mapper.turn
        self._pending_text.append(text)

    def _protocol_error(self, message: str) -> None:
        self._out(ErrorEvent(turn_id=self._mapper.turn, code="protocol_error", message=message))

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
                self._add_text(text)
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
        self._mapper.handle(event)

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
                turn_id=msg_id if isinstance(msg_id, str) and msg_id else self._mapper.turn,
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
