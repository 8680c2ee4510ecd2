"""MCP servers, configured once for every agent: the model, the file, and the resolution.

``McpStore`` keeps the servers in ``<config>/mcp.json`` (no secrets in it: values named in
``secret_env``/``secret_headers`` live in the OS keyring); ``resolve_servers`` turns them into
the ``ResolvedMcpServer`` list of one workspace with the secrets filled in, which each protocol
adapter passes to its agent in its own form.
"""

from desktop.core.mcp.model import (
    McpConfig,
    McpServer,
    McpTransport,
    ResolvedMcpServer,
    secret_entry,
)
from desktop.core.mcp.resolve import McpResolution, resolve_servers, workspace_servers
from desktop.core.mcp.store import McpStore, mcp_path

__all__ = [
    "McpConfig",
    "McpResolution",
    "McpServer",
    "McpStore",
    "McpTransport",
    "ResolvedMcpServer",
    "mcp_path",
    "resolve_servers",
    "secret_entry",
    "workspace_servers",
]
