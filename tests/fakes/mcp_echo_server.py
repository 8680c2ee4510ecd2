"""A tiny MCP server over stdio, written with the official ``mcp`` SDK, for tests of MCP paths.

Tools: ``echo(text)`` returns the text, ``add(a, b)`` returns the sum. Each call appends a line
``TOOL ARGS-as-JSON`` to the file named by ``MCP_ECHO_MARKER`` (when set), so a test can prove a
call reached this process. ``MCP_ECHO_SECRET`` (when set) is written to the marker at start as
``secret=VALUE``: a test proves an environment secret arrived. ``--crash-after N`` exits the
process (status 3, a line on stderr) on the N-th call: a server that dies mid-session.
``--fail-start`` writes a line on stderr and exits 2 before speaking MCP. ``--http PORT`` serves
streamable HTTP on ``http://127.0.0.1:PORT/mcp`` instead of stdio; every request must then carry
``Authorization: Bearer $MCP_ECHO_TOKEN`` when that variable is set (401 otherwise).

Run: ``python tests/fakes/mcp_echo_server.py [--crash-after N] [--fail-start] [--http PORT]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer

server = MCPServer("echo")
_calls = {"n": 0, "crash_after": 0}


def _mark(line: str) -> None:
    marker = os.environ.get("MCP_ECHO_MARKER")
    if marker:
        with Path(marker).open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")


def _count() -> None:
    _calls["n"] += 1
    if _calls["crash_after"] and _calls["n"] >= _calls["crash_after"]:
        print("mcp_echo_server: crashing on purpose", file=sys.stderr, flush=True)
        os._exit(3)


@server.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    _count()
    _mark("echo " + json.dumps({"text": text}))
    return text


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    _count()
    _mark("add " + json.dumps({"a": a, "b": b}))
    return a + b


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--crash-after", type=int, default=0)
    parser.add_argument("--fail-start", action="store_true")
    parser.add_argument("--http", type=int, default=0, metavar="PORT")
    options = parser.parse_args()
    if options.fail_start:
        print("mcp_echo_server: cannot start (asked to fail)", file=sys.stderr, flush=True)
        sys.exit(2)
    _calls["crash_after"] = options.crash_after
    secret = os.environ.get("MCP_ECHO_SECRET")
    if secret:
        _mark(f"secret={secret}")
    if options.http:
        serve_http(options.http, os.environ.get("MCP_ECHO_TOKEN"))
    else:
        server.run("stdio")


def serve_http(port: int, token: str | None) -> None:
    """Streamable HTTP on 127.0.0.1, behind a bearer-token check when ``token`` is set."""
    import uvicorn

    app = server.streamable_http_app()

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and token:
            headers = dict(scope.get("headers") or [])
            if headers.get(b"authorization", b"").decode() != f"Bearer {token}":
                await send({"type": "http.response.start", "status": 401, "headers": []})
                await send({"type": "http.response.body", "body": b"bad token"})
                return
        await app(scope, receive, send)

    uvicorn.run(guarded, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
