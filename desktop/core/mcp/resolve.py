"""From the configured servers to the ones one workspace's agents get, secrets filled in.

Secrets come from the OS keyring (``SecretStore``, entry ``secret_entry(server, name)``) at
launch and live only in memory: in the resolved server, then in the agent's stdin, its
``session/new`` request or an MCP server's environment; never in a file, a log or a command
line. A server whose secret is missing is left out, and ``problems`` says so in words.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from desktop.core.mcp.model import (
    McpConfig,
    McpResolution,
    McpServer,
    McpTransport,
    ResolvedMcpServer,
    secret_entry,
)
from desktop.core.mcp.store import McpStore
from desktop.core.secrets import SecretStore, SecretStoreError

log = logging.getLogger(__name__)


async def resolve_server(
    server: McpServer, secrets: SecretStore | None, typed: Mapping[str, str] | None = None
) -> ResolvedMcpServer:
    """``server`` with its secrets: ``typed`` values (not stored yet, e.g. in Settings) first,
    then the keyring's.

    Raises:
        LookupError: a secret is neither typed nor in the keyring (the message says which).
        SecretStoreError: the keyring failed.
    """
    found: dict[str, str] = {}
    for name in server.secret_names():
        if typed and typed.get(name):
            found[name] = typed[name]
            continue
        if secrets is None:
            raise LookupError(f"MCP server {server.name!r} was left out: no keyring to read from.")
        stored = await secrets.get(secret_entry(server.name, name))
        if stored is None:
            raise LookupError(
                f"MCP server {server.name!r} was left out: its secret {name} is not in the "
                f"keyring (store it with `agentdesk mcp add {server.name} ...` again)."
            )
        found[name] = stored.value.get_secret_value()
    if server.transport == McpTransport.STDIO:
        return ResolvedMcpServer(
            name=server.name,
            transport=server.transport,
            command=server.command,
            args=server.args,
            env={**server.env, **found},
            secrets=tuple(found.values()),
            secret_names=tuple(found),
        )
    return ResolvedMcpServer(
        name=server.name,
        transport=server.transport,
        url=server.url,
        headers={**server.headers, **found},
        secrets=tuple(found.values()),
        secret_names=tuple(found),
    )


async def resolve_servers(
    config: McpConfig, workspace: Path, secrets: SecretStore | None
) -> McpResolution:
    """The enabled servers of ``workspace`` with their secrets (None: no keyring is asked, and
    servers that need a secret are left out)."""
    servers: list[ResolvedMcpServer] = []
    problems: list[str] = []
    for server in config.servers:
        if not server.applies_to(workspace):
            continue
        try:
            servers.append(await resolve_server(server, secrets))
        except LookupError as exc:
            problems.append(str(exc))
        except SecretStoreError as exc:
            problems.append(f"MCP server {server.name!r} was left out: {exc}")
    return McpResolution(tuple(servers), tuple(problems))


async def workspace_servers(workspace: Path) -> McpResolution:
    """The servers of ``workspace`` from ``mcp.json`` and the system keyring; a corrupt file
    or a failing keyring becomes ``problems``, never an exception."""
    store = McpStore()
    problems = list(store.messages)
    wanted = [s for s in store.config.servers if s.applies_to(workspace)]
    if not wanted:
        return McpResolution((), tuple(problems))
    secrets: SecretStore | None = None
    if any(s.secret_names() for s in wanted):
        try:
            secrets = SecretStore(announce=False)
        except Exception as exc:  # noqa: BLE001 - boundary: a broken keyring must not stop the agent
            log.warning("no keyring for MCP secrets: %s", exc)
    found = await resolve_servers(store.config, workspace, secrets)
    return McpResolution(found.servers, (*problems, *found.problems))
