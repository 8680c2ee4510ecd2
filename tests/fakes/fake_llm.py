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
  (see ``AnthropicMessages`` and ``ChatCompletions``). OpenAI Responses (``/responses``) and
  Gemini (``:streamGenerateContent``) are meant to be added this way.
- Also answered: ``POST …/messages/count_tokens`` → ``{"input_tokens": 10}`` and ``GET …/models``
  → a one-model list.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Protocol

EXHAUSTED_TEXT = "(fake: script exhausted)"


@dataclass
class ToolCallSpec:
    """One scripted tool call."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    call_id: str | None = None


@dataclass
class Turn:
    """One scripted model reply (or failure)."""

    text: str | list[str] = ""
    thinking: str = ""
    tool_calls: list[ToolCallSpec] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)
    status: int = 200
    error_message: str = "scripted failure"
    retry_after: float | None = None
    cut_after: int | None = None
    hang_after: int | None = None
    frame_delay: float = 0.0

    @classmethod
    def of(cls, value: Turn | dict[str, Any]) -> Turn:
        """Accept a ``Turn`` or a plain dict with the same keys."""
        if isinstance(value, Turn):
            return value
        data = dict(value)
        calls = [
            c if isinstance(c, ToolCallSpec) else ToolCallSpec(**c)
            for c in data.pop("tool_calls", [])
        ]
        return cls(tool_calls=calls, **data)

    def chunks(self) -> list[str]:
        """The text deltas."""
        if isinstance(self.text, list):
            return [t for t in self.text if t]
        return [self.text] if self.text else []

    def call_ids(self, prefix: str, index: int) -> list[str]:
        """Tool call ids, generated where the script gave none."""
        return [c.call_id or f"{prefix}{index}_{n}" for n, c in enumerate(self.tool_calls)]


@dataclass
class Recorded:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    dialect: str | None = None
    disconnected: bool = False


class Dialect(Protocol):
    """A streaming wire format."""

    name: str

    def frames(self, turn: Turn, request: dict[str, Any], index: int) -> list[bytes]:
        """The SSE frames of a successful streamed reply."""
        ...

    def error_body(self, turn: Turn) -> dict[str, Any]:
        """The JSON body of an HTTP error reply."""
        ...


def sse(data: Any, event: str | None = None) -> bytes:
    """One server-sent event frame."""
    head = f"event: {event}\n" if event else ""
    payload = data if isinstance(data, str) else json.dumps(data)
    return f"{head}data: {payload}\n\n".encode()


def _split(text: str) -> list[str]:
    """A JSON string in two pieces, to exercise the client's accumulation."""
    middle = len(text) // 2
    return [p for p in (text[:middle], text[middle:]) if p]


class AnthropicMessages:
    """Anthropic Messages streaming (``event:`` name equals ``data.type``)."""

    name = "anthropic"
    _ERROR_TYPES: ClassVar[dict[int, str]] = {
        400: "invalid_request_error",
        401: "authentication_error",
        403: "permission_error",
        404: "not_found_error",
        429: "rate_limit_error",
        529: "overloaded_error",
    }

    def error_body(self, turn: Turn) -> dict[str, Any]:
        kind = self._ERROR_TYPES.get(turn.status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": turn.error_message}}

    def frames(self, turn: Turn, request: dict[str, Any], index: int) -> list[bytes]:
        def ev(data: dict[str, Any]) -> bytes:
            return sse(data, data["type"])

        usage_in = turn.usage.get("input_tokens", 12)
        usage_out = turn.usage.get("output_tokens", 5)
        out = [
            ev(
                {
                    "type": "message_start",
                    "message": {
                        "id": f"msg_fake_{index}",
                        "type": "message",
                        "role": "assistant",
                        "model": request.get("model", "fake-model"),
                        "content": [],
                        "stop_reason": None,
                        "stop_sequence": None,
                        "usage": {
                            "input_tokens": usage_in,
                            "output_tokens": 1,
                            "cache_read_input_tokens": turn.usage.get("cache_read_tokens", 0),
                            "cache_creation_input_tokens": turn.usage.get("cache_write_tokens", 0),
                        },
                    },
                }
            )
        ]
        block = 0
        if turn.thinking:
            out.append(
                ev(
                    {
                        "type": "content_block_start",
                        "index": block,
                        "content_block": {"type": "thinking", "thinking": "", "signature": ""},
                    }
                )
            )
            out.append(
                ev(
                    {
                        "type": "content_block_delta",
                        "index": block,
                        "delta": {"type": "thinking_delta", "thinking": turn.thinking},
                    }
                )
            )
            out.append(
                ev(
                    {
                        "type": "content_block_delta",
                        "index": block,
                        "delta": {"type": "signature_delta", "signature": f"fake-sig-{index}"},
                    }
                )
            )
            out.append(ev({"type": "content_block_stop", "index": block}))
            block += 1
        if turn.chunks():
            start = {"type": "text", "text": ""}
            out.append(ev({"type": "content_block_start", "index": block, "content_block": start}))
            for chunk in turn.chunks():
                delta = {"type": "text_delta", "text": chunk}
                out.append(ev({"type": "content_block_delta", "index": block, "delta": delta}))
            out.append(ev({"type": "content_block_stop", "index": block}))
            block += 1
        for call, call_id in zip(turn.tool_calls, turn.call_ids("toolu_fake_", index), strict=True):
            start = {"type": "tool_use", "id": call_id, "name": call.name, "input": {}}
            out.append(ev({"type": "content_block_start", "index": block, "content_block": start}))
            for piece in _split(json.dumps(call.arguments)):
                delta = {"type": "input_json_delta", "partial_json": piece}
                out.append(ev({"type": "content_block_delta", "index": block, "delta": delta}))
            out.append(ev({"type": "content_block_stop", "index": block}))
            block += 1
        stop = "tool_use" if turn.tool_calls else "end_turn"
        out.append(
            ev(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": usage_out},
                }
            )
        )
        out.append(ev({"type": "message_stop"}))
        return out


