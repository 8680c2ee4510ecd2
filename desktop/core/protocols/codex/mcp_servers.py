"""The configured MCP servers for Codex: ``-c mcp_servers.NAME.*`` overrides and environment.

Codex reads MCP servers from its configuration, and ``codex app-server -c key=value`` overrides
it per process, so the same servers reach Codex whether it keeps the user's home or Agent Desk's
isolated ``CODEX_HOME``. Only non-secret values go on the command line: a secret variable of a
stdio server is put in Codex's environment and named in ``env_vars`` (Codex passes it on to the
server); a secret header is put in a variable named in ``env_http_headers``. Every server's
tools are set to ``default_tools_approval_mode = "prompt"``: Codex then asks about each call
(an ``mcpServer/elicitation/request``, shown as an approval card in the ``mcp`` category).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from desktop.core.mcp import McpResolution, McpTransport, ResolvedMcpServer


def _toml(value: object) -> str:
    """A TOML value (strings, lists of strings, tables of strings) written inline."""
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def header_variable(server: str, header: str) -> str:
    """The variable that carries a secret header's value to Codex."""
    return "AGENTDESK_MCP_" + re.sub(r"[^A-Z0-9]", "_", f"{server}_{header}".upper())


def _server(server: ResolvedMcpServer) -> tuple[dict[str, object], dict[str, str]]:
    secret = set(server.secret_names)
    plain: dict[str, object] = {}
    env: dict[str, str] = {}
    plain["default_tools_approval_mode"] = "prompt"
    if server.transport == McpTransport.STDIO:
        assert server.command is not None
        plain["command"] = server.command
        plain["args"] = list(server.args)
        visible = {k: v for k, v in server.env.items() if k not in secret}
        hidden = {k: v for k, v in server.env.items() if k in secret}
        if visible:
            plain["env"] = visible
        if hidden:
            plain["env_vars"] = sorted(hidden)
            env.update(hidden)
        return plain, env
    assert server.url is not None
    plain["url"] = server.url
    visible = {k: v for k, v in server.headers.items() if k not in secret}
    hidden = {k: v for k, v in server.headers.items() if k in secret}
    if visible:
        plain["http_headers"] = visible
    if hidden:
        plain["env_http_headers"] = {k: header_variable(server.name, k) for k in hidden}
        env.update({header_variable(server.name, k): v for k, v in hidden.items()})
    return plain, env


def codex_mcp(found: McpResolution) -> tuple[list[str], dict[str, str], list[str]]:
    """``(-c arguments, environment with the secrets, problems)`` for Codex's MCP servers.

    A secret variable two servers share with different values cannot reach both through one
    environment: the second server is left out and ``problems`` says so.
    """
    args: list[str] = []
    env: dict[str, str] = {}
    problems: list[str] = []
    for server in found.servers:
        plain, secrets = _server(server)
        clash = sorted(k for k, v in secrets.items() if k in env and env[k] != v)
        if clash:
            problems.append(
                f"MCP server {server.name!r} was left out for Codex: its secret "
                f"{', '.join(clash)} has another value in an earlier server."
            )
            continue
        env.update(secrets)
        for key, value in plain.items():
            args += ["-c", f"mcp_servers.{server.name}.{key}={_toml(value)}"]
    return args, env, problems
