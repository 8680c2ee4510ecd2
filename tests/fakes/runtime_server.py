"""A conforming Agent Runtime for tests: a real grpc.aio server on 127.0.0.1.

It authenticates exactly like the deployed runtime (``shared/reference/runtime-grpc.md`` §3–§5):
same header rules, token format, constant-time HMAC compare, ±300 s skew and the same fixed
UNAUTHENTICATED messages. The token check is written independently of the client's signer so a
client bug cannot hide behind a shared helper. The "LLM" is scripted by the message text:

=================  =====================================================================
``!error TEXT``    a partial chunk, then ``done{model: "ERROR: Internal: runner: TEXT"}``
``!tools``         tool call + result, two usage events, text, done
``!think``         thinking deltas, then text
``!slow``          40 chunks, ``slow_delay`` seconds apart (for stop mid-stream)
``!drop``          a chunk, then the whole server stops abruptly (connection dropped)
``!eof``           a chunk, then the stream ends OK without a done event
``!silent``        no chunks: the reply only in ``done.turns`` (a non-streaming runtime)
``!big N``         one chunk of N bytes
anything else      "echo: <message> [turn K of <session>]" as chunks, usage, done
=================  =====================================================================

``""`` gets the runtime's ``ERROR: InvalidArgument`` done event. Every turn ends with exactly one
done event and usage always comes before it.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import hmac
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import grpc
import grpc.aio

from desktop.core.remote.generated import runtime_pb2 as pb
from desktop.core.remote.generated import runtime_pb2_grpc as pb_grpc

SKEW_SECONDS = 300
MSG_NO_BEARER = "Request unauthenticated with bearer"
MSG_BAD_STRING = "Bad authorization string"
MSG_EMPTY = "empty bearer token"
MSG_INVALID = "invalid bearer token"
MSG_EMPTY_MESSAGE = "ERROR: InvalidArgument: converse: message is required"
MODEL = "fake-model-1"

_B64URL = re.compile(r"[A-Za-z0-9_-]*")
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")
_INT64 = re.compile(r"[+-]?[0-9]+")

#: The deployed runtime's transport settings (§5).
SERVER_OPTIONS: list[tuple[str, int]] = [
    ("grpc.max_connection_idle_ms", 5 * 60_000),
    ("grpc.max_connection_age_ms", 30 * 60_000),
    ("grpc.max_connection_age_grace_ms", 10_000),
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.http2.min_ping_interval_without_data_ms", 15_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.max_concurrent_streams", 32),
    ("grpc.max_receive_message_length", 4 * 1024 * 1024),
]


class TokenInvalid(Exception):
    """Why a token failed (never sent to the client, as in the runtime)."""


def verify_token(key: bytes, token: str, now: float) -> tuple[str, str]:
    """(user id, workspace id) of a valid token; the deployed runtime's rules in order."""
    payload, dot, signature = token.partition(".")
    if not dot:
        raise TokenInvalid("invalid token format")
    if not _HEX.fullmatch(signature):
        raise TokenInvalid("invalid token signature")
    expected = hmac.new(key, payload.encode("utf-8"), hashlib.sha256).digest()
    if not hmac.compare_digest(bytes.fromhex(signature), expected):
        raise TokenInvalid("invalid token signature")
    if "=" in payload or not _B64URL.fullmatch(payload):
        raise TokenInvalid("invalid token payload")
    try:
        decoded = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except (binascii.Error, ValueError) as exc:
        raise TokenInvalid("invalid token payload") from exc
    parts = decoded.split(b":", 2)
    if len(parts) != 3 or not all(parts):
        raise TokenInvalid("invalid token payload")
    stamp_text = parts[2].decode("utf-8", "replace")
    if not _INT64.fullmatch(stamp_text) or not -(2**63) <= int(stamp_text) < 2**63:
        raise TokenInvalid("invalid token timestamp")
    if abs(int(now) - int(stamp_text)) > SKEW_SECONDS:
        raise TokenInvalid("token expired")
    return parts[0].decode("utf-8", "replace"), parts[1].decode("utf-8", "replace")


