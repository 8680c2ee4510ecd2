"""A small JSON-RPC peer over an ``AgentProcess`` (newline-delimited JSON on stdio).

Codex's app-server omits the ``jsonrpc`` field and numbers its own requests from 0; this peer
accepts both styles, matches responses to our calls by id, and hands notifications and server
requests to callbacks. A server request the host does not handle must still be answered, so
``respond_error`` exists and the backend uses it for unknown methods.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from pydantic_core import from_json

from desktop.core.lines import OversizeLine
from desktop.core.process import AgentProcess

log = logging.getLogger(__name__)

RequestId = int | str
NotificationHandler = Callable[[str, dict[str, Any] | None], None]
RequestHandler = Callable[[RequestId, str, dict[str, Any] | None], None]

METHOD_NOT_FOUND = -32601


class RpcError(Exception):
    """The peer answered a call with an error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"rpc error {code}: {message}")
        self.code = code
        self.message = message
        self.data = data


class RpcClosedError(Exception):
    """The peer went away before answering."""


class JsonRpcPeer:
    """Calls into the child and dispatches what the child sends.

    Args:
        process: The started child process.
        on_notification: ``(method, params)`` for each notification.
        on_request: ``(id, method, params)`` for each server request; answer with ``respond``.
        on_bad_line: Told about a line that is not JSON or is over the line limit.
    """

    def __init__(
        self,
        process: AgentProcess,
        *,
        on_notification: NotificationHandler,
        on_request: RequestHandler,
        on_bad_line: Callable[[str], None] | None = None,
        jsonrpc_field: bool = False,
    ) -> None:
        self._process = process
        self._on_notification = on_notification
        self._on_request = on_request
        self._on_bad_line = on_bad_line or (lambda _m: None)
        self._jsonrpc = jsonrpc_field
        self._next_id = 1
        self._pending: dict[RequestId, asyncio.Future[Any]] = {}
        self.closed = False

    async def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """Send a request and wait for its result.

        Raises:
            RpcError: the peer answered with an error.
            RpcClosedError: the peer exited first.
        """
        if self.closed:
            raise RpcClosedError(f"{method}: the agent has exited")
        request_id = self._next_id
        self._next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        message: dict[str, Any] = {"id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        try:
            if not await self._send(message):
                raise RpcClosedError(f"{method}: the agent's input is closed")
            return await future
        finally:
            self._pending.pop(request_id, None)

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Send a notification."""
        message: dict[str, Any] = {"method": method}
        if params is not None:
            message["params"] = params
        await self._send(message)

    async def respond(self, request_id: RequestId, result: Any) -> None:
        """Answer a server request."""
        await self._send({"id": request_id, "result": result})

    async def respond_error(self, request_id: RequestId, code: int, message: str) -> None:
        """Answer a server request with an error."""
        await self._send({"id": request_id, "error": {"code": code, "message": message}})

    async def _send(self, message: dict[str, Any]) -> bool:
        if self._jsonrpc:
            message = {"jsonrpc": "2.0", **message}
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        return await self._process.write(data)

    async def run(self) -> None:
        """Read until EOF, then fail every call still waiting."""
        try:
            async for batch in self._process.lines():
                for line in batch:
                    try:
                        self._handle(line)
                    except Exception as exc:
                        # A bug in mapping one message must not stop reading: the agent would
                        # look hung and its turn would never end.
                        log.exception("handling a message from the agent failed")
                        self._on_bad_line(f"Agent Desk could not handle a message: {exc!r}")
        finally:
            self.closed = True
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(RpcClosedError("the agent exited"))

    def _handle(self, line: bytes | OversizeLine) -> None:
        if isinstance(line, OversizeLine):
            self._on_bad_line(f"a line of {line.size:,} bytes over the limit was skipped")
            return
        if not line.strip():
            return
        try:
            data = from_json(line)
        except ValueError:
            self._on_bad_line(f"not JSON: {line[:160].decode('utf-8', 'replace')!r}")
            return
        if not isinstance(data, dict):
            self._on_bad_line("a JSON value that is not an object was skipped")
            return
        method = data.get("method")
        params = data.get("params")
        params = params if isinstance(params, dict) else None
        if isinstance(method, str):
            if "id" in data and data["id"] is not None:
                self._on_request(data["id"], method, params)
            else:
                self._on_notification(method, params)
            return
        future = self._pending.get(data.get("id"))  # type: ignore[arg-type]
        if future is None or future.done():
            log.info("response to an unknown request id %r ignored", data.get("id"))
            return
        error = data.get("error")
        if isinstance(error, dict):
            future.set_exception(
                RpcError(
                    int(error.get("code", -32603)), str(error.get("message", "")), error.get("data")
                )
            )
        else:
            future.set_result(data.get("result"))
