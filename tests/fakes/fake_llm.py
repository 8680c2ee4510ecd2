"""A scripted fake LLM HTTP server on 127.0.0.1 for tests of real agent processes.

It speaks streaming (server-sent events) **Anthropic Messages** (``…/messages``) and **OpenAI
Chat Completions** (``…/chat/completions``) as described in
``shared/reference/real-agents-offline.md`` §3, from a scripted list of turns, and records every
request so tests can assert what the agent sent back to the model (tool results after approvals
and denials).

Usage::

    from tests.fakes.fake_llm import FakeLLM, Turn, ToolCallSpec

    with FakeLLM([
        Turn(text="I'll write it.", tool_calls=[ToolCallSpec("Write", {"file_path": "a.txt",
                                                                     "content": "hi"})]),
        {"text": "Done."},                              # a dict works as well as a Turn
    ]) as llm:
        env["ANTHROPIC_BASE_URL"] = llm.url             # Anthropic SDKs append /v1/messages
        env["OPENAI_BASE_URL"] = llm.openai_base_url    # = url + "/v1"
        ...
        llm.wait_for_requests(2)
        body = llm.model_requests[1].body               # the parsed JSON request body

API:

- ``FakeLLM(turns=None)``: ``start()``/``close()`` or a ``with`` block; ``url`` (no trailing
  slash) and ``openai_base_url``. ``add(*turns)`` appends to the script.
- Each model request takes the next turn, whatever its dialect; once the script runs out the
  reply is the text ``(fake: script exhausted)``. A request that offers no tools (a title or
  quota side call) gets the text ``ok`` and does not use up a turn.
- ``Turn`` fields: ``text`` (a string, or a list of strings sent as separate deltas),
  ``thinking``, ``tool_calls`` (several are one reply with parallel calls; ``ToolCallSpec`` or
  ``{"name", "arguments", "call_id"}``), ``usage`` (``input_tokens``/``output_tokens``),
  ``status`` (an HTTP error such as 401/429/500 instead of a stream, with ``error_message`` and
  an optional ``retry_after`` header), ``cut_after`` (send that many SSE frames, then drop the
  connection mid-stream), ``hang_after`` (send that many frames, then keep the stream open with
  SSE comments until the client disconnects: for ``stop`` tests), ``frame_delay`` (seconds
  between frames).
- ``requests``: every request as ``Recorded(method, path, headers, body, dialect)``, plus
  ``disconnected`` (the client went away during a stream). ``model_requests`` keeps only those
  that reached a dialect. ``wait_for_requests(n, timeout)`` and ``wait_for_disconnect(timeout)``
  block until it happened (raise ``TimeoutError`` otherwise).
- Helpers for assertions: ``anthropic_tool_results(body)`` and ``openai_tool_results(body)``
  return ``{call_id: (content, is_error)}`` from the last message(s) of a request.
- Other formats plug in with ``add_dialect(path_suffix, dialect)``; a dialect is any object with
  ``name``, ``frames(turn, request, index) -> list[bytes]`` and ``error_body(turn) -> dict``
  (see ``AnthropicMessages`` and ``ChatCompletions`` in ``fake_llm_sse``; the script types
  are in ``fake_llm_script``). OpenAI Responses (``/responses``) and
  Gemini (``:streamGenerateContent``) are meant to be added this way.
- Also answered: ``POST …/messages/count_tokens`` → ``{"input_tokens": 10}`` and ``GET …/models``
  → a one-model list.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fakes.fake_llm_script import (
    EXHAUSTED_TEXT,
    Dialect,
    Recorded,
    ToolCallSpec,
    Turn,
    sse,
)
from tests.fakes.fake_llm_sse import (
    AnthropicMessages,
    ChatCompletions,
    anthropic_tool_results,
    openai_tool_results,
)

__all__ = [
    "EXHAUSTED_TEXT",
    "AnthropicMessages",
    "ChatCompletions",
    "Dialect",
    "FakeLLM",
    "Recorded",
    "ToolCallSpec",
    "Turn",
    "anthropic_tool_results",
    "openai_tool_results",
    "sse",
]


class FakeLLM:
    """The server; see the module docstring."""

    def __init__(self, turns: list[Turn | dict[str, Any]] | None = None) -> None:
        self._turns = [Turn.of(t) for t in turns or []]
        self._next = 0
        self._lock = threading.Condition()
        self._closed = threading.Event()
        self.requests: list[Recorded] = []
        self.dialects: dict[str, Dialect] = {
            "/messages": AnthropicMessages(),
            "/chat/completions": ChatCompletions(),
        }
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ set-up

    def add(self, *turns: Turn | dict[str, Any]) -> None:
        """Append turns to the script."""
        with self._lock:
            self._turns += [Turn.of(t) for t in turns]

    def add_dialect(self, path_suffix: str, dialect: Dialect) -> None:
        """Serve ``dialect`` for POST paths ending with ``path_suffix``."""
        self.dialects[path_suffix] = dialect

    def start(self) -> FakeLLM:
        handler = type("Handler", (_Handler,), {"fake": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._closed.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def url(self) -> str:
        assert self._server is not None, "start() the server first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def openai_base_url(self) -> str:
        return self.url + "/v1"

    # ------------------------------------------------------------------ inspection

    @property
    def model_requests(self) -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.dialect is not None]

    def wait_for_requests(self, count: int, timeout: float = 15.0) -> list[Recorded]:
        """Block until ``count`` model requests arrived."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while len([r for r in self.requests if r.dialect]) < count:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"expected {count} model requests, got {len(self.requests)}")
                self._lock.wait(remaining)
        return self.model_requests

    def wait_for_disconnect(self, timeout: float = 15.0) -> Recorded:
        """Block until a client dropped a streaming reply; return that request."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not any(r.disconnected for r in self.requests):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError("no client disconnected")
                self._lock.wait(remaining)
            return next(r for r in self.requests if r.disconnected)

    # ------------------------------------------------------------------ internals

    def _record(self, record: Recorded) -> None:
        with self._lock:
            self.requests.append(record)
            self._lock.notify_all()

    def _mark_disconnected(self, record: Recorded) -> None:
        with self._lock:
            record.disconnected = True
            self._lock.notify_all()

    def _take_turn(self, body: Any) -> tuple[Turn, int]:
        with self._lock:
            index = self._next
            if isinstance(body, dict) and not body.get("tools"):
                return Turn(text="ok"), index
            self._next += 1
            if index < len(self._turns):
                return self._turns[index], index
            return Turn(text=EXHAUSTED_TEXT), index


class _Handler(BaseHTTPRequestHandler):
    fake: FakeLLM
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        self.fake._record(Recorded("GET", self.path, dict(self.headers.items()), None))
        if path.endswith("/models"):
            model = {"id": "fake-model", "object": "model"}
            self._json(200, {"object": "list", "data": [model], "models": []})
        else:
            self._json(404, {"error": {"message": f"no route {path}"}})

    def do_POST(self) -> None:
        path = self.path.split("?")[0]
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        headers = {k.lower(): v for k, v in self.headers.items()}
        if path.endswith("/count_tokens"):
            self.fake._record(Recorded("POST", self.path, headers, body))
            self._json(200, {"input_tokens": 10})
            return
        dialect = next((d for s, d in self.fake.dialects.items() if path.endswith(s)), None)
        record = Recorded("POST", self.path, headers, body, dialect.name if dialect else None)
        self.fake._record(record)
        if dialect is None:
            self._json(404, {"error": {"message": f"no route {path}"}})
            return
        turn, index = self.fake._take_turn(body)
        if turn.status != 200:
            extra = {"retry-after": f"{turn.retry_after:g}"} if turn.retry_after is not None else {}
            self._json(turn.status, dialect.error_body(turn), extra)
            return
        self._stream(
            record, turn, dialect.frames(turn, body if isinstance(body, dict) else {}, index)
        )

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _stream(self, record: Recorded, turn: Turn, frames: list[bytes]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.close_connection = True
        try:
            for n, frame in enumerate(frames):
                if turn.cut_after is not None and n >= turn.cut_after:
                    self.wfile.flush()
                    self.connection.close()  # no terminating chunk: a broken stream
                    return
                if turn.hang_after is not None and n >= turn.hang_after:
                    self._hang(record)
                    return
                if turn.frame_delay:
                    time.sleep(turn.frame_delay)
                self._chunk(frame)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            self.fake._mark_disconnected(record)

    def _hang(self, record: Recorded) -> None:
        """Keep the stream open with SSE comments until the client goes away."""
        while not self.fake._closed.is_set():
            try:
                self._chunk(b": waiting\n\n")
            except OSError:
                self.fake._mark_disconnected(record)
                return
            time.sleep(0.05)
