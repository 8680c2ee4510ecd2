"""The configured MCP servers, passed to an aionrs-protocol agent with ``add_mcp_server``.

Once the agent is ready, the launch's servers are resolved (secrets from the keyring) and sent
one command each, if the agent's ``ready`` says ``mcp: true``; otherwise one notice says the
servers are not available to this agent. The agent answers each with ``mcp_ready`` or an error
(both shown by the mapping). The protocol log gets the commands with every env and header value
replaced by ``***``: values may be secrets.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from desktop.core.events import Notice, SessionEvent
from desktop.core.mcp import McpSource, McpTransport, ResolvedMcpServer
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


async def add_servers(
    source: McpSource,
    capabilities: wire.ReadyCapabilities,
    send: Callable[[wire.AddMcpServer], Awaitable[None]],
    out: Callable[[SessionEvent], None],
) -> None:
    """Resolve the servers and send them to the agent (or say why it cannot have them)."""
    found = await source()
    for problem in found.problems:
        out(Notice(level="warning", message=problem))
    if not found.servers:
        return
    names = ", ".join(s.name for s in found.servers)
    if not capabilities.mcp:
        text = QT_TRANSLATE_NOOP(
            "Mcp", "This agent cannot use MCP servers; not available here: {names}."
        ).with_args(names=names)
        out(Notice(level="warning", message=text.english, i18n=text))
        return
    text = QT_TRANSLATE_NOOP("Mcp", "Starting MCP servers: {names}.").with_args(names=names)
    out(Notice(message=text.english, i18n=text))
    for server in found.servers:
        await send(add_command(server))
