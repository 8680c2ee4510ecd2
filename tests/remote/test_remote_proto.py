"""The committed proto code: in sync with runtime.proto, and byte-compatible with the runtime."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.core.remote import codegen
from desktop.core.remote.channel import CONVERSE_METHOD
from desktop.core.remote.generated import runtime_pb2 as pb


def test_regenerating_gives_the_committed_files(tmp_path: Path) -> None:
    written = codegen.generate(tmp_path)
    assert [p.name for p in written] == list(codegen.OUTPUTS)
    for path in written:
        committed = codegen.GENERATED / path.name
        assert path.read_bytes() == committed.read_bytes(), f"{path.name} is out of date"


def test_package_service_and_method_names() -> None:
    service = pb.DESCRIPTOR.services_by_name["AgentRuntime"]
    assert service.full_name == "crawbl.agentruntime.v1.AgentRuntime"
    method = service.methods_by_name["Converse"]
    assert method.client_streaming and method.server_streaming
    assert f"/{service.full_name}/{method.name}" == CONVERSE_METHOD


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            pb.ConverseRequest(
                session_id="conv-1",
                message="hi",
                agent_id="wally",
                workspace_id="ws-1",
                user_id="user-1",
            ),
            "0a06636f6e762d31120268691a0577616c6c792a0477732d313206757365722d31",
        ),
        (
            pb.ConverseEvent(chunk=pb.ChunkEvent(agent_id="wally", text="Based on ")),
            "0a120a0577616c6c7912094261736564206f6e20",
        ),
        (
            pb.ConverseEvent(
                done=pb.DoneEvent(model="gpt-4o", turns=[pb.Turn(agent_id="wally", text="ok")])
            ),
            "2a150a066770742d346f120b0a0577616c6c7912026f6b",
        ),
        (
            pb.ConverseEvent(
                usage=pb.UsageEvent(
                    agent_id="wally",
                    model="gpt-4o",
                    prompt_tokens=1250,
                    completion_tokens=340,
                    total_tokens=1590,
                    tool_use_prompt_tokens=200,
                    cached_tokens=800,
                    call_sequence=0,
                )
            ),
            "321e0a0577616c6c7912066770742d346f18e20920d40228b60c30c80140a006",
        ),
        (
            pb.ConverseEvent(
                done=pb.DoneEvent(model="ERROR: InvalidArgument: converse: message is required")
            ),
            "2a370a354552524f523a20496e76616c6964417267756d656e743a20636f6e76657273653a206d657373616765206973207265717569726564",
        ),
        (pb.ConverseEvent(), ""),
    ],
)
def test_serialised_bytes_match_the_runtime(
    message: pb.ConverseRequest | pb.ConverseEvent, expected: str
) -> None:
    assert message.SerializeToString().hex() == expected
    assert type(message).FromString(bytes.fromhex(expected)) == message


def test_tool_result_has_error_message_field_4() -> None:
    fields = {f.name: f.number for f in pb.ToolResultEvent.DESCRIPTOR.fields}
    assert fields == {"call_id": 1, "result_json": 2, "error": 3, "error_message": 4}
