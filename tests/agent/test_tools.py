"""Tool calls through approvals: files on disk and what the model is sent back."""

from __future__ import annotations

from pathlib import Path

from tests.agent.harness import running, types
from tests.fakes.fake_llm import (
    FakeLLM,
    ToolCallSpec,
    Turn,
    anthropic_tool_results,
    openai_tool_results,
)


def test_write_approved_once(workspace: Path, llm: FakeLLM) -> None:
    llm.add(
        Turn(
            text="I'll create the file.",
            tool_calls=[
                ToolCallSpec("Write", {"file_path": "hello.rs", "content": "fn main() {}\n"}, "t1")
            ],
        ),
        {"text": "File created."},
    )
    with running(workspace, llm, provider="anthropic") as agent:
        agent.send({"type": "message", "msg_id": "m2", "input": "Create hello.rs"})
        events = agent.until("tool_request")
        assert events[-1] == {
            "type": "tool_request",
            "msg_id": "m2",
            "call_id": "t1",
            "tool": {
                "name": "Write",
                "category": "edit",
                "args": {"file_path": "hello.rs", "content": "fn main() {}\n"},
                "description": "Write to hello.rs",
            },
        }
        assert not (workspace / "hello.rs").exists()  # paused until approved
        agent.send({"type": "tool_approve", "call_id": "t1", "scope": "once"})
        rest = agent.until("stream_end")
    assert types(rest) == ["tool_running", "tool_result", "text_delta", "stream_end"]
    assert rest[1]["status"] == "success"
    assert rest[1]["tool_name"] == "Write"
    assert (workspace / "hello.rs").read_text() == "fn main() {}\n"
    assert anthropic_tool_results(llm.model_requests[1].body) == {
        "t1": ("Created hello.rs (13 bytes).", False)
    }


def test_parallel_calls_decided_in_any_order(workspace: Path, llm: FakeLLM) -> None:
    calls = [
        ToolCallSpec("Write", {"file_path": "a.txt", "content": "A"}, "t1"),
        ToolCallSpec("Write", {"file_path": "b.txt", "content": "B"}, "t2"),
        ToolCallSpec("Bash", {"command": "touch ran.txt"}, "t3"),
    ]
    llm.add(Turn(tool_calls=calls), {"text": "Done."})
    with running(workspace, llm, provider="anthropic") as agent:
        agent.send({"type": "message", "msg_id": "m1", "input": "go"})
        events = [*agent.until("tool_request"), agent.next(), agent.next()]
        requests = [e for e in events if e["type"] == "tool_request"]
        assert [e["call_id"] for e in requests] == ["t1", "t2", "t3"]
        assert [e["tool"]["category"] for e in requests] == ["edit", "edit", "exec"]
        agent.no_more_events()  # nothing runs before its approval
        agent.send({"type": "tool_approve", "call_id": "t2"})
        assert [e["type"] for e in (agent.next(), agent.next())] == ["tool_running", "tool_result"]
        assert (workspace / "b.txt").read_text() == "B"
        agent.send({"type": "tool_deny", "call_id": "t3", "reason": "No shell today"})
        assert agent.next() == {
            "type": "tool_cancelled",
            "msg_id": "m1",
            "call_id": "t3",
            "reason": "No shell today",
        }
        agent.send({"type": "tool_approve", "call_id": "t1"})
        rest = agent.until("stream_end")
    assert types(rest) == ["tool_running", "tool_result", "text_delta", "stream_end"]
    assert (workspace / "a.txt").read_text() == "A"
    assert not (workspace / "ran.txt").exists()
    results = anthropic_tool_results(llm.model_requests[1].body)
    assert list(results) == ["t1", "t2", "t3"]  # call order, not decision order
    assert results["t3"] == ("The user denied this tool call. Reason: No shell today", True)
    assert results["t1"][1] is False and results["t2"][1] is False


