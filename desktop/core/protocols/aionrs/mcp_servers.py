"""The configured MCP servers, passed to an aionrs-protocol agent with ``add_mcp_server``.

Once the agent is ready, the launch's servers are resolved (secrets from the keyring) and sent
one command each, if the agent's ``ready`` says ``mcp: true``; otherwise one notice says the
servers are not available to this agent. The agent answers each with ``mcp_ready`` or an error
(both shown by the mapping). The protocol log gets the commands with every env and header value
replaced by ``***``: values may be secrets. ``McpTracker`` turns those answers (and the built-in
agent's report of a server that stopped mid-session) into typed ``McpStatus`` events.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable

from desktop.core.events import McpServerState, McpStatus, Notice, SessionEvent
from desktop.core.mcp import McpSource, McpTransport, ResolvedMcpServer
from desktop.core.mcp.status import left_out
from desktop.core.protocols.aionrs import wire
from desktop.core.texts import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)


def add_command(server: ResolvedMcpServer) -> wire.AddMcpServer:
    """The ``add_mcp_server`` command of ``server`` (HTTP as ``streamable-http``)."""
    if server.transport == McpTransport.STDIO:
        return wire.AddMcpServer(
            name=server.name,
            transport="stdio",
            command=server.command,
            args=list(server.args),
            env=dict(server.env) or None,
        )
    return wire.AddMcpServer(
        name=server.name,
        transport="streamable-http",
        url=server.url,
        headers=dict(server.headers) or None,
    )


def redacted(command: wire.AddMcpServer) -> wire.AddMcpServer:
    """``command`` with its env and header values hidden, for the protocol log."""
    return command.model_copy(
        update={
            "env": dict.fromkeys(command.env, "***") if command.env else None,
            "headers": dict.fromkeys(command.headers, "***") if command.headers else None,
        }
    )


#: Where an agent names the server of an MCP failure in its message (real aionrs, the built-in).
_NAMED = re.compile(r"(?:AddMcpServer|MCP server) '([^']+)'")
#: The extra field the built-in agent puts on its MCP errors and notices.
SERVER_FIELD = "mcp_server"


class McpTracker:
    """The servers sent to one agent and what became of them, as ``McpStatus`` events.

    aionrs answers ``add_mcp_server`` commands one at a time, in order: an ``mcp_error`` that
    names no server is about the oldest one still starting.
    """

    def __init__(self) -> None:
        self._starting: list[str] = []

    def starting(self, name: str) -> McpStatus:
        """``name`` was sent to the agent."""
        self._starting.append(name)
        return McpStatus(server=name, state=McpServerState.STARTING)

    def ready(self, event: wire.McpReady) -> McpStatus:
        """The agent connected ``event.name``."""
        self._forget(event.name)
        return McpStatus(server=event.name, state=McpServerState.CONNECTED, tools=event.tools)

    def failed(self, event: wire.Error) -> McpStatus | None:
        """The status an MCP error means (``None``: the error is about something else)."""
        body = event.error
        named = _NAMED.search(body.message)
        is_mcp = body.code == "mcp_error" or body.message.startswith("AddMcpServer '")
        if not is_mcp:
            return None
        server = (event.model_extra or {}).get(SERVER_FIELD) or (named and named.group(1))
        if not server and self._starting:
            server = self._starting[0]
        if not server:
            return None
        self._forget(str(server))
        return McpStatus(server=str(server), state=McpServerState.FAILED, message=body.message)

    def stopped(self, event: wire.Info) -> McpStatus | None:
        """The built-in agent's notice that a connected server stopped working, if it is one."""
        server = (event.model_extra or {}).get(SERVER_FIELD)
        if not server:
            return None
        return McpStatus(server=str(server), state=McpServerState.STOPPED, message=event.message)

    def _forget(self, name: str) -> None:
        if name in self._starting:
            self._starting.remove(name)


async def add_servers(
    source: McpSource,
    capabilities: wire.ReadyCapabilities,
    send: Callable[[wire.AddMcpServer], Awaitable[None]],
    out: Callable[[SessionEvent], None],
    tracker: McpTracker | None = None,
) -> None:
    """Resolve the servers and send them to the agent (or say why it cannot have them)."""
    found = await source()
    for problem in found.problems:
        out(Notice(level="warning", message=problem))
        if (status := left_out(problem)) is not None:
            out(status)
    if not found.servers:
        return
    names = ", ".join(s.name for s in found.servers)
    if not capabilities.mcp:
        text = QT_TRANSLATE_NOOP(
            "Mcp", "This agent cannot use MCP servers; not available here: {names}."
        ).with_args(names=names)
        out(Notice(level="warning", message=text.english, i18n=text))
        for server in found.servers:
            out(McpStatus(server=server.name, state=McpServerState.FAILED, message=text.english))
        return
    text = QT_TRANSLATE_NOOP("Mcp", "Starting MCP servers: {names}.").with_args(names=names)
    out(Notice(message=text.english, i18n=text))
    tracker = tracker or McpTracker()
    for server in found.servers:
        out(tracker.starting(server.name))
        await send(add_command(server))
