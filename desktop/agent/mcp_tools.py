"""The built-in agent's MCP servers: ``add_mcp_server`` starts one, its tools join the model's.

Each tool of server ``S`` is offered to the model as ``mcp__S__<tool>`` with the server's own
description and input schema, in the ``mcp`` category, so it goes through the same approval path
as every other tool (the host always asks for ``mcp`` tools). The host learns the outcome of each
server: ``mcp_ready`` with its tools, or an ``mcp_error`` error saying why, with the server's
stderr tail. A server that stops mid-session is reported once as a notice, and the call that
found it gone returns an error to the model. Both name the server in an extra ``mcp_server``
field, which the host turns into a typed ``McpStatus``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from desktop.agent.channel import error_event
from desktop.agent.mcp_client import McpConnection, McpServerError
from desktop.agent.providers.base import ToolSpec
from desktop.agent.tools.base import Tool, ToolArgs, ToolContext, ToolFailure, ToolOutput
from desktop.core.mcp import McpTransport, ResolvedMcpServer
from desktop.core.protocols.aionrs import wire
from desktop.core.protocols.aionrs.mcp_servers import SERVER_FIELD

log = logging.getLogger(__name__)

MCP_CATEGORY = "mcp"
_SUMMARY_CAP = 200


def tool_name(server: str, tool: str) -> str:
    """The name the model sees for ``tool`` of ``server``."""
    return f"mcp__{server}__{tool}"


class McpArgs(ToolArgs):
    """Whatever the server's schema asks for: the server validates its own arguments."""

    model_config = ConfigDict(extra="allow")


class McpTool(Tool[McpArgs]):
    """One tool of one MCP server."""

    category: ClassVar[str] = MCP_CATEGORY
    args_model = McpArgs

    def __init__(self, connection: McpConnection, remote: Any) -> None:
        self._connection = connection
        self._remote_name: str = remote.name
        self.name = tool_name(connection.server.name, remote.name)  # type: ignore[misc]
        self.description = (  # type: ignore[misc]
            remote.description or f"{remote.name} (MCP server {connection.server.name})"
        )
        self._schema: dict[str, Any] = dict(remote.input_schema or {"type": "object"})
        self.on_failure: Callable[[McpServerError], None] = lambda _exc: None

    def schema(self) -> dict[str, Any]:
        """The server's input schema."""
        return self._schema

    def summary(self, args: McpArgs, ctx: ToolContext) -> str:
        """The server, the tool and its arguments, for the approval card."""
        shown = ", ".join(f"{k}={v!r}" for k, v in (args.model_extra or {}).items())
        if len(shown) > _SUMMARY_CAP:
            shown = shown[:_SUMMARY_CAP] + "…"
        return f"{self._remote_name}({shown}) on MCP server {self._connection.server.name}"

    async def run(self, args: McpArgs, ctx: ToolContext) -> ToolOutput:
        """Call the tool on its server."""
        try:
            text, is_error = await self._connection.call(self._remote_name, args.model_extra or {})
        except McpServerError as exc:
            self.on_failure(exc)
            raise ToolFailure(str(exc)) from exc
        return ToolOutput(text, is_error=is_error)


def resolved(command: wire.AddMcpServer) -> ResolvedMcpServer:
    """The server an ``add_mcp_server`` command describes (``sse`` is taken as HTTP)."""
    if command.transport == "stdio":
        return ResolvedMcpServer(
            name=command.name,
            transport=McpTransport.STDIO,
            command=command.command,
            args=tuple(command.args or ()),
            env=dict(command.env or {}),
        )
    return ResolvedMcpServer(
        name=command.name,
        transport=McpTransport.HTTP,
        url=command.url,
        headers=dict(command.headers or {}),
    )


class McpHub:
    """The servers of one agent session; adds their tools to ``tools`` and ``specs`` (the very
    dict and list the tool runner and the turn engine use).

    Args:
        tools: The runner's tools by name.
        specs: The tools as the model is told about them.
        workspace: The working folder of stdio servers.
        send: Sends an event to the host.
    """

    def __init__(
        self,
        tools: dict[str, Tool[Any]],
        specs: list[ToolSpec],
        workspace: Path,
        send: Callable[[BaseModel], None],
    ) -> None:
        self._tools = tools
        self._specs = specs
        self._workspace = workspace
        self._send = send
        self._connections: dict[str, McpConnection] = {}
        self._starting: set[asyncio.Task[None]] = set()
        self._reported: set[str] = set()

    def add(self, command: wire.AddMcpServer) -> None:
        """Start the server in the background; the host hears ``mcp_ready`` or an error."""
        if command.transport == "stdio" and not command.command:
            self._fail(command.name, f"MCP server {command.name!r} has no command.")
            return
        if command.transport != "stdio" and not command.url:
            self._fail(command.name, f"MCP server {command.name!r} has no URL.")
            return
        task = asyncio.get_running_loop().create_task(self._start(resolved(command)))
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    def _fail(self, name: str, message: str) -> None:
        log.info("MCP server %s: %s", name, message)
        error = error_event("mcp_error", message)
        self._send(error.model_copy(update={SERVER_FIELD: name}))

    async def _start(self, server: ResolvedMcpServer) -> None:
        old = self._connections.pop(server.name, None)
        if old is not None:
            self._drop(server.name)
            await old.close()
        connection = McpConnection(server, self._workspace)
        try:
            remote_tools = await connection.start()
        except McpServerError as exc:
            self._fail(server.name, str(exc))
            return
        self._connections[server.name] = connection
        self._reported.discard(server.name)
        names = []
        for remote in remote_tools:
            tool = McpTool(connection, remote)
            tool.on_failure = functools.partial(self._stopped, server.name)
            self._tools[tool.name] = tool
            self._specs.append(ToolSpec(tool.name, tool.description, tool.schema()))
            names.append(tool.name)
        self._send(wire.McpReady(type="mcp_ready", name=server.name, tools=names))

    def _drop(self, server: str) -> None:
        prefix = tool_name(server, "")
        for name in [n for n in self._tools if n.startswith(prefix)]:
            del self._tools[name]
        self._specs[:] = [s for s in self._specs if not s.name.startswith(prefix)]

    def _stopped(self, server: str, exc: McpServerError) -> None:
        if server in self._reported:
            return
        self._reported.add(server)
        message = f"MCP server {server!r} stopped working. {exc}"
        self._send(
            wire.Info.model_validate({"type": "info", "message": message, SERVER_FIELD: server})
        )

    async def close(self) -> None:
        """Stop every server."""
        for task in list(self._starting):
            task.cancel()
        if self._starting:
            await asyncio.wait(list(self._starting))
        await asyncio.gather(*(c.close() for c in self._connections.values()))
        self._connections.clear()