def test_scope_always_allow_lists_the_category(workspace: Path, llm: FakeLLM) -> None:
    llm.add(
        Turn(tool_calls=[ToolCallSpec("Write", {"file_path": "one.txt", "content": "1"}, "w1")]),
        Turn(
            tool_calls=[
                ToolCallSpec(
                    "Edit", {"file_path": "one.txt", "old_string": "1", "new_string": "2"}, "e1"
                ),
                ToolCallSpec("Bash", {"command": "echo hi"}, "b1"),
            ]
        ),
        {"text": "ok"},
    )
    with running(workspace, llm) as agent:
        agent.send({"type": "message", "msg_id": "m1", "input": "go"})
        agent.until("tool_request")
        agent.send({"type": "tool_approve", "call_id": "w1", "scope": "always"})
        events = agent.until("tool_request")
        # The Edit (same category) runs without asking; the Bash call still asks.
        requested = [e["call_id"] for e in events if e["type"] == "tool_request"]
        assert requested == ["b1"]
        agent.send({"type": "tool_deny", "call_id": "b1", "reason": "no"})
        events += agent.until("stream_end")
    running_ids = [e["call_id"] for e in events if e["type"] == "tool_running"]
    assert "e1" in running_ids and "b1" not in running_ids
    assert (workspace / "one.txt").read_text() == "2"
    results = openai_tool_results(llm.model_requests[2].body)
    assert results["b1"][0] == "The user denied this tool call. Reason: no"


def test_modes_decide_what_needs_approval(workspace: Path, llm: FakeLLM) -> None:
    (workspace / "r.txt").write_text("x\n")
    both = [
        ToolCallSpec("Read", {"file_path": "r.txt"}, "r1"),
        ToolCallSpec("Bash", {"command": "echo hi"}, "b1"),
    ]
    llm.add(
        Turn(tool_calls=both),
        {"text": "a"},
        Turn(tool_calls=[ToolCallSpec("Bash", {"command": "echo yo"}, "b2")]),
        {"text": "b"},
    )
    with running(workspace, llm) as agent:
        agent.send({"type": "set_mode", "mode": "auto_edit"})
        assert agent.next()["type"] == "config_changed"
        agent.send({"type": "message", "msg_id": "m1", "input": "go"})
        events = agent.until("tool_request")
        assert [e["call_id"] for e in events if e["type"] == "tool_request"] == ["b1"]
        agent.send({"type": "tool_approve", "call_id": "b1"})
        events += agent.until("stream_end")
        results = [e for e in events if e["type"] == "tool_result"]
        assert {e["call_id"]: e["status"] for e in results} == {"r1": "success", "b1": "success"}
        agent.send({"type": "set_mode", "mode": "yolo"})
        assert agent.next()["capabilities"]["current_mode"] == "yolo"
        events = agent.message("again", "m2")
    assert "tool_request" not in types(events)
    assert [e["output"] for e in events if e["type"] == "tool_result"] == ["yo\n[exit code 0]"]


def test_edit_returns_a_unified_diff(workspace: Path, llm: FakeLLM) -> None:
    (workspace / "src").mkdir()
    target = workspace / "src" / "main.rs"
    target.write_text("fn main() {\n    old line\n}\n")
    edit = {"file_path": "src/main.rs", "old_string": "old line", "new_string": "new line"}
    llm.add(Turn(tool_calls=[ToolCallSpec("Edit", edit, "e1")]), {"text": "ok"})
    with running(workspace, llm, args=("--auto-approve",)) as agent:
        events = agent.message("edit it")
    [result] = [e for e in events if e["type"] == "tool_result"]
    assert result["output_type"] == "diff"
    assert result["metadata"] == {"file_path": str(target)}
    assert result["output"] == (
        "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1,3 +1,3 @@\n fn main() {\n"
        "-    old line\n+    new line\n }"
    )
    assert target.read_text() == "fn main() {\n    new line\n}\n"


