"""MCP servers, configured once for every agent: the model, the file, and the resolution.

``McpStore`` keeps the servers in ``<config>/mcp.json`` (no secrets in it: values named in
``secret_env``/``secret_headers`` live in the OS keyring); ``resolve_servers`` turns them into
the ``ResolvedMcpServer`` list of one workspace with the secrets filled in, which each protocol
adapter passes to its agent in its own form. The package exports only the models: the store and
the resolution (which load the keyring) are imported from their modules, so the built-in agent's
process, which needs the models, stays light.
"""

from desktop.core.mcp.model import (
    McpConfig,
    McpResolution,
    McpServer,
    McpSource,
    McpTransport,
    ResolvedMcpServer,
    secret_entry,
)

__all__ = [
    "McpConfig",
    "McpResolution",
    "McpServer",
    "McpSource",
    "McpTransport",
    "ResolvedMcpServer",
    "secret_entry",
]
