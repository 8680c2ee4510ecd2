"""Host-side conformance with aionrs, cases C1–C40 of shared/reference/aionrs-real-behaviour.md.

Every test drives a real ``Session`` against the fake agent in a real subprocess, with the
``aionrs-0.2`` profile (every quirk of the real agent) and, where the two differ, the ``spec``
profile (0.1.0 as written).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import psutil
import pytest

from desktop.core.backend import AgentStartError, Prompt
from desktop.core.events import (
    AgentExited,
    AgentReady,
    ApprovalMode,
    Decision,
    DecisionSource,
    ErrorEvent,
    Notice,
    TextDelta,
    ToolCancelled,
    ToolDecided,
    ToolFinished,
    ToolRequested,
    ToolStarted,
    TurnEnded,
    TurnEndReason,
    Usage,
)
from tests.core.support import make_session
from tests.waiting import wait_until

REAL, SPEC = "aionrs-0.2", "spec"
BOTH = pytest.mark.parametrize("profile", [REAL, SPEC])


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def _named(processes: list[psutil.Process], name: str) -> int:
    """How many of ``processes`` run a program called ``name`` (gone ones do not count)."""
    count = 0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            count += process.name() == name
    return count


def write_step(name: str, content: str = "hello\n") -> dict[str, object]:
    return {"tool": {"name": "Write", "args": {"file_path": name, "content": content}}}


# ---------------------------------------------------------------- startup (C1–C7)


@pytest.mark.asyncio
@BOTH
async def test_c1_c2_ready_is_reported_without_requiring_a_version(
    workspace: Path, profile: str
) -> None:
    session, _rec = make_session(workspace, profile, {})
    ready = await session.start()
    assert isinstance(ready, AgentReady)
    assert ready.version == ("0.2.10" if profile == REAL else "0.1.0")
    assert ready.session_id
    assert ready.capabilities["tool_approval"] is True
    if profile == REAL:
        assert ready.capabilities["modes"] == ["default", "auto_edit", "yolo"]
    assert session.state == "ready"
    await session.close()


@pytest.mark.asyncio
async def test_c3_exit_before_ready_is_reported_at_once_with_stderr(workspace: Path) -> None:
    session, rec = make_session(
        workspace, REAL, {"require_env": "FAKE_KEY_THAT_IS_UNSET"}, ready_timeout=30
    )
    started = time.monotonic()
    with pytest.raises(AgentStartError) as info:
        await session.start()
    assert time.monotonic() - started < 10, "must not wait for the ready timeout"
    assert info.value.exit_code == 1
    assert "No API key found" in info.value.stderr_tail
    errors = rec.of(ErrorEvent)
    assert errors[-1].code == "agent_start_failed"
    assert "No API key found" in errors[-1].message
    assert session.state == "exited"


@pytest.mark.asyncio
async def test_c4_failed_resume_reports_the_agents_error(workspace: Path) -> None:
    session, _ = make_session(workspace, REAL, {})
    session.agent_session_id = "nope"
    with pytest.raises(AgentStartError) as info:
        await session.start()
    assert "Session 'nope' not found" in str(info.value)


@pytest.mark.asyncio
async def test_c5_host_never_passes_workspace_and_sets_cwd(workspace: Path) -> None:
    # The real profile exits 2 on any unknown flag such as --workspace.
    session, _rec = make_session(
        workspace,
        REAL,
        {"turns": [[{"tool": {"name": "Bash", "args": {"command": "pwd > where.txt"}}}]]},
        mode=ApprovalMode.YOLO,
    )
    await session.start()
    session.submit(Prompt("where am I"))
    await session.wait_idle()
    assert (workspace / "where.txt").read_text().strip() == str(workspace.resolve())
    await session.close()


@pytest.mark.asyncio
async def test_c6_ready_without_session_id(workspace: Path) -> None:
    session, _ = make_session(workspace, REAL, {"no_session": True})
    ready = await session.start()
    assert ready.session_id is None
    await session.close()


@pytest.mark.asyncio
async def test_c7_resume_keeps_session_and_per_turn_usage(workspace: Path) -> None:
    session, rec = make_session(workspace, REAL, {"turns": [[{"text": "one"}], [{"text": "two"}]]})
    first = await session.start()
    session.submit(Prompt("a"))
    await session.wait_idle()
    await session.restart()  # resumes with --resume <id>
    assert session.agent_session_id == first.session_id
    assert rec.of(AgentReady)[-1].session_id == first.session_id
    session.submit(Prompt("b"))
    await session.wait_idle()
    usages = [e.usage for e in rec.of(TurnEnded)]
    # aionrs reports cumulative totals (20/10 after the resumed turn); the host shows per turn.
    assert usages == [Usage(input_tokens=10, output_tokens=5)] * 2
    assert session.total_usage == Usage(input_tokens=20, output_tokens=10)
    await session.close()


# ---------------------------------------------------------------- turns (C8–C13)


@pytest.mark.asyncio
@BOTH
async def test_c8_c9_turn_streams_text_with_content_and_input(
    workspace: Path, profile: str
) -> None:
    session, rec = make_session(
        workspace, profile, {"turns": [[{"thinking": "hmm"}, {"text": "Hello world", "chunks": 4}]]}
    )
    await session.start()
    turn = session.submit(Prompt("Hello"))
    await session.wait_idle()
    assert "".join(e.text for e in rec.of(TextDelta)) == "Hello world"
    assert all(e.turn_id == turn for e in rec.of(TextDelta))
    assert "thinking_delta" in rec.types()
    ended = rec.of(TurnEnded)
    assert [(e.turn_id, e.reason) for e in ended] == [(turn, TurnEndReason.COMPLETED)]
    assert ended[0].usage == Usage(input_tokens=10, output_tokens=5)
    assert session.state == "idle"
    await session.close()


@pytest.mark.asyncio
@BOTH
async def test_c11_attached_files_are_accepted(workspace: Path, profile: str) -> None:
    session, rec = make_session(workspace, profile, {})
    await session.start()
    session.submit(Prompt("look", files=("/a.png",)))
    await session.wait_idle()
    assert rec.of(TurnEnded)[0].reason == TurnEndReason.COMPLETED
    await session.close()


@pytest.mark.asyncio
async def test_c12_prompts_sent_mid_turn_are_queued_by_the_host(workspace: Path) -> None:
    session, rec = make_session(
        workspace,
        REAL,
        {"turns": [[{"sleep": 0.3}, {"text": "first"}], [{"text": "second"}], [{"text": "third"}]]},
    )
    await session.start()
    turns = [session.submit(Prompt(p)) for p in ("1", "2", "3")]
    assert len(session.queued) == 3 or session.active_turn is not None
    await session.wait_idle()
    ended = rec.of(TurnEnded)
    assert [e.turn_id for e in ended] == turns
    assert all(e.reason == TurnEndReason.COMPLETED for e in ended)
    assert "".join(e.text for e in rec.of(TextDelta)) == "firstsecondthird"
    await session.close()


@pytest.mark.asyncio
async def test_c13_slash_command_without_stream_start_ends_the_turn(workspace: Path) -> None:
    session, rec = make_session(workspace, REAL, {})
    await session.start()
    session.submit(Prompt("/clear"))
    await session.wait_idle()
    assert rec.of(TurnEnded)[0].reason == TurnEndReason.COMPLETED
    assert any(n.message == "Conversation cleared" for n in rec.of(Notice))
    await session.close()


# ---------------------------------------------------------------- tools (C14–C25)


@pytest.mark.asyncio
@BOTH
async def test_c14_c15_request_shows_a_host_diff_then_runs_after_approval(
    workspace: Path, profile: str
) -> None:
    (workspace / "a.txt").write_text("old line\n")
    session, rec = make_session(
        workspace, profile, {"turns": [[write_step("a.txt", "new line\n"), {"text": "done"}]]}
    )
    await session.start()
    session.submit(Prompt("edit"))
    request = await rec.wait_for(ToolRequested, lambda e: e.pending)
    assert request.name == "Write"
    assert request.category == "edit"
    assert request.preview is not None
    assert request.preview.kind == "diff"
    assert "-old line" in request.preview.text
    assert "+new line" in request.preview.text
    assert (workspace / "a.txt").read_text() == "old line\n", "nothing runs before approval"
    assert session.state == "awaiting_approval"
    assert session.decide(request.call_id, Decision.ONCE) == "accepted"
    await session.wait_idle()
    assert (workspace / "a.txt").read_text() == "new line\n"
    decided = rec.of(ToolDecided)[0]
    assert (decided.decision, decided.source) == (Decision.ONCE, DecisionSource.USER)
    assert rec.of(ToolFinished)[0].status == "success"
    assert rec.of(TurnEnded)[0].reason == TurnEndReason.COMPLETED
    await session.close()


@pytest.mark.asyncio
@BOTH
async def test_c16_deny_sends_the_reason_and_nothing_runs(workspace: Path, profile: str) -> None:
    session, rec = make_session(workspace, profile, {"turns": [[write_step("b.txt")]]})
    await session.start()
    session.submit(Prompt("write"))
    request = await rec.wait_for(ToolRequested, lambda e: e.pending)
    session.decide(request.call_id, Decision.DENY, reason="no")
    await session.wait_idle()
    assert not (workspace / "b.txt").exists()
    assert rec.of(ToolCancelled)[0].reason == "no"
    assert session.decide(request.call_id, Decision.ONCE) == "already_resolved"
    await session.close()


@pytest.mark.asyncio
@BOTH
async def test_c17_several_calls_are_answered_one_by_one(workspace: Path, profile: str) -> None:
    session, rec = make_session(
        workspace,
        profile,
        {
            "turns": [
                [
                    {
                        "tools": [
                            {"name": "Write", "args": {"file_path": "x.txt", "content": "x"}},
                            {"name": "Write", "args": {"file_path": "y.txt", "content": "y"}},
                        ]
                    }
                ]
            ]
        },
    )
    await session.start()
    session.submit(Prompt("two"))
    first = await rec.wait_for(ToolRequested, lambda e: e.pending)
    if profile == SPEC:  # parallel requests arrive together; approve in reverse order
        second = await rec.wait_for(
            ToolRequested, lambda e: e.pending and e.call_id != first.call_id
        )
        session.decide(second.call_id, Decision.ONCE)
        session.decide(first.call_id, Decision.ONCE)
    else:
        await_second = rec.wait_for(ToolRequested, lambda e: e.call_id != first.call_id)
        session.decide(first.call_id, Decision.ONCE)
        second = await await_second
        session.decide(second.call_id, Decision.ONCE)
    await session.wait_idle()
    assert (workspace / "x.txt").read_text() == "x"
    assert (workspace / "y.txt").read_text() == "y"
    await session.close()


@pytest.mark.asyncio
@BOTH
async def test_c18_always_is_kept_by_the_host_per_category(workspace: Path, profile: str) -> None:
    session, rec = make_session(
        workspace,
        profile,
        {
            "turns": [
                [write_step("one.txt")],
                [write_step("two.txt"), {"tool": {"name": "Bash", "args": {"command": "true"}}}],
            ]
        },
    )
    await session.start()
    session.submit(Prompt("1"))
    request = await rec.wait_for(ToolRequested, lambda e: e.pending)
    session.decide(request.call_id, Decision.ALWAYS)
    await session.wait_idle()
    session.submit(Prompt("2"))
    bash = await rec.wait_for(ToolRequested, lambda e: e.pending and e.category == "exec")
    session.decide(bash.call_id, Decision.ONCE)
    await session.wait_idle()
    assert (workspace / "two.txt").exists()
    sources = [(d.decision, d.source) for d in rec.of(ToolDecided)]
    if profile == REAL:  # real aionrs ignores scope, so the host answers the second edit itself
        assert (Decision.ONCE, DecisionSource.ALWAYS_RULE) in sources
    assert rec.of(ToolDecided)[-1].source == DecisionSource.USER
    await session.close()


@pytest.mark.asyncio
async def test_c20_auto_approved_read_appears_without_request(workspace: Path) -> None:
    (workspace / "r.txt").write_text("content")
    session, rec = make_session(
        workspace, REAL, {"turns": [[{"tool": {"name": "Read", "args": {"file_path": "r.txt"}}}]]}
    )
    await session.start()
    session.submit(Prompt("read"))
    await session.wait_idle()
    assert not rec.of(ToolRequested)
    assert rec.of(ToolStarted)[0].name == "Read"
    assert rec.of(ToolFinished)[0].output == "content"
    assert not [n for n in rec.of(Notice) if "unknown tool call" in n.message]
    await session.close()


@pytest.mark.asyncio
async def test_c21_auto_edit_mode_approves_edits_host_side_but_asks_for_exec(
    workspace: Path,
) -> None:
    session, rec = make_session(
        workspace,
        REAL,
        {
            "turns": [
                [write_step("m.txt"), {"tool": {"name": "Bash", "args": {"command": "echo hi"}}}]
            ]
        },
    )
    await session.start()
    await session.set_mode(ApprovalMode.AUTO_EDIT)
    session.submit(Prompt("go"))
    bash = await rec.wait_for(ToolRequested, lambda e: e.pending)
    assert bash.category == "exec"
    assert bash.preview is not None
    assert bash.preview.kind == "command"
    assert bash.preview.text == "echo hi"
    assert bash.preview.cwd == str(workspace.resolve())
    session.decide(bash.call_id, Decision.DENY)
    await session.wait_idle()
    assert (workspace / "m.txt").exists()
    # The agent applies the mode too, so the edit runs without anyone being asked.
    assert [r.name for r in rec.of(ToolRequested)] == ["ExecCommand"]
    assert [(d.decision, d.source) for d in rec.of(ToolDecided)] == [
        (Decision.DENY, DecisionSource.USER)
    ]
    await session.close()


@pytest.mark.asyncio
async def test_c24_c25_unknown_and_failing_tools_keep_the_turn_going(workspace: Path) -> None:
    session, rec = make_session(
        workspace,
        REAL,
        {
            "turns": [
                [
                    {"tool": {"name": "Mystery", "args": {"x": 1}}},
                    {
                        "tool": {
                            "name": "Edit",
                            "args": {"file_path": "none.txt", "old_string": "a", "new_string": "b"},
                        }
                    },
                    {"text": "still here"},
                ]
            ]
        },
        mode=ApprovalMode.YOLO,
    )
    await session.start()
    session.submit(Prompt("go"))
    await session.wait_idle()
    finished = rec.of(ToolFinished)
    assert [f.status for f in finished] == ["error", "error"]
    assert "Unknown tool" in finished[0].output
    assert "".join(e.text for e in rec.of(TextDelta)) == "still here"
    assert rec.of(TurnEnded)[0].reason == TurnEndReason.COMPLETED
    await session.close()


@pytest.mark.asyncio
async def test_path_outside_workspace_is_flagged(workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    session, rec = make_session(workspace, REAL, {"turns": [[write_step(str(outside))]]})
    await session.start()
    session.submit(Prompt("go"))
    request = await rec.wait_for(ToolRequested, lambda e: e.pending)
    assert request.preview is not None
    assert request.preview.outside_workspace
    assert request.preview.new_file
    session.decide(request.call_id, Decision.DENY)
    await session.wait_idle()
    await session.close()


# ---------------------------------------------------------------- ping, robustness (C26–C34)


@pytest.mark.asyncio
async def test_c26_missing_pong_while_idle_marks_the_agent_hung(workspace: Path) -> None:
    session, rec = make_session(
        workspace, REAL, {"no_pong": True}, heartbeat_interval=0.2, heartbeat_timeout=0.3
    )
    await session.start()
    # The probe ping goes unanswered, so no heartbeat is kept up and no false alarm is raised.
    await session.close()
    assert not [e for e in rec.of(ErrorEvent) if e.code == "agent_hung"]


@pytest.mark.asyncio
async def test_c26_hung_agent_is_detected(workspace: Path) -> None:
    session, rec = make_session(
        workspace,
        REAL,
        {"turns": [[{"text": "ok"}]]},
        heartbeat_interval=0.2,
        heartbeat_timeout=0.3,
    )
    await session.start()
    session.submit(Prompt("hi"))
    await session.wait_idle()
    backend = session.backend
    assert backend is not None
    proc = psutil.Process(backend.process.pid)  # type: ignore[attr-defined]
    proc.suspend()  # a hung agent: alive, silent
    try:
        hung = await rec.wait_for(ErrorEvent, lambda e: e.code == "agent_hung", timeout=5)
        assert "not answered a ping" in hung.message
    finally:
        proc.resume()
    await session.close()


@pytest.mark.asyncio
@BOTH
async def test_spec_agent_without_ping_raises_no_false_error(workspace: Path, profile: str) -> None:
    session, rec = make_session(workspace, profile, {"turns": [[{"sleep": 0.3}, {"text": "ok"}]]})
    await session.start()
    session.submit(Prompt("hi"))
    await session.wait_idle()
    assert not rec.of(ErrorEvent), rec.of(ErrorEvent)
    await session.close()


@pytest.mark.asyncio
async def test_c31_bad_agent_output_is_reported_and_the_session_goes_on(workspace: Path) -> None:
    session, rec = make_session(
        workspace,
        REAL,
        {
            "turns": [
                [
                    {"raw": "{bad"},
                    {"raw": '{"type":"mystery","x":1}'},
                    {"raw_hex": "7b2274797065223a22ff227d"},
                    {"raw": '{"type":"text_delta","text":5}'},
                    {"raw": "[1, 2]"},
                    {"oversize": 2_000_000},
                    {
                        "event": {
                            "type": "tool_result",
                            "call_id": "ghost",
                            "tool_name": "X",
                            "status": "success",
                            "output": "?",
                            "output_type": "text",
                        }
                    },
                    {
                        "event": {
                            "type": "text_delta",
                            "text": "extra fields ok",
                            "msg_id": "m",
                            "brand_new": True,
                        }
                    },
                    {"text": " and done"},
                ]
            ]
        },
        line_limit=1_000_000,
    )
    await session.start()
    session.submit(Prompt("go"))
    await session.wait_idle()
    messages = [e.message for e in rec.of(ErrorEvent)]
    assert any("not valid JSON" in m for m in messages)
    assert any("not valid UTF-8" in m for m in messages)
    assert any("malformed 'text_delta'" in m for m in messages)
    assert any("over the 1,000,000-byte limit" in m for m in messages)
    assert any("unknown tool call 'ghost'" in n.message for n in rec.of(Notice))
    assert "".join(e.text for e in rec.of(TextDelta)) == "extra fields ok and done"
    assert rec.of(TurnEnded)[0].reason == TurnEndReason.COMPLETED
    await session.close()


@pytest.mark.asyncio
@BOTH
async def test_c33_provider_failure_ends_the_turn_in_error_and_next_works(
    workspace: Path, profile: str
) -> None:
    session, rec = make_session(
        workspace,
        profile,
        {
            "turns": [
                [{"error": {"code": "provider_error", "message": "Provider error: API error 401"}}],
                [{"text": "recovered"}],
            ]
        },
    )
    await session.start()
    session.submit(Prompt("1"))
    session.submit(Prompt("2"))
    await session.wait_idle()
    ended = rec.of(TurnEnded)
    assert [e.reason for e in ended] == [TurnEndReason.ERROR, TurnEndReason.COMPLETED]
    assert "401" in (ended[0].message or "")
    assert rec.of(ErrorEvent)[0].turn_id == ended[0].turn_id
    await session.close()


# ---------------------------------------------------------------- stop and shutdown (C35–C40)


@pytest.mark.asyncio
@BOTH
async def test_c35_stop_mid_turn_ends_the_turn_and_next_prompt_works(
    workspace: Path, profile: str
) -> None:
    session, rec = make_session(
        workspace,
        profile,
        {"prompts": {"long": [{"text": "start"}, {"sleep": 30}], "again": [{"text": "next"}]}},
    )
    first = await session.start()
    turn = session.submit(Prompt("long"))
    await rec.wait_for(TextDelta)
    started = time.monotonic()
    await session.stop()
    assert time.monotonic() - started < 2.5, "stop must not wait for the whole grace period"
    ended = rec.of(TurnEnded)
    assert [(e.turn_id, e.reason) for e in ended] == [(turn, TurnEndReason.STOPPED)]
    if profile == REAL:  # real aionrs quits on stop; the exit was expected
        exited = await rec.wait_for(AgentExited)
        assert exited.expected
    session.submit(Prompt("again"))
    await session.wait_idle()
    assert rec.of(TurnEnded)[-1].reason == TurnEndReason.COMPLETED
    assert rec.of(AgentReady)[-1].session_id == first.session_id
    await session.close()


@pytest.mark.asyncio
async def test_c36_stop_racing_the_turn_end_never_loses_the_next_prompt(workspace: Path) -> None:
    # The turn ends normally although stop was sent; aionrs 0.2 still quits at its next input
    # line, so the next prompt must go to a fresh (resumed) process, not the dying one.
    session, rec = make_session(
        workspace,
        REAL,
        {
            "prompts": {
                "slow": [{"text": "go"}, {"sleep": 0.4, "ignore_stop": True}, {"text": "finished"}],
                "fast": [{"text": "b"}],
            }
        },
    )
    await session.start()
    session.submit(Prompt("slow"))
    session.submit(Prompt("fast"))
    await rec.wait_for(TextDelta)  # the agent is in the slow turn
    await session.stop()
    await session.wait_idle()
    reasons = [e.reason for e in rec.of(TurnEnded)]
    assert reasons == [TurnEndReason.STOPPED, TurnEndReason.COMPLETED]
    assert "b" in "".join(e.text for e in rec.of(TextDelta))
    assert all(e.expected for e in rec.of(AgentExited))
    await session.close()


@pytest.mark.asyncio
async def test_c37_close_when_idle_exits_at_once(workspace: Path) -> None:
    session, rec = make_session(workspace, REAL, {})
    await session.start()
    backend = session.backend
    assert backend is not None
    pid = backend.process.pid  # type: ignore[attr-defined]
    started = time.monotonic()
    await session.close()
    assert time.monotonic() - started < 2
    assert rec.of(AgentExited)[0].exit_code == 0
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


@pytest.mark.asyncio
async def test_c39_close_with_pending_request_denies_first_and_never_hangs(
    workspace: Path,
) -> None:
    session, rec = make_session(workspace, REAL, {"turns": [[write_step("p.txt")]]})
    await session.start()
    session.submit(Prompt("go"))
    await rec.wait_for(ToolRequested, lambda e: e.pending)
    started = time.monotonic()
    await session.close()
    assert time.monotonic() - started < 8
    decided = rec.of(ToolDecided)
    assert [(d.decision, d.source) for d in decided] == [(Decision.DENY, DecisionSource.SHUTDOWN)]
    assert not (workspace / "p.txt").exists()
    assert rec.of(TurnEnded)[0].reason == TurnEndReason.STOPPED


@pytest.mark.asyncio
async def test_c40_hung_agent_is_killed_with_its_whole_process_tree(workspace: Path) -> None:
    session, rec = make_session(
        workspace,
        REAL,
        {"turns": [[{"tool": {"name": "Bash", "args": {"command": "sleep 60 & sleep 60"}}}]]},
        mode=ApprovalMode.YOLO,
        stop_grace=0.5,
        shutdown_timeout=0.5,
    )
    await session.start()
    backend = session.backend
    assert backend is not None
    agent = psutil.Process(backend.process.pid)  # type: ignore[attr-defined]
    session.submit(Prompt("sleep"))
    await rec.wait_for(ToolStarted)
    wait_until(lambda: _named(agent.children(recursive=True), "sleep") >= 2, 5, "both sleeps")
    tree = agent.children(recursive=True)
    assert tree, "the Bash tool runs child processes"
    agent.suspend()  # now it cannot answer stop at all
    wait_until(lambda: agent.status() == psutil.STATUS_STOPPED, 2, "the agent suspended")
    await session.stop()
    ended = rec.of(TurnEnded)[0]
    assert ended.reason == TurnEndReason.STOPPED
    assert "did not confirm" in (ended.message or "")
    await rec.wait_for(AgentExited)
    _gone, alive = psutil.wait_procs([agent, *tree], timeout=3)
    assert not alive, f"orphans left: {alive}"
    await session.close()


@pytest.mark.asyncio
async def test_crash_mid_turn_keeps_events_and_restarts_on_next_prompt(workspace: Path) -> None:
    session, rec = make_session(
        workspace,
        REAL,
        {
            "prompts": {
                "1": [
                    {"text": "partial"},
                    {"crash": 101, "stderr": "thread 'main' panicked at boom"},
                ],
                "2": [{"text": "back"}],
            }
        },
    )
    await session.start()
    session.submit(Prompt("1"))
    await session.wait_idle()
    exited = await rec.wait_for(AgentExited)
    assert exited.exit_code == 101
    assert not exited.expected
    assert "panicked at boom" in exited.stderr_tail
    assert rec.of(TurnEnded)[0].reason == TurnEndReason.AGENT_EXITED
    session.submit(Prompt("2"))
    await session.wait_idle()
    assert "".join(e.text for e in rec.of(TextDelta)) == "partialback"
    assert rec.of(TurnEnded)[-1].reason == TurnEndReason.COMPLETED
    await session.close()


@pytest.mark.asyncio
async def test_ready_timeout(workspace: Path) -> None:
    session, _ = make_session(workspace, REAL, {"startup": {"silent": True}}, ready_timeout=0.5)
    with pytest.raises(AgentStartError, match="did not become ready"):
        await session.start()


@pytest.mark.asyncio
async def test_a_bug_in_mapping_one_event_never_stops_the_stream(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop.core.protocols.aionrs import wire
    from desktop.core.protocols.aionrs.mapping import EventMapper

    handle = EventMapper.handle

    def broken(self: EventMapper, event: wire.AgentEvent) -> None:
        if isinstance(event, wire.Info):
            raise RuntimeError("mapping bug")
        handle(self, event)

    monkeypatch.setattr(EventMapper, "handle", broken)
    session, rec = make_session(workspace, REAL, {"turns": [[{"info": "x"}, {"text": "after"}]]})
    await session.start()
    session.submit(Prompt("go"))
    await asyncio.wait_for(session.wait_idle(), 10)
    assert any(
        e.code == "internal_error" and "mapping bug" in e.message for e in rec.of(ErrorEvent)
    )
    assert "".join(e.text for e in rec.of(TextDelta)) == "after"
    assert rec.of(TurnEnded)[0].reason == TurnEndReason.COMPLETED
    await session.close()