def test_paths_outside_the_workspace_are_tool_errors(
    workspace: Path, tmp_path: Path, llm: FakeLLM
) -> None:
    outside = tmp_path / "outside.txt"
    call = ToolCallSpec("Write", {"file_path": str(outside), "content": "x"}, "w1")
    escape = ToolCallSpec("Read", {"file_path": "../outside.txt"}, "r1")
    llm.add(Turn(tool_calls=[call, escape]), {"text": "ok"})
    with running(workspace, llm) as agent:
        events = agent.message("write outside")
    # Refused before anyone is asked: no tool_request, an error result.
    assert "tool_request" not in types(events)
    errors = {e["call_id"]: e for e in events if e["type"] == "tool_result"}
    assert errors["w1"]["status"] == "error"
    assert "outside the workspace" in errors["w1"]["output"]
    assert errors["r1"]["status"] == "error"
    assert not outside.exists()
    assert "outside the workspace" in openai_tool_results(llm.model_requests[1].body)["w1"][0]


def test_outside_paths_allowed_by_flag(workspace: Path, tmp_path: Path, llm: FakeLLM) -> None:
    outside = tmp_path / "outside.txt"
    llm.add(
        Turn(tool_calls=[ToolCallSpec("Write", {"file_path": str(outside), "content": "x"}, "w1")]),
        {"text": "ok"},
    )
    with running(workspace, llm, args=("--allow-outside-workspace", "--auto-approve")) as agent:
        events = agent.message("write outside")
    assert [e["status"] for e in events if e["type"] == "tool_result"] == ["success"]
    assert outside.read_text() == "x"


def test_unknown_tool_and_bad_arguments_go_back_to_the_model(workspace: Path, llm: FakeLLM) -> None:
    calls = [ToolCallSpec("Teleport", {}, "x1"), ToolCallSpec("Read", {"path": "a"}, "x2")]
    llm.add(Turn(tool_calls=calls), {"text": "sorry"})
    with running(workspace, llm) as agent:
        events = agent.message("go")
    assert "tool_request" not in types(events)
    results = openai_tool_results(llm.model_requests[1].body)
    assert results["x1"][0].startswith("There is no tool named 'Teleport'")
    assert results["x2"][0].startswith("Invalid arguments for Read: file_path: Field required")


def test_large_output_is_truncated_with_a_marker(workspace: Path, llm: FakeLLM) -> None:
    (workspace / "big.txt").write_text("y" * 100_000)
    calls = [
        ToolCallSpec("Bash", {"command": "cat big.txt"}, "b1"),
        ToolCallSpec("Grep", {"pattern": "y+"}, "g1"),
    ]
    llm.add(Turn(tool_calls=calls), {"text": "ok"})
    with running(workspace, llm, args=("--auto-approve",)) as agent:
        events = agent.message("cat it")
    outputs = {e["call_id"]: e["output"] for e in events if e["type"] == "tool_result"}
    assert outputs["b1"].endswith(
        "\n… [output truncated: 29,744 of 100,000 bytes shown]\n[exit code 0]"
    )
    assert len(outputs["b1"]) <= 30_000
    assert "[output truncated: 30,000 of 100,010 characters shown]" in outputs["g1"]
    sent = openai_tool_results(llm.model_requests[1].body)
    assert sent["b1"][0] == outputs["b1"]


def test_read_glob_grep(workspace: Path, llm: FakeLLM) -> None:
    (workspace / "pkg").mkdir()
    (workspace / "pkg" / "a.py").write_text("import os\nprint('needle')\n")
    (workspace / "notes.md").write_text("no match here\n")
    calls = [
        ToolCallSpec("Read", {"file_path": "pkg/a.py"}, "r1"),
        ToolCallSpec("Glob", {"pattern": "**/*.py"}, "g1"),
        ToolCallSpec("Grep", {"pattern": "needle"}, "s1"),
    ]
    llm.add(Turn(tool_calls=calls), {"text": "ok"})
    with running(workspace, llm, args=("--auto-approve",)) as agent:
        events = agent.message("look")
    outputs = {e["call_id"]: e["output"] for e in events if e["type"] == "tool_result"}
    assert outputs == {
        "r1": "     1\timport os\n     2\tprint('needle')",
        "g1": "pkg/a.py",
        "s1": "pkg/a.py:2:print('needle')",
    }