def check_authorization(values: list[str], key: bytes, now: float) -> tuple[str, str]:
    """Apply the header rules; raises ``AuthRejected`` with the runtime's fixed message."""
    if not values:
        raise AuthRejected(MSG_NO_BEARER)
    scheme, space, token = values[0].partition(" ")
    if not space:
        raise AuthRejected(MSG_BAD_STRING)
    if scheme.lower() != "bearer":
        raise AuthRejected(MSG_NO_BEARER)
    if token == "":
        raise AuthRejected(MSG_EMPTY)
    try:
        return verify_token(key, token, now)
    except TokenInvalid as exc:
        raise AuthRejected(MSG_INVALID, reason=str(exc)) from exc


class AuthRejected(Exception):
    """UNAUTHENTICATED with ``message``; ``reason`` is kept for test assertions only."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason or message


@dataclass
class Record:
    """What the server saw, for assertions."""

    requests: list[tuple[tuple[str, str], pb.ConverseRequest]] = field(default_factory=list)
    authorizations: list[str] = field(default_factory=list)
    rejections: list[AuthRejected] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)  # "ok", "cancelled", "dropped"
    turns_by_session: dict[str, int] = field(default_factory=dict)
    streams_opened: int = 0


def _chunk(text: str, agent: str) -> pb.ConverseEvent:
    return pb.ConverseEvent(chunk=pb.ChunkEvent(agent_id=agent, text=text))


def _usage(agent: str, seq: int, prompt: int, completion: int) -> pb.ConverseEvent:
    return pb.ConverseEvent(
        usage=pb.UsageEvent(
            agent_id=agent,
            model=MODEL,
            prompt_tokens=prompt,
            completion_tokens=completion,
            total_tokens=prompt + completion,
            cached_tokens=prompt // 2,
            call_sequence=seq,
        )
    )


def _done(model: str = MODEL, turns: list[pb.Turn] | None = None) -> pb.ConverseEvent:
    return pb.ConverseEvent(done=pb.DoneEvent(model=model, turns=turns or []))


class FakeRuntime(pb_grpc.AgentRuntimeServicer):
    """The ``Converse`` handler: authenticate once at open, then one turn per request."""

    def __init__(self, server: RuntimeServer) -> None:
        self._server = server

    async def Converse(  # the gRPC method name
        self,
        request_iterator: AsyncIterator[pb.ConverseRequest],
        context: grpc.aio.ServicerContext[pb.ConverseRequest, pb.ConverseEvent],
    ) -> AsyncIterator[pb.ConverseEvent]:
        record = self._server.record
        record.streams_opened += 1
        values = [v for k, v in context.invocation_metadata() or () if k == "authorization"]
        record.authorizations.extend(str(v) for v in values[:1])
        try:
            identity = check_authorization(
                [str(v) for v in values], self._server.key, self._server.clock()
            )
        except AuthRejected as exc:
            record.rejections.append(exc)
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, exc.message)
        try:
            async for request in request_iterator:
                record.requests.append((identity, request))
                async for event in self._turn(identity, request):
                    yield event
        except asyncio.CancelledError:
            record.outcomes.append("cancelled")
            raise
        record.outcomes.append("ok")

    async def _turn(
        self, identity: tuple[str, str], request: pb.ConverseRequest
    ) -> AsyncIterator[pb.ConverseEvent]:
        agent = request.agent_id or "manager"
        text = request.message
        if text == "":
            yield _done(MSG_EMPTY_MESSAGE)
            return
        session = request.session_id or identity[1]
        count = self._server.record.turns_by_session.get(session, 0) + 1
        self._server.record.turns_by_session[session] = count
        command, _, rest = text.partition(" ")
        delay = self._server.chunk_delay
        if command == "!error":
            yield _chunk("partial ", agent)
            yield _done(f"ERROR: Internal: runner: {rest or 'boom'}")
        elif command == "!tools":
            yield pb.ConverseEvent(
                tool_call=pb.ToolCallEvent(
                    agent_id=agent, tool="web_search", args_json='{"query": "x"}', call_id="c1"
                )
            )
            yield pb.ConverseEvent(
                tool_result=pb.ToolResultEvent(call_id="c1", result_json='{"results": []}')
            )
            yield _usage(agent, 0, 100, 10)
            yield _chunk("found nothing", agent)
            yield _usage(agent, 1, 200, 20)
            yield _done(turns=[pb.Turn(agent_id=agent, text="found nothing")])
        elif command == "!think":
            yield pb.ConverseEvent(thinking=pb.ThinkingEvent(agent_id=agent, text="hmm "))
            yield pb.ConverseEvent(thinking=pb.ThinkingEvent(agent_id=agent, text="ok"))
            yield _chunk("thought", agent)
            yield _done()
        elif command == "!slow":
            for i in range(40):
                yield _chunk(f"{i} ", agent)
                await asyncio.sleep(self._server.slow_delay)
            yield _done()
        elif command == "!drop":
            yield _chunk("about to drop", agent)
            await asyncio.sleep(0.05)
            self._server.record.outcomes.append("dropped")
            asyncio.get_running_loop().create_task(self._server.stop(grace=None))
            await asyncio.sleep(5)
        elif command == "!eof":
            yield _chunk("cut short", agent)
        elif command == "!silent":
            yield _usage(agent, 0, 5, 5)
            yield _done(turns=[pb.Turn(agent_id=agent, text="quiet answer")])
        elif command == "!big":
            yield _chunk("x" * int(rest), agent)
            yield _done()
        else:
            reply = f"echo: {text} [turn {count} of {session}]"
            for word in reply.split(" "):
                yield _chunk(word + " ", agent)
                if delay:
                    await asyncio.sleep(delay)
            yield _usage(agent, 0, len(text), len(reply.split(" ")))
            yield _done(turns=[pb.Turn(agent_id=agent, text=reply)])


@dataclass
class ServerTls:
    """PEM material for a TLS server; ``client_ca`` set → client certificates required."""

    cert: bytes
    key: bytes
    client_ca: bytes | None = None


class RuntimeServer:
    """Start/stop/restart a ``FakeRuntime`` on 127.0.0.1; state survives restarts."""

    def __init__(
        self,
        key: bytes,
        *,
        tls: ServerTls | None = None,
        clock: Callable[[], float] = time.time,
        chunk_delay: float = 0.0,
        slow_delay: float = 0.1,
    ) -> None:
        self.key = key
        self.tls = tls
        self.clock = clock
        self.chunk_delay = chunk_delay
        self.slow_delay = slow_delay
        self.record = Record()
        self.port = 0
        self._server: grpc.aio.Server | None = None

    @property
    def address(self) -> str:
        """HOST:PORT to connect to."""
        return f"127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Listen (on the same port again after a restart)."""
        server = grpc.aio.server(options=SERVER_OPTIONS)
        pb_grpc.add_AgentRuntimeServicer_to_server(FakeRuntime(self), server)
        where = f"127.0.0.1:{self.port}"
        if self.tls is None:
            self.port = server.add_insecure_port(where)
        else:
            credentials = grpc.ssl_server_credentials(
                [(self.tls.key, self.tls.cert)],
                root_certificates=self.tls.client_ca,
                require_client_auth=self.tls.client_ca is not None,
            )
            self.port = server.add_secure_port(where, credentials)
        await server.start()
        self._server = server

    async def stop(self, grace: float | None = None) -> None:
        """Stop; ``grace=None`` cancels running streams at once (a dropped connection)."""
        server, self._server = self._server, None
        if server is not None:
            await server.stop(grace)

    async def restart(self) -> None:
        """Stop abruptly and listen again on the same port."""
        await self.stop()
        await self.start()
