"""What an MCP server is to Agent Desk: the stored definition and the resolved, secret-filled one.

``McpServer`` is what ``mcp.json`` holds: a stdio server (command, args, env) or an HTTP server
(url, headers), the names of environment variables and headers whose values are secrets (kept in
the OS keyring under ``secret_entry(server, name)``, never in the file), and where it applies
(``workspaces`` empty: every workspace). ``ResolvedMcpServer`` is the same server for one launch,
with the secrets filled in; its ``repr`` never shows them and ``secret_values`` lists them for
redaction.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: The version of ``mcp.json`` this code writes.
MCP_SCHEMA_VERSION: Final = 1
#: Server names: they become part of tool names (``mcp__<server>__<tool>``), so no ``__``.
SERVER_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9\-]{0,47}$"
_VAR_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]{0,127}$"
_HEADER_PATTERN = r"^[A-Za-z0-9!#$%&'*+.^_`|~\-]{1,128}$"


class McpTransport(StrEnum):
    """How Agent Desk (or the agent) talks to a server."""

    STDIO = "stdio"
    HTTP = "http"


def secret_entry(server: str, name: str) -> str:
    """The keyring entry (user name) of a server's secret variable or header."""
    return f"mcp:{server}:{name}"


class McpServer(BaseModel):
    """One configured MCP server (no secret values: those are in the keyring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=SERVER_NAME_PATTERN, title="Name")
    transport: McpTransport = Field(title="Transport")
    command: str | None = Field(default=None, title="Command", description="stdio: the program.")
    args: tuple[str, ...] = Field(default=(), title="Arguments")
    env: dict[str, str] = Field(default_factory=dict, title="Environment")
    secret_env: tuple[str, ...] = Field(
        default=(),
        title="Secret variables",
        description="Variables whose values are in the keyring.",
    )
    url: str | None = Field(default=None, pattern=r"^https?://\S+$", title="URL")
    headers: dict[str, str] = Field(default_factory=dict, title="Headers")
    secret_headers: tuple[str, ...] = Field(
        default=(), title="Secret headers", description="Headers whose values are in the keyring."
    )
    workspaces: tuple[str, ...] = Field(
        default=(), title="Workspaces", description="Where it is enabled; empty: everywhere."
    )
    enabled: bool = Field(default=True, title="Enabled")

    @model_validator(mode="after")
    def _check(self) -> McpServer:
        if self.transport == McpTransport.STDIO:
            if not self.command:
                raise ValueError("a stdio server needs a command")
            if self.url or self.headers or self.secret_headers:
                raise ValueError("a stdio server has no URL or headers")
        else:
            if not self.url:
                raise ValueError("an HTTP server needs a URL")
            if self.command or self.args or self.env or self.secret_env:
                raise ValueError("an HTTP server has no command, arguments or environment")
        for var in (*self.env, *self.secret_env):
            if not _matches(_VAR_PATTERN, var):
                raise ValueError(f"{var!r} is not a valid environment variable name")
        for header in (*self.headers, *self.secret_headers):
            if not _matches(_HEADER_PATTERN, header):
                raise ValueError(f"{header!r} is not a valid header name")
        both = set(self.env) & set(self.secret_env) | set(self.headers) & set(self.secret_headers)
        if both:
            raise ValueError(f"{', '.join(sorted(both))} is both plain and secret")
        return self

    @property
    def is_global(self) -> bool:
        """Enabled in every workspace."""
        return not self.workspaces

    def applies_to(self, workspace: Path) -> bool:
        """Whether this server is passed to agents working in ``workspace``."""
        if not self.enabled:
            return False
        if self.is_global:
            return True
        here = _normal(workspace)
        return any(_normal(Path(w)) == here for w in self.workspaces)

    def secret_names(self) -> tuple[str, ...]:
        """The variables or headers whose values come from the keyring."""
        return self.secret_env if self.transport == McpTransport.STDIO else self.secret_headers


def _matches(pattern: str, text: str) -> bool:
    return re.match(pattern, text) is not None


def _normal(path: Path) -> str:
    return os.path.normcase(str(path.expanduser().resolve()))


class McpConfig(BaseModel):
    """The whole ``mcp.json`` document."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: Literal[1] = MCP_SCHEMA_VERSION
    servers: tuple[McpServer, ...] = ()

    @model_validator(mode="after")
    def _unique(self) -> McpConfig:
        names = [s.name for s in self.servers]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"server name(s) used twice: {', '.join(twice)}")
        return self

    def server(self, name: str) -> McpServer | None:
        """The server called ``name``, if any."""
        return next((s for s in self.servers if s.name == name), None)


@dataclass(frozen=True)
class ResolvedMcpServer:
    """A server for one launch: plain and secret values merged (``env`` or ``headers``)."""

    name: str
    transport: McpTransport
    command: str | None = None
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict, repr=False)
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    secrets: tuple[str, ...] = field(default=(), repr=False)
    #: The env variables or headers whose values are secrets (from the keyring).
    secret_names: tuple[str, ...] = ()

    def secret_values(self) -> list[str]:
        """The secret values in this server (to redact from anything written)."""
        return [v for v in self.secrets if v]


@dataclass(frozen=True)
class McpResolution:
    """The servers for one workspace and what kept others out (sentences for the user)."""

    servers: tuple[ResolvedMcpServer, ...] = ()
    problems: tuple[str, ...] = ()

    def secret_values(self) -> list[str]:
        """Every secret value of every server (for redaction)."""
        return [v for s in self.servers for v in s.secret_values()]


#: Where an adapter gets the servers of its launch (called once the agent is ready).
McpSource = Callable[[], Awaitable[McpResolution]]
