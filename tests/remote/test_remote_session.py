"""The remote backend driven through a real ``Session`` against the test runtime."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import grpc
import pytest

from desktop.core.backend import AgentStartError, Prompt
from desktop.core.events import (
    ErrorEvent,
    Notice,
    SessionEvent,
    SessionState,
    TextDelta,
    ThinkingDelta,
    ToolCategory,
    ToolFinished,
    ToolRequested,
    ToolStarted,
    TurnEnded,
    TurnEndReason,
    Usage,
)
from desktop.core.launch.factory import make_remote_factory
from desktop.core.remote.backend import RemoteRuntimeBackend
from desktop.core.session import Session
from tests.fakes.runtime_server import RuntimeServer
from tests.remote.support import KEY, remote_config
from tests.waiting import until


class Recorder:
    """Collects session events and answers questions about one turn."""

    def __init__(self) -> None:
        self.events: list[SessionEvent] = []

    def __call__(self, event: SessionEvent) -> None:
        self.events.append(event)

    def text(self, turn_id: str) -> str:
        return "".join(
            e.text for e in self.events if isinstance(e, TextDelta) and e.turn_id == turn_id
        )

    def ended(self, turn_id: str) -> TurnEnded:
        (end,) = [e for e in self.events if isinstance(e, TurnEnded) and e.turn_id == turn_id]
        return end

    def of(self, kind: type[Any], turn_id: str | None = None) -> list[Any]:
        return [
            e
            for e in self.events
            if isinstance(e, kind) and (turn_id is None or getattr(e, "turn_id", None) == turn_id)
        ]


def new_session(
    server: RuntimeServer, resume_id: str | None = None, **config: Any
) -> tuple[Session, Recorder]:
    factory = make_remote_factory(remote_config(server.address, **config), KEY, name="cluster")
    session = Session(factory, workspace=Path.cwd(), stop_grace=2.0, resume_id=resume_id)
    recorder = Recorder()
    session.subscribe(recorder)
    return session, recorder


async def run(session: Session, *prompts: str) -> list[str]:
    turns = [session.submit(Prompt(p)) for p in prompts]
    await asyncio.wait_for(session.wait_idle(), 20)
    return turns


@pytest.mark.asyncio
async def test_multi_turn_conversation_keeps_the_session_id(runtime: RuntimeServer) -> None:
    session, rec = new_session(runtime)
    ready = await session.start()
    assert ready.protocol == "remote" and ready.session_id
    first, second = await run(session, "hello", "again")
    sid = ready.session_id
    assert rec.text(first) == f"echo: hello [turn 1 of {sid}] "
    assert rec.text(second) == f"echo: again [turn 2 of {sid}] "
    assert rec.ended(first).reason == TurnEndReason.COMPLETED
    sent = [request for _, request in runtime.record.requests]
    assert [r.session_id for r in sent] == [sid, sid]
    assert {(r.user_id, r.workspace_id, r.agent_id) for r in sent} == {("user-1", "ws-1", "wally")}
    assert runtime.record.outcomes == ["ok", "ok", "ok"]  # the start probe + two turns
    await session.close()


@pytest.mark.asyncio
async def test_session_resumes_the_runtime_conversation_after_a_restart(
    runtime: RuntimeServer,
) -> None:
    session, _ = new_session(runtime)
    await session.start()
    await run(session, "one")
    saved = session.agent_session_id
    assert saved is not None and session.backend is not None
    assert session.backend.session_id == saved
    await session.close()

    again, rec = new_session(runtime, resume_id=saved)  # Agent Desk restarted
    (turn,) = await run(again, "two")
    assert rec.text(turn) == f"echo: two [turn 2 of {saved}] "
    await again.close()


@pytest.mark.asyncio
async def test_tools_are_remote_cards_and_usage_is_summed(runtime: RuntimeServer) -> None:
    session, rec = new_session(runtime)
    (turn,) = await run(session, "!tools")
    (started,) = rec.of(ToolStarted, turn)
    (finished,) = rec.of(ToolFinished, turn)
    assert (started.name, started.category, started.args) == (
        "web_search",
        ToolCategory.REMOTE,
        {"query": "x"},
    )
    assert (finished.call_id, finished.name, finished.status) == ("c1", "web_search", "success")
    assert rec.of(ToolRequested) == []  # nothing waits for approval
    assert rec.text(turn) == "found nothing"  # done.turns repeats the chunks: not shown twice
    # Two usage events (100+10, 200+20; cached = prompt // 2) before one done.
    assert rec.ended(turn).usage == Usage(input_tokens=300, output_tokens=30, cache_read_tokens=150)
    assert session.total_usage == Usage(input_tokens=300, output_tokens=30, cache_read_tokens=150)
    await session.close()


@pytest.mark.asyncio
async def test_thinking_and_a_non_streaming_reply(runtime: RuntimeServer) -> None:
    session, rec = new_session(runtime)
    think, silent = await run(session, "!think", "!silent")
    assert [e.text for e in rec.of(ThinkingDelta, think)] == ["hmm ", "ok"]
    assert rec.text(think) == "thought"
    assert rec.ended(think).usage is None  # no usage event: no usage
    assert rec.text(silent) == "quiet answer"
    await session.close()


@pytest.mark.asyncio
async def test_error_turn_then_the_conversation_goes_on(runtime: RuntimeServer) -> None:
    session, rec = new_session(runtime)
    bad, good = await run(session, "!error context deadline exceeded", "fine")
    (error,) = rec.of(ErrorEvent, bad)
    assert error.code == "runtime_internal"
    assert error.message == "The runtime failed the turn: runner: context deadline exceeded"
    assert rec.text(bad) == "partial "
    end = rec.ended(bad)
    assert (end.reason, end.message) == (TurnEndReason.ERROR, error.message)
    assert rec.ended(good).reason == TurnEndReason.COMPLETED
    assert session.state == SessionState.IDLE
    await session.close()


@pytest.mark.asyncio
async def test_stream_ending_without_done_is_an_incomplete_turn(runtime: RuntimeServer) -> None:
    session, rec = new_session(runtime)
    cut, after = await run(session, "!eof", "next")
    assert rec.text(cut) == "cut short"
    assert rec.ended(cut).reason == TurnEndReason.ERROR
    assert [e.code for e in rec.of(ErrorEvent, cut)] == ["remote_incomplete"]
    assert rec.ended(after).reason == TurnEndReason.COMPLETED
    await session.close()


@pytest.mark.asyncio
async def test_blank_prompt_is_never_sent(runtime: RuntimeServer) -> None:
    session, rec = new_session(runtime)
    (turn,) = await run(session, "   ")
    assert rec.ended(turn).reason == TurnEndReason.ERROR
    assert runtime.record.requests == []
    await session.close()


@pytest.mark.asyncio
async def test_stop_mid_stream_cancels_the_call(runtime: RuntimeServer) -> None:
    session, rec = new_session(runtime)
    await session.start()
    turn = session.submit(Prompt("!slow"))
    await until(lambda: len(rec.of(TextDelta, turn)) >= 3, 4, "three chunks")
    await session.stop()
    assert rec.ended(turn).reason == TurnEndReason.STOPPED
    await until(lambda: "cancelled" in runtime.record.outcomes, 2, "the call cancelled")
    assert runtime.record.outcomes[-1] == "cancelled"
    chunks = len(rec.of(TextDelta, turn))
    assert chunks < 40
    (after,) = await run(session, "still here")  # a whole later turn: the stopped one is over
    assert len(rec.of(TextDelta, turn)) == chunks  # nothing after the stop
    assert rec.ended(after).reason == TurnEndReason.COMPLETED
    await session.close()


@pytest.mark.asyncio
async def test_oversized_event_is_reported_not_crashed(runtime: RuntimeServer) -> None:
    session, rec = new_session(runtime)
    big, small = await run(session, f"!big {5 * 1024 * 1024}", "small")
    assert rec.ended(big).reason == TurnEndReason.ERROR
    (error,) = rec.of(ErrorEvent, big)
    assert error.code == "remote_message_too_large"
    assert "4 MiB" in error.message
    assert rec.ended(small).reason == TurnEndReason.COMPLETED
    await session.close()


@pytest.mark.asyncio
async def test_start_fails_clearly_when_nothing_listens(runtime: RuntimeServer) -> None:
    address = runtime.address
    await runtime.stop()
    session, _ = new_session(runtime)
    with pytest.raises(AgentStartError, match=f"Cannot reach the runtime at {address}"):
        await session.start()


@pytest.mark.asyncio
async def test_reconnects_after_the_runtime_restarts_between_turns(runtime: RuntimeServer) -> None:
    session, rec = new_session(runtime)
    (first,) = await run(session, "before")
    await runtime.stop()
    # Hold the port while the runtime is down: a server of another test process (pytest-xdist)
    # could otherwise be given it, and the turn would go there instead of waiting. Bound, never
    # listening: a connection is refused as by a stopped runtime (a listening holder accepted
    # it and never answered, so under load the turn could wait on it instead of reconnecting).
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    holder.bind(("127.0.0.1", runtime.port))
    # Between turns means the client has seen the runtime go. A turn sent before its transport
    # has read the runtime's GOAWAY and close (under load that lags the stop) goes out on the
    # closing connection and fails, retryable, and is not sent again: gRPC cannot always tell
    # whether the runtime got it ("Stream removed (sendmsg: Broken pipe)"). That is a turn lost
    # in flight, as in test_dropped_connection_fails_the_turn_without_replay.
    backend = session.backend
    assert isinstance(backend, RemoteRuntimeBackend) and backend._channel is not None
    channel = backend._channel
    await until(
        lambda: channel.get_state() != grpc.ChannelConnectivity.READY, 10, "the connection closed"
    )
    turn = session.submit(Prompt("during"))
    await until(  # the turn waits for the runtime and says so…
        lambda: [e for e in rec.of(Notice, turn) if "Connecting" in e.message], 15, "the notice"
    )
    assert [e for e in rec.of(Notice, turn) if "Connecting" in e.message]
    assert not [e for e in rec.events if isinstance(e, TurnEnded) and e.turn_id == turn]
    holder.close()
    await runtime.start()  # …which comes back on the same port
    await asyncio.wait_for(session.wait_idle(), 10)
    assert rec.ended(turn).reason == TurnEndReason.COMPLETED
    assert rec.text(turn).startswith("echo: during [turn 2")
    assert rec.ended(first).reason == TurnEndReason.COMPLETED
    await session.close()


@pytest.mark.asyncio
async def test_dropped_connection_fails_the_turn_without_replay(runtime: RuntimeServer) -> None:
    session, rec = new_session(runtime, connect_timeout=1.0)
    (dropped,) = await run(session, "!drop")
    assert rec.text(dropped) == "about to drop"
    end = rec.ended(dropped)
    assert end.reason == TurnEndReason.ERROR
    (error,) = rec.of(ErrorEvent, dropped)
    assert error.retryable and "Traceback" not in error.message
    assert "was lost during the turn" in error.message
    (unreachable,) = await run(session, "while down")
    assert rec.ended(unreachable).reason == TurnEndReason.ERROR
    assert "Cannot reach the runtime" in (rec.ended(unreachable).message or "")
    await runtime.start()
    (back,) = await run(session, "back")
    assert rec.ended(back).reason == TurnEndReason.COMPLETED
    sent = [request.message for _, request in runtime.record.requests]
    assert sent == ["!drop", "back"]  # nothing replayed
    await session.close()