class ChatCompletions:
    """OpenAI Chat Completions streaming (no ``event:`` lines; ends with ``[DONE]``)."""

    name = "openai-chat"

    def error_body(self, turn: Turn) -> dict[str, Any]:
        kind = {401: "invalid_api_key", 429: "rate_limit_exceeded"}.get(turn.status, "server_error")
        return {"error": {"message": turn.error_message, "type": kind, "code": kind}}

    def frames(self, turn: Turn, request: dict[str, Any], index: int) -> list[bytes]:
        created = int(time.time())
        model = request.get("model", "fake-model")

        def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
            choice = {"index": 0, "delta": delta, "finish_reason": finish}
            return sse(
                {
                    "id": f"chatcmpl-fake-{index}",
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "choices": [choice],
                    **extra,
                }
            )

        out = [chunk({"role": "assistant", "content": ""})]
        if turn.thinking:
            out.append(chunk({"reasoning_content": turn.thinking}))
        out += [chunk({"content": text}) for text in turn.chunks()]
        ids = turn.call_ids("call_fake_", index)
        for n, (call, call_id) in enumerate(zip(turn.tool_calls, ids, strict=True)):
            pieces = _split(json.dumps(call.arguments)) or [""]
            head = {"name": call.name, "arguments": pieces[0]}
            first = {"index": n, "id": call_id, "type": "function", "function": head}
            out.append(chunk({"tool_calls": [first]}))
            for piece in pieces[1:]:
                out.append(chunk({"tool_calls": [{"index": n, "function": {"arguments": piece}}]}))
        prompt = turn.usage.get("input_tokens", 12)
        completion = turn.usage.get("output_tokens", 5)
        usage = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
        out.append(chunk({}, "tool_calls" if turn.tool_calls else "stop", usage=usage))
        out.append(sse("[DONE]"))
        return out


def anthropic_tool_results(body: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    """``{tool_use_id: (content, is_error)}`` from the last user message of a request."""
    last = body["messages"][-1]
    results: dict[str, tuple[str, bool]] = {}
    for block in last["content"] if isinstance(last["content"], list) else []:
        if block.get("type") == "tool_result":
            content = block.get("content", "")
            if isinstance(content, list):
                content = "".join(part.get("text", "") for part in content)
            results[block["tool_use_id"]] = (content, bool(block.get("is_error", False)))
    return results


def openai_tool_results(body: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    """``{tool_call_id: (content, False)}`` from the trailing ``tool`` messages of a request
    (Chat Completions has no error flag)."""
    results: dict[str, tuple[str, bool]] = {}
    for message in reversed(body["messages"]):
        if message.get("role") != "tool":
            break
        results[message["tool_call_id"]] = (message.get("content", ""), False)
    return results


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
