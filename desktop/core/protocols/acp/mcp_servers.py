"""The configured MCP servers as ACP ``mcpServers`` for ``session/new`` and ``session/load``.

Every ACP agent takes stdio servers (env as a name/value list); HTTP servers only where the
agent's ``mcpCapabilities.http`` says so, otherwise a notice says which servers this agent
cannot use. Problems resolving the servers (a secret not in the keyring, a corrupt file) become
warnings. The agent itself starts the servers; it reports them in its own way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from acp.schema import (
    AcpMcpServer,
    EnvVariable,
    HttpHeader,
    HttpMcpServer,
    McpServerStdio,
    SseMcpServer,
)

from desktop.core.events import McpServerState, McpStatus, Notice, SessionEvent
from desktop.core.mcp import McpSource, McpTransport, ResolvedMcpServer
from desktop.core.mcp.status import left_out
from desktop.core.texts import QT_TRANSLATE_NOOP

#: What ``session/new`` and ``session/load`` take.
AcpMcpServers = list[HttpMcpServer | SseMcpServer | AcpMcpServer | McpServerStdio]


def acp_server(server: ResolvedMcpServer) -> HttpMcpServer | McpServerStdio:
    """``server`` in ACP's schema."""
    if server.transport == McpTransport.STDIO:
        assert server.command is not None
        return McpServerStdio(
            name=server.name,
            command=server.command,
            args=list(server.args),
            env=[EnvVariable(name=k, value=v) for k, v in server.env.items()],
        )
    assert server.url is not None
    return HttpMcpServer(
        type="http",
        name=server.name,
        url=server.url,
        headers=[HttpHeader(name=k, value=v) for k, v in server.headers.items()],
    )


def takes_http(agent_capabilities: Any) -> bool:
    """Whether the agent's capabilities say it connects to HTTP MCP servers."""
    mcp = getattr(agent_capabilities, "mcp_capabilities", None)
    return bool(getattr(mcp, "http", False))


async def acp_servers(
    source: McpSource | None, agent_capabilities: Any, out: Callable[[SessionEvent], None]
) -> AcpMcpServers:
    """The servers to pass in ``session/new``/``session/load`` (notices go to ``out``)."""
    if source is None:
        return []
    found = await source()
    for problem in found.problems:
        out(Notice(level="warning", message=problem))
        if (status := left_out(problem)) is not None:
            out(status)
    http_ok = takes_http(agent_capabilities)
    refused = [s.name for s in found.servers if s.transport == McpTransport.HTTP and not http_ok]
    if refused:
        text = QT_TRANSLATE_NOOP(
            "Mcp", "This agent cannot use HTTP MCP servers; not available here: {names}."
        ).with_args(names=", ".join(refused))
        out(Notice(level="warning", message=text.english, i18n=text))
        for name in refused:
            out(McpStatus(server=name, state=McpServerState.FAILED, message=text.english))
    passed: AcpMcpServers = [acp_server(s) for s in found.servers if s.name not in refused]
    if passed:
        names = ", ".join(s.name for s in passed)
        text = QT_TRANSLATE_NOOP("Mcp", "MCP servers passed to the agent: {names}.").with_args(
            names=names
        )
        out(Notice(message=text.english, i18n=text))
        for server in passed:  # the agent starts them and does not say how it went
            out(McpStatus(server=server.name, state=McpServerState.PASSED))
    return passed
