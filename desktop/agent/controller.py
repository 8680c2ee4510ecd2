"""The command loop: reads host commands, answers them, and runs turns one after another.

Every line is validated with the host command models of ``desktop.core.protocols.aionrs.wire``;
malformed JSON, unknown command types and invalid fields are answered with ``error``
(``protocol_error``) and otherwise ignored, as the spec asks.
"""

from __future__ import annotations

import asyncio
import json
import logging

from pydantic import ValidationError

from desktop.agent import PROTOCOL_VERSION
from desktop.agent.approvals import MODES, ApprovalPolicy, HostAnswer
from desktop.agent.attachments import user_entry
from desktop.agent.channel import Channel, OversizeCommand, error_event
from desktop.agent.mcp_tools import McpHub
from desktop.agent.settings import SessionSettings
from desktop.agent.turn import TurnEngine
from desktop.core.protocols.aionrs import wire

log = logging.getLogger(__name__)


class Controller:
    """One agent session on stdin/stdout."""

    def __init__(
        self,
        channel: Channel,
        settings: SessionSettings,
        policy: ApprovalPolicy,
        engine: TurnEngine,
        session_id: str,
        mcp: McpHub | None = None,
    ) -> None:
        self._mcp = mcp
        self._channel = channel
        self._settings = settings
        self._policy = policy
        self._engine = engine
        self._session_id = session_id
        self._queue: asyncio.Queue[wire.Message] = asyncio.Queue()
        self._current: asyncio.Task[None] | None = None
        self._busy = False

    def capabilities(self) -> wire.ReadyCapabilities:
        """What this agent offers (``ready`` and ``config_changed``)."""
        return wire.ReadyCapabilities(
            tool_approval=True,
            thinking=True,
            mcp=self._mcp is not None,
            image_input="supported" if self._settings.provider == "anthropic" else "unknown",
            modes=list(MODES),
            current_mode=self._policy.mode,
        )

    def announce(self) -> None:
        """Send ``ready``."""
        self._channel.send(
            wire.Ready(
                type="ready",
                version=PROTOCOL_VERSION,
                session_id=self._session_id,
                capabilities=self.capabilities(),
            )
        )

    async def serve(self) -> None:
        """Handle commands until stdin ends, then stop any turn and return."""
        lines = self._channel.start_reading()
        worker = asyncio.create_task(self._work())
        try:
            while (line := await lines.get()) is not None:
                self._handle(line)
        finally:
            self.stop_turn()
            worker.cancel()
            if self._current is not None:
                await asyncio.wait([self._current])
            await asyncio.wait([worker])

    def stop_turn(self) -> None:
        """Cancel the running turn (it ends its stream itself)."""
        if self._current is not None and not self._current.done():
            self._current.cancel()

    async def _work(self) -> None:
        while True:
            message = await self._queue.get()
            self._busy = True
            entry = user_entry(message.text(), message.files or [], self._settings.workspace)
            for problem in entry.problems:
                self._channel.send(wire.Info(type="info", msg_id=message.msg_id, message=problem))
            self._current = asyncio.create_task(self._engine.run(message.msg_id, entry.entry))
            try:
                await asyncio.wait([self._current])
            finally:
                self._busy = False

    # ------------------------------------------------------------------ commands

    def _protocol_error(self, message: str, msg_id: str | None = None) -> None:
        self._channel.send(error_event("protocol_error", message, msg_id=msg_id))

    def _handle(self, line: bytes | OversizeCommand) -> None:
        if isinstance(line, OversizeCommand):
            self._protocol_error(f"Command line of {line.size:,} bytes is too long; skipped.")
            return
        if not line.strip():
            return
        try:
            data = json.loads(line)
        except ValueError as exc:
            self._protocol_error(f"Malformed JSON command: {exc}")
            return
        if not isinstance(data, dict):
            self._protocol_error(f"A command must be a JSON object, not {type(data).__name__}.")
            return
        kind = data.get("type")
        if not isinstance(kind, str):
            self._protocol_error("The command has no 'type' field.")
            return
        try:
            command = wire.host_command_adapter().validate_python(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            if first["type"] == "union_tag_invalid":
                self._protocol_error(f"Unknown command type: {kind}")
                return
            where = ".".join(str(p) for p in first["loc"][1:]) or kind
            msg_id = data.get("msg_id") if isinstance(data.get("msg_id"), str) else None
            self._protocol_error(f"Invalid {kind!r} command ({where}: {first['msg']}).", msg_id)
            return
        getattr(self, f"_on_{command.type}")(command)

    def _on_message(self, command: wire.Message) -> None:
        if command.content is None and command.input is None:
            self._protocol_error("A 'message' needs 'input' (or 'content').", command.msg_id)
            return
        self._queue.put_nowait(command)

    def _on_stop(self, command: wire.Stop) -> None:
        self.stop_turn()

    def _on_tool_approve(self, command: wire.ToolApprove) -> None:
        verdict = HostAnswer(approved=True, always=command.scope == "always")
        if not self._policy.decide(command.call_id, verdict):
            self._protocol_error(f"No pending tool call {command.call_id!r} to approve.")

    def _on_tool_deny(self, command: wire.ToolDeny) -> None:
        if not self._policy.decide(
            command.call_id, HostAnswer(approved=False, reason=command.reason)
        ):
            self._protocol_error(f"No pending tool call {command.call_id!r} to deny.")

    def _on_init_history(self, command: wire.InitHistory) -> None:
        if self._engine.history or self._busy or not self._queue.empty():
            self._protocol_error("'init_history' must come before the first message; ignored.")
            return
        self._engine.context = command.text

    def _on_set_mode(self, command: wire.SetMode) -> None:
        self._policy.mode = command.mode
        self._config_changed()

    def _on_set_config(self, command: wire.SetConfig) -> None:
        if command.model:
            self._settings.model = command.model
        if command.thinking_budget is not None:
            self._settings.thinking_budget = command.thinking_budget or None
        if command.thinking in ("off", "disabled"):
            self._settings.thinking_budget = None
        self._config_changed()

    def _on_add_mcp_server(self, command: wire.AddMcpServer) -> None:
        if self._mcp is not None:
            self._mcp.add(command)
            return
        self._channel.send(
            error_event(
                "config_error",
                f"MCP servers are not supported by the built-in agent; {command.name!r} ignored.",
            )
        )

    def _on_ping(self, command: wire.Ping) -> None:
        self._channel.send(wire.Pong(type="pong"))

    def _config_changed(self) -> None:
        self._channel.send(
            wire.ConfigChanged(type="config_changed", capabilities=self.capabilities())
        )
