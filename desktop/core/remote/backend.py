"""``RemoteRuntimeBackend``: a conversation with an Agent Runtime over gRPC ``Converse``.

Like the deployed orchestrator, every turn opens a new ``Converse`` stream with a fresh token,
sends one request carrying all six fields and half-closes at once; the runtime keeps the
conversation's state under ``session_id``, which is the conversation id Agent Desk stores, so
the state survives restarts of Agent Desk. Stop cancels the call. A lost connection ends the
turn with a retryable error (the turn is never replayed: the runtime may have acted on it) and
the next turn reconnects on a new channel, riding out a restarting runtime with gRPC's
reconnect backoff for up to ``connect_timeout`` seconds. A turn the runtime ends before taking
its request (a rejected token) fails with the runtime's own reason, also where ``grpc.aio`` loses
it (``_refusal``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import grpc
import grpc.aio

from desktop.core import session_texts as said
from desktop.core.backend import AgentBackend, AgentStartError, EmitFn, Prompt
from desktop.core.events import (
    AgentExited,
    AgentReady,
    Decision,
    ErrorEvent,
    Notice,
    TurnEndReason,
)
from desktop.core.remote.channel import (
    CONVERSE_METHOD,
    MAX_MESSAGE_BYTES,
    ChannelConfigError,
    Failure,
    explain,
    open_channel,
)
from desktop.core.remote.config import RemoteRuntimeConfig
from desktop.core.remote.generated import runtime_pb2 as pb
from desktop.core.remote.mapping import TurnMapper
from desktop.core.remote.token import TokenError, authorization_metadata, sign_token
from desktop.core.texts import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

_Call = grpc.aio.StreamStreamCall[pb.ConverseRequest, pb.ConverseEvent]
#: After ``done`` the runtime ends the stream at once; wait this long for it before cancelling.
_DRAIN_SECONDS = 1.0
#: Say "connecting…" when the runtime has not answered within this many seconds.
_SLOW_CONNECT_SECONDS = 0.5
#: The details ``grpc.aio`` puts in place of the runtime's status when a write fails because the
#: runtime had already ended the stream (grpc/grpc#36066; see ``_refusal``).
_LOST_STATUS_DETAILS = "Internal error from Core"


class RemoteRuntimeBackend(AgentBackend):
    """One conversation with a remote Agent Runtime; it runs its own tools."""

    protocol = "remote"
    host_approves_tools = False

    def __init__(
        self,
        config: RemoteRuntimeConfig,
        signing_key: bytes,
        *,
        session_id: str,
        name: str = "remote",
        clock: Callable[[], float] = time.time,
        ready_timeout: float = 15.0,
    ) -> None:
        self.name = name
        self.config = config
        self._key = signing_key
        self._session_id = session_id
        self._clock = clock
        self._ready_timeout = ready_timeout
        self._emit: EmitFn = lambda _event: None
        self._channel: grpc.aio.Channel | None = None
        self._reconnect = False
        self._task: asyncio.Task[None] | None = None
        self._mapper: TurnMapper | None = None
        self._history: str | None = None
        self._stopping = False
        self._closed = False

    @property
    def session_id(self) -> str:
        """The conversation id sent as ``session_id``; resuming with it keeps the runtime state."""
        return self._session_id

    # ------------------------------------------------------------------ AgentBackend

    async def start(self, emit: EmitFn) -> AgentReady:
        """Connect and check that the runtime accepts our token (an empty, half-closed stream).

        Raises:
            AgentStartError: unreadable TLS files, unreachable runtime, or a rejected key.
        """
        self._emit = emit
        try:
            self._channel = open_channel(self.config)
        except ChannelConfigError as exc:
            raise AgentStartError(str(exc)) from exc
        failure = await self._probe(self._channel)
        if failure is not None:
            await self._close_channel()
            raise AgentStartError(failure.message)
        return AgentReady(
            agent=self.name,
            protocol=self.protocol,
            session_id=self._session_id,
            capabilities={
                "address": self.config.address,
                "tls": self.config.tls.value,
                "agent_id": self.config.agent_id,
                "tools": "remote",
            },
        )

    async def send_prompt(self, turn_id: str, prompt: Prompt) -> None:
        """Start the turn in the background; it ends with ``turn_ended`` for ``turn_id``."""
        self._stopping = False
        self._mapper = TurnMapper(turn_id)
        self._task = asyncio.get_running_loop().create_task(self._run_turn(self._mapper, prompt))

    async def send_decision(self, call_id: str, decision: Decision, reason: str | None) -> None:
        """Nothing to send: the runtime decides about its own tools."""
        log.info("%s: ignoring a decision for remote tool call %s", self.name, call_id)

    async def interrupt(self) -> None:
        """Cancel the running call; the runtime sees CANCELLED and the turn ends stopped."""
        if self._task is not None and not self._task.done():
            self._stopping = True
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def send_history(self, text: str) -> None:
        """Prior context for a conversation the runtime has not seen: sent with the next prompt."""
        self._history = text

    async def shutdown(self, timeout: float) -> None:
        """Cancel any running turn, close the channel, report the backend gone."""
        if self._closed:
            return
        self._closed = True
        await self.interrupt()
        await self._close_channel()
        self._emit(AgentExited(expected=True))

    # ------------------------------------------------------------------ connection

    def _metadata(self) -> tuple[tuple[str, str]]:
        token = sign_token(
            self._key, self.config.user_id, self.config.workspace_id, now=self._clock()
        )
        return authorization_metadata(token)

    def _converse(self, channel: grpc.aio.Channel, timeout: float | None = None) -> _Call:
        method: grpc.aio.StreamStreamMultiCallable[pb.ConverseRequest, pb.ConverseEvent]
        method = channel.stream_stream(
            CONVERSE_METHOD,
            request_serializer=pb.ConverseRequest.SerializeToString,
            response_deserializer=pb.ConverseEvent.FromString,
        )
        return method(metadata=self._metadata(), timeout=timeout)

    async def _probe(self, channel: grpc.aio.Channel) -> Failure | None:
        """Open a stream with no request: the runtime checks the token, then ends it OK."""
        try:
            call = self._converse(channel, timeout=self._ready_timeout)
            await _send(call, None)
            while await call.read() is not grpc.aio.EOF:
                pass
        except grpc.aio.AioRpcError as exc:
            return explain(exc.code(), exc.details(), self.config.address)
        except TokenError as exc:
            return Failure("remote_bad_identity", f"Cannot sign a token: {exc}.", False)
        return None

    async def _close_channel(self) -> None:
        channel, self._channel = self._channel, None
        if channel is not None:
            await channel.close(grace=None)

    async def _connected_channel(self, turn_id: str) -> grpc.aio.Channel | Failure:
        """A ready channel: a new one after a failure; waits out a restarting runtime."""
        if self._channel is None or self._reconnect:
            await self._close_channel()
            try:
                self._channel = open_channel(self.config)
            except ChannelConfigError as exc:
                return Failure("remote_config", str(exc), retryable=False)
            self._reconnect = False
        channel = self._channel
        timeout = self.config.connect_timeout
        try:
            await asyncio.wait_for(channel.channel_ready(), min(_SLOW_CONNECT_SECONDS, timeout))
            return channel
        except TimeoutError:
            pass
        text = QT_TRANSLATE_NOOP("Runtime", "Connecting to the runtime at {address}…")
        text = text.with_args(address=self.config.address)
        self._emit(Notice(turn_id=turn_id, message=text.english, i18n=text))
        try:
            await asyncio.wait_for(channel.channel_ready(), max(0.0, timeout - 0.5))
        except TimeoutError:
            self._reconnect = True
            return Failure(
                "remote_unavailable",
                f"Cannot reach the runtime at {self.config.address} "
                f"(no connection within {timeout:g} s).",
                retryable=True,
            )
        return channel

    # ------------------------------------------------------------------ a turn

    def _request(self, prompt: Prompt) -> pb.ConverseRequest:
        message = prompt.text
        if self._history:
            message = f"{self._history}\n\n{message}"
        return pb.ConverseRequest(
            session_id=self._session_id,
            message=message,
            agent_id=self.config.agent_id,
            system_prompt=self.config.system_prompt,
            workspace_id=self.config.workspace_id,
            user_id=self.config.user_id,
        )

    def _fail(self, mapper: TurnMapper, failure: Failure) -> None:
        for event in mapper.close_tools(
            QT_TRANSLATE_NOOP("ToolReason", "The connection to the runtime ended")
        ):
            self._emit(event)
        self._emit(
            ErrorEvent(
                turn_id=mapper.turn_id,
                code=failure.code,
                message=failure.message,
                retryable=failure.retryable,
            )
        )
        self._emit(mapper.end(TurnEndReason.ERROR, failure.message))

    async def _run_turn(self, mapper: TurnMapper, prompt: Prompt) -> None:
        try:
            await self._converse_turn(mapper, prompt)
        except asyncio.CancelledError:
            if not mapper.ended:
                for event in mapper.close_tools(said.stopped_by_user()):
                    self._emit(event)
                self._emit(mapper.end(TurnEndReason.STOPPED))
            if not self._stopping:
                raise
        except grpc.aio.AioRpcError as exc:
            failure = explain(exc.code(), exc.details(), self.config.address)
            self._reconnect = self._reconnect or failure.reconnect
            if failure.reconnect and mapper.received:
                failure = Failure(
                    failure.code,
                    f"The connection to the runtime at {self.config.address} was lost during "
                    f"the turn ({exc.details() or exc.code().name}). The turn was not sent again; "
                    "repeat it if needed.",
                    retryable=True,
                    reconnect=True,
                )
            if not mapper.ended:
                self._fail(mapper, failure)
        except Exception as exc:
            log.exception("%s: the turn failed unexpectedly", self.name)
            if not mapper.ended:
                self._fail(mapper, Failure("remote_failed", f"The turn failed: {exc}", False))

    async def _converse_turn(self, mapper: TurnMapper, prompt: Prompt) -> None:
        request = self._request(prompt)
        if not request.message.strip():
            self._fail(mapper, Failure("remote_empty_message", "The message is empty.", False))
            return
        if request.ByteSize() > MAX_MESSAGE_BYTES:
            size = request.ByteSize() / (1024 * 1024)
            text = f"The message is {size:.1f} MiB; the runtime accepts at most 4 MiB."
            self._fail(mapper, Failure("remote_message_too_large", text, False))
            return
        if prompt.files:
            local = QT_TRANSLATE_NOOP(
                "Runtime",
                "Attached files stay on this computer; the remote runtime gets the text only.",
            )
            self._emit(
                Notice(turn_id=mapper.turn_id, level="warning", message=local.english, i18n=local)
            )
        channel = await self._connected_channel(mapper.turn_id)
        if isinstance(channel, Failure):
            self._fail(mapper, channel)
            return
        call = self._converse(channel)
        try:
            await _send(call, request)
        except grpc.aio.AioRpcError as exc:
            if not _status_lost(exc):
                raise
            failure = await self._refusal(channel)
            self._reconnect = self._reconnect or failure.reconnect
            self._fail(mapper, failure)
            return
        self._history = None
        while (event := await call.read()) is not grpc.aio.EOF:
            assert isinstance(event, pb.ConverseEvent)
            for session_event in mapper.feed(event):
                self._emit(session_event)
            if mapper.ended:
                await self._drain(call)
                return
        self._fail(
            mapper,
            Failure(
                "remote_incomplete",
                "The runtime closed the stream before finishing the turn; the reply may be "
                "incomplete.",
                retryable=True,
            ),
        )

    async def _refusal(self, channel: grpc.aio.Channel) -> Failure:
        """Why the runtime ended a turn's stream before taking its request, asked again.

        Workaround for grpc/grpc#36066: when a write meets a stream the runtime has already ended
        (it answers a rejected token at once, before reading), ``grpc.aio`` replaces the runtime's
        status with INTERNAL "Internal error from Core", and the call keeps that status (its
        ``code()`` and ``read()`` say INTERNAL too): a rejected key would read as a retryable
        internal error. The write failed, so the request never reached the runtime, and an empty
        stream (the start probe: no write, so no race) gets the runtime's answer to the same key
        and identity. Remove this, and ``_status_lost``, once the minimum grpcio has the fix,
        grpc/grpc#43486.
        """
        failure = await self._probe(channel)
        if failure is not None:
            return failure
        return Failure(
            "remote_refused",
            f"The runtime at {self.config.address} closed the stream before taking the message, "
            "so it was not sent. Send it again.",
            retryable=True,
            reconnect=True,
        )

    async def _drain(self, call: _Call) -> None:
        """After ``done``: let the runtime close the stream, ignoring anything further."""
        try:
            async with asyncio.timeout(_DRAIN_SECONDS):
                while await call.read() is not grpc.aio.EOF:
                    log.info("%s: ignoring an event after done", self.name)
        except (TimeoutError, grpc.aio.AioRpcError):
            call.cancel()


def _status_lost(exc: grpc.aio.AioRpcError) -> bool:
    """A write failed because the runtime had already ended the stream, and ``grpc.aio`` put
    INTERNAL in place of the runtime's status (grpc/grpc#36066; remove with ``_refusal``)."""
    return exc.code() == grpc.StatusCode.INTERNAL and exc.details() == _LOST_STATUS_DETAILS


async def _send(call: _Call, request: pb.ConverseRequest | None) -> None:
    """Send ``request`` (if any) and half-close. If the call has already failed (no connection,
    rejected), sending raises grpc-internal errors; the following ``read()`` raises the status.
    A write that meets a stream the runtime has just ended raises INTERNAL instead of the
    runtime's status (``_status_lost``)."""
    try:
        if request is not None:
            await call.write(request)
        await call.done_writing()
    except grpc.aio.AioRpcError:
        raise
    except Exception:
        log.debug("sending on a failed call", exc_info=True)
