"""Mapping rules, configuration checks and channel options (no network)."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from pydantic import ValidationError

from desktop.core.events import (
    ErrorEvent,
    TextDelta,
    ToolCancelled,
    ToolFinished,
    ToolStarted,
    TurnEnded,
    TurnEndReason,
    Usage,
)
from desktop.core.remote.channel import MAX_MESSAGE_BYTES, channel_options, explain
from desktop.core.remote.config import RemoteRuntimeConfig, TlsMode
from desktop.core.remote.generated import runtime_pb2 as pb
from desktop.core.remote.mapping import TurnMapper, parse_args, parse_error_model


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("gpt-4o", None),
        ("", None),
        ("ERROR: Internal: runner: boom", ("internal", "runner: boom")),
        (
            "ERROR: InvalidArgument: converse: message is required",
            ("invalid_argument", "converse: message is required"),
        ),
        (
            "ERROR: INTERNAL: runner: context deadline exceeded",
            ("internal", "runner: context deadline exceeded"),
        ),
        ("ERROR: INVALID_ARGUMENT: x", ("invalid_argument", "x")),
        ("ERROR: something odd happened", ("unknown", "something odd happened")),
        ("ERROR:", ("unknown", "ERROR:")),
    ],
)
def test_error_model_is_parsed_leniently(model: str, expected: tuple[str, str] | None) -> None:
    assert parse_error_model(model) == expected


def test_empty_done_is_a_normal_end_and_empty_events_are_ignored() -> None:
    mapper = TurnMapper("t")
    assert mapper.feed(pb.ConverseEvent()) == []
    (end,) = mapper.feed(pb.ConverseEvent(done=pb.DoneEvent()))
    assert end == TurnEnded(turn_id="t", reason=TurnEndReason.COMPLETED)
    assert mapper.feed(pb.ConverseEvent(chunk=pb.ChunkEvent(text="late"))) == []


def test_tool_result_error_message_is_honoured_and_open_calls_cancelled() -> None:
    mapper = TurnMapper("t")
    (started,) = mapper.feed(pb.ConverseEvent(tool_call=pb.ToolCallEvent(tool="a", call_id="1")))
    assert isinstance(started, ToolStarted) and started.args == {}
    mapper.feed(
        pb.ConverseEvent(tool_call=pb.ToolCallEvent(tool="b", call_id="2", args_json="[1]"))
    )
    (finished,) = mapper.feed(
        pb.ConverseEvent(tool_result=pb.ToolResultEvent(call_id="1", error_message="denied"))
    )
    assert isinstance(finished, ToolFinished)
    assert (finished.name, finished.status, finished.output) == ("a", "error", "denied")
    cancelled, end = mapper.feed(pb.ConverseEvent(done=pb.DoneEvent(model="m")))
    assert isinstance(cancelled, ToolCancelled) and cancelled.call_id == "2"
    assert isinstance(end, TurnEnded)


def test_error_done_after_usage_keeps_the_usage() -> None:
    mapper = TurnMapper("t")
    mapper.feed(
        pb.ConverseEvent(
            usage=pb.UsageEvent(
                prompt_tokens=10,
                completion_tokens=2,
                thoughts_tokens=3,
                tool_use_prompt_tokens=4,
                cached_tokens=5,
            )
        )
    )
    error, end = mapper.feed(pb.ConverseEvent(done=pb.DoneEvent(model="ERROR: Unavailable: x")))
    assert isinstance(error, ErrorEvent) and error.retryable and error.code == "runtime_unavailable"
    assert isinstance(end, TurnEnded) and end.reason == TurnEndReason.ERROR
    assert end.usage == Usage(input_tokens=14, output_tokens=5, cache_read_tokens=5)


def test_final_turns_are_shown_only_without_chunks() -> None:
    done = pb.ConverseEvent(
        done=pb.DoneEvent(turns=[pb.Turn(text="a"), pb.Turn(text=" "), pb.Turn(text="b")])
    )
    text, _ = TurnMapper("t").feed(done)
    assert text == TextDelta(turn_id="t", text="a\n\nb")


def test_args_json_variants() -> None:
    assert parse_args('{"q": 1}') == {"q": 1}
    assert parse_args("") == {}
    assert parse_args("not json") == {"raw": "not json"}
    assert parse_args("3") == {"value": 3}


def test_config_checks() -> None:
    base = {"user_id": "u", "workspace_id": "w"}
    assert RemoteRuntimeConfig(address="runtime.example", **base).address == "runtime.example:42618"
    for bad in (
        {"address": "host:99999"},
        {"address": "h:1", "keepalive_seconds": 10},
        {"address": "h:1", "tls": TlsMode.CUSTOM_CA},
        {"address": "h:1", "ca_file": Path("ca.pem")},
        {"address": "h:1", "client_cert_file": Path("c"), "client_key_file": Path("k")},
        {"address": "h:1", "user_id": "a:b"},
        {"address": "h:1", "workspace_id": " "},
        {"address": "h:1", "signing_key": "no keys here"},
    ):
        with pytest.raises(ValidationError):
            RemoteRuntimeConfig(**{**base, **bad})


def test_channel_keeps_to_the_runtime_limits() -> None:
    config = RemoteRuntimeConfig(address="h:1", user_id="u", workspace_id="w")
    options = dict(channel_options(config))
    assert options["grpc.keepalive_time_ms"] == 30_000
    assert options["grpc.max_receive_message_length"] == MAX_MESSAGE_BYTES == 4 * 1024 * 1024
    assert options["grpc.max_send_message_length"] == MAX_MESSAGE_BYTES
    slow = config.model_copy(update={"keepalive_seconds": 1.0})  # bypassing validation
    assert dict(channel_options(slow))["grpc.keepalive_time_ms"] == 15_000


def test_failures_are_sentences() -> None:
    rejected = explain(grpc.StatusCode.UNAUTHENTICATED, "invalid bearer token", "h:1")
    assert "rejected the signing key" in rejected.message and not rejected.retryable
    lost = explain(grpc.StatusCode.UNAVAILABLE, "", "h:1")
    assert lost.retryable and lost.reconnect and "no details" in lost.message
    assert explain(grpc.StatusCode.INTERNAL, "x", "h:1").reconnect
