"""``agentdesk mcp list|add|remove|test``: the MCP servers every agent gets, on the command line.

``add`` stores a stdio server (``--command``, ``--arg``, ``--env K=V``, ``--secret-env K``) or an
HTTP server (``--url``, ``--header K=V``, ``--secret-header K``), for every workspace
(``--global``, the default) or some (``--workspace PATH``, repeatable). A secret's value is never
an argument (argv is visible to every user of the machine): it is asked for on a terminal without
echo, or read from standard input, one line per secret, with ``--secret-stdin``, and kept in the
OS keyring. ``test NAME`` starts the server with the official ``mcp`` SDK and lists its tools.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from pathlib import Path

from pydantic import ValidationError

from desktop.core.mcp import McpServer, McpTransport, secret_entry
from desktop.core.mcp.resolve import resolve_servers
from desktop.core.mcp.store import McpStore
from desktop.core.secrets import SecretStore, SecretStoreError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``mcp list``, ``mcp add NAME ...``, ``mcp remove NAME`` and ``mcp test NAME``."""
    commands = parser.add_subparsers(dest="action", required=True)
    commands.add_parser("list", help="show the configured MCP servers")
    add = commands.add_parser("add", help="add (or replace) an MCP server")
    add.add_argument("name")
    kind = add.add_mutually_exclusive_group(required=True)
    kind.add_argument("--command", help="stdio server: the program to run")
    kind.add_argument("--url", help="HTTP server: its URL (streamable HTTP)")
    add.add_argument("--arg", action="append", default=[], help="an argument (repeatable)")
    add.add_argument("--env", action="append", default=[], metavar="K=V", help="a variable")
    add.add_argument("--secret-env", action="append", default=[], metavar="K")
    add.add_argument("--header", action="append", default=[], metavar="K=V", help="a header")
    add.add_argument("--secret-header", action="append", default=[], metavar="K")
    add.add_argument("--secret-stdin", action="store_true", help="read secrets from stdin")
    where = add.add_mutually_exclusive_group()
    where.add_argument("--workspace", action="append", default=[], metavar="PATH")
    where.add_argument("--global", dest="everywhere", action="store_true")
    remove = commands.add_parser("remove", help="remove an MCP server (and its secrets)")
    remove.add_argument("name")
    test = commands.add_parser("test", help="start a server and list its tools")
    test.add_argument("name")


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"{what} {item!r} is not KEY=VALUE")
        out[key] = value
    return out


def _list(store: McpStore) -> int:
    if not store.config.servers:
        print("No MCP servers. Add one with `agentdesk mcp add NAME --command ...`.")
    for s in store.config.servers:
        target = s.command if s.transport == McpTransport.STDIO else s.url
        line = " ".join([str(target), *s.args])
        where = "global" if s.is_global else ", ".join(s.workspaces)
        secrets = f" secrets: {', '.join(s.secret_names())}" if s.secret_names() else ""
        state = "" if s.enabled else " (disabled)"
        print(f"{s.name:<20} {s.transport.value:<6} {line}  [{where}]{secrets}{state}")
    return EXIT_OK


def _read_secret(name: str, server: str, from_stdin: bool) -> str:
    if from_stdin or not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    return getpass.getpass(f"Value of {name} for MCP server {server}: ")


def _server(options: argparse.Namespace) -> McpServer:
    """The server ``add`` describes (raises ``ValidationError`` or ``ValueError``)."""
    return McpServer(
        name=options.name,
        transport=McpTransport.STDIO if options.command else McpTransport.HTTP,
        command=options.command,
        args=tuple(options.arg),
        env=_pairs(options.env, "--env"),
        secret_env=tuple(options.secret_env),
        url=options.url,
        headers=_pairs(options.header, "--header"),
        secret_headers=tuple(options.secret_header),
        workspaces=tuple(str(Path(w).expanduser().resolve()) for w in options.workspace),
    )


async def _add(store: McpStore, options: argparse.Namespace) -> int:
    try:
        server = _server(options)
    except (ValidationError, ValueError) as exc:
        print(f"agentdesk: invalid MCP server: {_problem(exc)}", file=sys.stderr)
        return EXIT_USAGE
    if server.secret_names():
        secrets = SecretStore(announce=False)
        if not secrets.status.secure:
            print(f"agentdesk: secrets cannot be stored: {secrets.status.message}", file=sys.stderr)
            return EXIT_FAILED
        values = {
            n: _read_secret(n, server.name, options.secret_stdin) for n in server.secret_names()
        }
        empty = [n for n, v in values.items() if not v]
        if empty:
            print(f"agentdesk: no value given for {', '.join(empty)}", file=sys.stderr)
            return EXIT_USAGE
        for name, value in values.items():
            await secrets.set(secret_entry(server.name, name), value)
    replaced = store.config.server(server.name) is not None
    store.put(server)
    where = "every workspace" if server.is_global else ", ".join(server.workspaces)
    print(f"{'Replaced' if replaced else 'Added'} MCP server {server.name} for {where}.")
    return EXIT_OK


def _problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'server'}: {e['msg']}" for e in exc.errors()
        )
    return str(exc)


async def _remove(store: McpStore, name: str) -> int:
    server = store.config.server(name)
    if server is None or not store.remove(name):
        print(f"agentdesk: no MCP server {name!r}", file=sys.stderr)
        return EXIT_USAGE
    print(f"Removed MCP server {name}.")
    if server.secret_names():
        secrets = SecretStore(announce=False)
        if secrets.status.secure:
            for secret in server.secret_names():
                await secrets.delete(secret_entry(name, secret))
            print("Deleted its secrets from the keyring.")
    return EXIT_OK


async def _test(store: McpStore, name: str) -> int:
    from desktop.agent.mcp_client import McpServerError, check_server
    from desktop.core.mcp import McpConfig

    server = store.config.server(name)
    if server is None:
        print(f"agentdesk: no MCP server {name!r}", file=sys.stderr)
        return EXIT_USAGE
    secrets = SecretStore(announce=False) if server.secret_names() else None
    found = await resolve_servers(
        McpConfig(servers=(server.model_copy(update={"workspaces": (), "enabled": True}),)),
        Path.cwd(),
        secrets,
    )
    if not found.servers:
        print(f"agentdesk: {' '.join(found.problems)}", file=sys.stderr)
        return EXIT_FAILED
    try:
        tools = await check_server(found.servers[0], Path.cwd())
    except McpServerError as exc:
        print(f"agentdesk: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print(f"MCP server {name} is working: {len(tools)} tool(s).")
    for tool in tools:
        summary = (tool.description or "").strip().splitlines()
        print(f"  {tool.name:<24} {summary[0] if summary else ''}".rstrip())
    return EXIT_OK


async def _main(options: argparse.Namespace) -> int:
    store = McpStore()
    for message in store.messages:
        print(f"agentdesk: {message}", file=sys.stderr)
    if options.action == "list":
        return _list(store)
    if options.action == "add":
        return await _add(store, options)
    if options.action == "remove":
        return await _remove(store, options.name)
    return await _test(store, options.name)


def run(options: argparse.Namespace) -> int:
    """Run ``agentdesk mcp`` and return its exit code."""
    try:
        return asyncio.run(_main(options))
    except SecretStoreError as exc:
        print(f"agentdesk: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except (KeyboardInterrupt, EOFError):
        return EXIT_FAILED
