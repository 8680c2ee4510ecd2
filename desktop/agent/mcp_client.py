"""One connection to an MCP server with the official ``mcp`` SDK: start, list tools, call, stop.

Used by the built-in agent (``mcp_tools``: the servers the host adds with ``add_mcp_server``)
and by ``agentdesk mcp test``. A connection is one asyncio task that owns the transport (the
SDK's transports are context managers that must be entered and left in one task); other tasks
call tools through its session. A stdio server's stderr goes to a temporary file so a failure
can quote its tail. Secrets reach the server only through its environment or HTTP headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO, Any

from desktop.core.mcp import McpTransport, ResolvedMcpServer

log = logging.getLogger(__name__)

START_TIMEOUT = 30.0
"""Seconds a server may take to start and list its tools."""
CALL_TIMEOUT = 600.0
"""Seconds one tool call may take."""
_TAIL = 2000


class McpServerError(Exception):
    """A server could not start, or stopped; the message is a sentence for the user, with the
    tail of the server's stderr when there is one."""


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(e) for e in exc.exceptions)
    text = str(exc) or type(exc).__name__
    return text if not isinstance(exc, OSError) else f"{type(exc).__name__}: {text}"


class McpConnection:
    """A running MCP server (``start`` → ``tools`` → ``call`` … → ``close``).

    Args:
        server: The server with its secrets filled in.
        cwd: The working folder of a stdio server (the workspace).
    """

    def __init__(self, server: ResolvedMcpServer, cwd: Path | None = None) -> None:
        self.server = server
        self._cwd = cwd
        self._stderr: IO[str] | None = None
        self._session: Any = None
        self._task: asyncio.Task[None] | None = None
        self._ready: asyncio.Future[list[Any]] | None = None
        self._closing = asyncio.Event()
        #: Why the connection ended, once it has (None while it runs).
        self.ended: str | None = None

    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr (stdio only)."""
        if self._stderr is None:
            return ""
        with contextlib.suppress(OSError, ValueError):
            self._stderr.flush()
            self._stderr.seek(0)
            return self._stderr.read()[-_TAIL:].strip()
        return ""

    def _with_tail(self, message: str) -> str:
        tail = self.stderr_tail()
        return f"{message}\nThe server's stderr ends with:\n{tail}" if tail else message

    async def start(self, timeout: float = START_TIMEOUT) -> list[Any]:
        """Start the server and list its tools (``mcp.types.Tool``).

        Raises:
            McpServerError: it did not start, did not answer in time, or failed to list tools.
        """
        self._ready = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._run(), name=f"mcp-{self.server.name}")
        try:
            return await asyncio.wait_for(asyncio.shield(self._ready), timeout)
        except TimeoutError:
            await self.close()
            raise McpServerError(
                self._with_tail(
                    f"MCP server {self.server.name!r} did not answer within {timeout:g} s."
                )
            ) from None
        except McpServerError:
            await self.close()
            raise

    async def _run(self) -> None:
        assert self._ready is not None
        try:
            async with self._open() as (read, write):
                from mcp import ClientSession

                async with ClientSession(read, write) as session:
                    await session.initialize()
                    listed = await session.list_tools()
                    self._session = session
                    if not self._ready.done():
                        self._ready.set_result(list(listed.tools))
                    await self._closing.wait()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - boundary: every failure becomes a sentence
            log.info("MCP server %s ended: %r", self.server.name, exc)
            self.ended = _describe(exc)
        finally:
            self._session = None
            if self.ended is None and not self._closing.is_set():
                self.ended = "the connection closed"
            if not self._ready.done():
                why = self.ended or "it stopped"
                self._ready.set_exception(
                    McpServerError(
                        self._with_tail(f"MCP server {self.server.name!r} failed to start: {why}.")
                    )
                )

    @contextlib.asynccontextmanager
    async def _open(self) -> AsyncIterator[tuple[Any, Any]]:
        server = self.server
        if server.transport == McpTransport.STDIO:
            from mcp import StdioServerParameters, stdio_client

            assert server.command is not None
            # Closed by close(): it outlives this block so a failure can still quote it.
            self._stderr = tempfile.TemporaryFile(  # noqa: SIM115
                mode="w+", encoding="utf-8", errors="replace"
            )
            params = StdioServerParameters(
                command=server.command,
                args=list(server.args),
                env=dict(server.env),
                cwd=self._cwd,
            )
            async with stdio_client(params, errlog=self._stderr) as streams:
                yield streams[0], streams[1]
            return
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        assert server.url is not None
        async with (
            create_mcp_http_client(headers=dict(server.headers)) as client,
            streamable_http_client(server.url, http_client=client) as streams,
        ):
            yield streams[0], streams[1]

    async def call(self, tool: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        """Call ``tool``: ``(text of the result, is_error)``.

        Raises:
            McpServerError: the server is gone or stopped answering.
        """
        session = self._session
        if session is None:
            raise McpServerError(
                self._with_tail(
                    f"MCP server {self.server.name!r} is not running ({self.ended or 'stopped'})."
                )
            )
        try:
            result = await asyncio.wait_for(session.call_tool(tool, arguments), CALL_TIMEOUT)
        except TimeoutError:
            raise McpServerError(
                f"MCP server {self.server.name!r} did not answer {tool} within {CALL_TIMEOUT:g} s."
            ) from None
        except Exception as exc:
            await asyncio.sleep(0)  # let the connection task record why it ended
            why = self.ended or _describe(exc)
            raise McpServerError(
                self._with_tail(f"MCP server {self.server.name!r} failed during {tool}: {why}.")
            ) from exc
        return result_text(result), bool(getattr(result, "is_error", False))

    @property
    def alive(self) -> bool:
        """Whether the server is connected."""
        return self._session is not None

    async def close(self) -> None:
        """Stop the server (its process is ended by the SDK's transport)."""
        self._closing.set()
        if self._task is not None and not self._task.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 10.0)
            except TimeoutError:
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
        if self._stderr is not None:
            with contextlib.suppress(OSError):
                self._stderr.close()


async def check_server(server: ResolvedMcpServer, cwd: Path | None = None) -> list[Any]:
    """Start ``server``, list its tools (``mcp.types.Tool``) and stop it: ``agentdesk mcp test``
    and Settings ▸ MCP servers ▸ Test.

    Raises:
        McpServerError: it did not start or list its tools (the reason, with its stderr tail).
    """
    connection = McpConnection(server, cwd)
    tools = await connection.start()
    await connection.close()
    return tools


def result_text(result: Any) -> str:
    """The text of a ``CallToolResult``: text blocks joined, other blocks named, structured
    content as JSON when there is no text."""
    import json

    parts: list[str] = []
    for block in getattr(result, "content", None) or []:
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(str(block.text))
        elif kind == "resource":
            inner = getattr(block, "resource", None)
            parts.append(str(getattr(inner, "text", None) or f"[resource {inner}]"))
        else:
            parts.append(f"[{kind} content]")
    if not parts and getattr(result, "structured_content", None) is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False))
    return "\n".join(parts)
