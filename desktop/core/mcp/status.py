"""A configured server that could not even be passed to the agent, as a typed ``McpStatus``.

``McpResolution.problems`` are sentences for the user; the ones about one server (a secret not in
the keyring, a clash of secrets for Codex) name it as ``MCP server 'NAME'``. Each protocol adapter
shows the sentence as a notice and reports that server as failed, so the conversation's status
counts it with the others.
"""

from __future__ import annotations

import re

from desktop.core.events import McpServerState, McpStatus

_NAMED = re.compile(r"MCP server '([^']+)'")


def left_out(problem: str) -> McpStatus | None:
    """The failed status of the server ``problem`` is about (``None``: it names none)."""
    named = _NAMED.search(problem)
    if named is None:
        return None
    return McpStatus(server=named.group(1), state=McpServerState.FAILED, message=problem)
