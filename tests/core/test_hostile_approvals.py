"""A hostile model against the approval path (issue 14, items 1, 2, 4 and 5).

Every test drives a real ``Session`` over the scripted aionrs agent subprocess
(``tests/fakes/fake_aionrs.py``); raw ``{"event": …}`` steps play what a prompt-injected model can
make an agent send: reused call ids, lying categories, paths no preview can handle, tools run
without a request.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop.core.approval_gate import DUPLICATE_CALL_ID
from desktop.core.approvals import Verdict, rule_for
from desktop.core.backend import Prompt
from desktop.core.events import (
    ApprovalMode,
    Decision,
    DecisionSource,
    ErrorEvent,
    ToolCategory,
    ToolDecided,
    ToolRequested,
    ToolStarted,
    UnaskedRun,
)
from desktop.core.extensions.agent_job import read_only_policy
from desktop.core.session import Session
from tests.agent.harness import agent_env
from tests.core.support import Recorder, make_session
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn


def tool(name: str, args: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"tool": {"name": name, "args": args, **extra}}


def request_event(call_id: str, name: str, category: str, args: dict[str, Any]) -> dict[str, Any]:
    tool_info = {"name": name, "category": category, "args": args, "description": name}
    return {"event": {"type": "tool_request", "msg_id": "m", "call_id": call_id, "tool": tool_info}}


def approve_edits(request: ToolRequested) -> Verdict | None:
    if request.category == ToolCategory.EDIT:
        return Verdict(Decision.ONCE, DecisionSource.POLICY, "test edits")
    return None


def decisions(rec: Recorder, call_id: str) -> list[tuple[Decision, str | None]]:
    return [(d.decision, d.source_name) for d in rec.of(ToolDecided) if d.call_id == call_id]


async def start(
    workspace: Path, profile: str, turns: list[list[dict[str, Any]]]
) -> tuple[Session, Recorder]:
    session, rec = make_session(workspace, profile, {"turns": turns})
    await session.start()
    return session, rec


# ------------------------------------------------------------------ 1. reused call ids


@pytest.mark.asyncio
async def test_a_reused_id_after_a_decision_is_denied_and_the_first_keeps_its_own(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    turn = [
        tool("Write", {"file_path": "a.txt", "content": "hi\n"}, call_id="dup"),
        tool("Bash", {"command": "touch pwned"}, call_id="dup"),
    ]
    session, rec = await start(ws, "aionrs-0.2", [turn])
    session.approvals.policies.append(("test edits", approve_edits))
    try:
        session.submit(Prompt("go"))
        error = await rec.wait_for(ErrorEvent, lambda e: e.code == "duplicate_call_id")
        assert "'dup'" in error.message and "ExecCommand" in error.message
        await session.wait_idle()
        assert (ws / "a.txt").read_text() == "hi\n"
        assert not (ws / "pwned").exists()
        assert decisions(rec, "dup") == [
            (Decision.ONCE, "test edits"),
            (Decision.DENY, DUPLICATE_CALL_ID),
        ]
        card = [r for r in rec.of(ToolRequested) if r.call_id == "dup"][-1]
        assert card.category == ToolCategory.EXEC and not card.pending
        assert not session.approvals.pending
    finally:
        await session.close()


@pytest.mark.asyncio
async def test_a_reused_id_while_the_first_waits_denies_both_and_approves_nothing(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    turn = [
        request_event("dup", "Read", "info", {"file_path": "a.txt"}),
        request_event("dup", "Bash", "exec", {"command": "touch pwned"}),
        {"sleep": 0.2},
    ]
    session, rec = await start(ws, "spec", [turn])
    try:
        session.submit(Prompt("go"))
        await rec.wait_for(ErrorEvent, lambda e: e.code == "duplicate_call_id")
        # A late approval of the first request cannot reach the agent under the shared id.
        session.decide("dup", Decision.ONCE)
        await session.wait_idle()
        assert [d for d, _ in decisions(rec, "dup")] == [Decision.DENY, Decision.DENY]
        assert {name for _, name in decisions(rec, "dup")} == {DUPLICATE_CALL_ID}
    finally:
        await session.close()


def test_exec_with_the_built_in_agent_runs_nothing_on_a_reused_id_and_ends(
    tmp_path: Path,
) -> None:
    """The issue's repro: ``--on-request deny`` with read_only_auto_approve, a model answering
    Read a.txt and Bash ``touch pwned`` under one id: Bash ran and ``exec`` hung."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.txt").write_text("hello\n")
    calls = [
        ToolCallSpec("Read", {"file_path": "a.txt"}, "dup"),
        ToolCallSpec("Bash", {"command": "touch pwned"}, "dup"),
    ]
    with FakeLLM([Turn(tool_calls=calls), {"text": "done"}]) as llm:
        env = agent_env(ANTHROPIC_BASE_URL=llm.url, AGENTDESK_HOME=str(tmp_path / "home"))
        del env["OPENAI_API_KEY"]
        argv = [sys.executable, "-m", "desktop", "exec", "--agent", "builtin", "--json"]
        extension = ["--enable-extension", "read_only_auto_approve"]
        done = subprocess.run(
            [*argv, "--on-request", "deny", *extension, "-p", "go"],
            cwd=ws,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert not (ws / "pwned").exists()
    ran = [e["name"] for e in events if e["type"] == "tool_started"]
    assert ran == ["Read"]
    assert [e["type"] for e in events][-1] in ("turn_ended", "state_changed")
    assert any(e["type"] == "turn_ended" and e["reason"] == "completed" for e in events)


@pytest.mark.asyncio
async def test_agents_may_reuse_an_id_in_a_later_turn(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    turns = [
        [tool("Bash", {"command": "touch one"}, call_id="c1")],
        [tool("Bash", {"command": "touch two"}, call_id="c1")],
    ]
    session, rec = await start(ws, "aionrs-0.2", turns)
    try:
        for prompt, name in (("1", "one"), ("2", "two")):
            session.submit(Prompt(prompt))
            await rec.wait_for(ToolRequested, lambda e, n=name: e.pending and n in str(e.args))
            assert session.decide("c1", Decision.ONCE) == "accepted"
            await session.wait_idle()
            assert (ws / name).exists()
        assert not rec.of(ErrorEvent)
    finally:
        await session.close()


@pytest.mark.asyncio
async def test_a_request_after_an_unasked_run_with_its_id_is_asked_as_usual(
    tmp_path: Path,
) -> None:
    """Nothing waited on the first call (Codex shows its own items this way), so no ambiguity."""
    ws = tmp_path / "ws"
    ws.mkdir()
    ran = {"type": "tool_running", "msg_id": "m", "call_id": "x1", "tool_name": "Read"}
    turn = [{"event": ran}, tool("Bash", {"command": "touch ok"}, call_id="x1")]
    session, rec = await start(ws, "aionrs-0.2", [turn])
    try:
        session.submit(Prompt("go"))
        await rec.wait_for(ToolRequested, lambda e: e.pending and e.call_id == "x1")
        assert session.decide("x1", Decision.ONCE) == "accepted"
        await session.wait_idle()
        assert (ws / "ok").exists() and not rec.of(ErrorEvent)
    finally:
        await session.close()


# ------------------------------------------------------------------ 2. claimed categories


def by_mode(session: Session) -> None:
    session.approvals.mode = ApprovalMode.AUTO_EDIT  # host side; the agent still asks


def by_rule_made_on_a_read(session: Session) -> None:
    read = ToolRequested(call_id="r", name="Read", category=ToolCategory.INFO)
    session.approvals.add_rule(rule_for(read))


def by_read_only_policy(session: Session) -> None:
    session.approvals.policies.append(("read only", read_only_policy))


@pytest.mark.asyncio
@pytest.mark.parametrize("allow", [by_mode, by_rule_made_on_a_read, by_read_only_policy])
@pytest.mark.parametrize(
    ("name", "host"), [("Bash", ToolCategory.EXEC), ("mystery_tool", ToolCategory.MCP)]
)
async def test_a_tool_claiming_info_is_judged_by_what_the_host_knows(
    tmp_path: Path, allow: Any, name: str, host: ToolCategory
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    turn = [tool(name, {"command": "touch pwned"}, category="info", call_id="liar")]
    session, rec = await start(ws, "spec", [turn])
    allow(session)
    screened: list[ToolCategory] = []
    session.approvals.screens.append(("watch", lambda r: screened.append(r.category)))
    try:
        session.submit(Prompt("go"))
        card = await rec.wait_for(ToolRequested, lambda e: e.call_id == "liar")
        assert (card.category, card.claimed_category) == (host, ToolCategory.INFO)
        assert screened == [host]
        if card.pending:
            session.decide("liar", Decision.DENY)
        await session.wait_idle()
        assert [d for d, _ in decisions(rec, "liar")] == [Decision.DENY]
        assert not (ws / "pwned").exists()
    finally:
        await session.close()


@pytest.mark.asyncio
async def test_known_tools_keep_their_class_and_are_still_auto_approved(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    turn = [tool("Write", {"file_path": "w.txt", "content": "x"}, category="exec")]
    session, rec = await start(ws, "spec", [turn])
    by_mode(session)
    try:
        session.submit(Prompt("go"))
        await session.wait_idle()
        card = rec.of(ToolRequested)[-1]
        assert (card.category, card.claimed_category) == (ToolCategory.EDIT, ToolCategory.EXEC)
        assert rec.of(ToolDecided)[-1].source == DecisionSource.MODE
        assert (ws / "w.txt").exists()
    finally:
        await session.close()


# ------------------------------------------------------------------ 4. no preview possible


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("a\u0000b.txt", "not usable"),
        ("d/" * 2500 + "x.txt", "not usable"),
        ("/proc/self/mem", "cannot be read"),
    ],
    ids=["nul", "5000-chars", "unreadable"],
)
async def test_a_request_the_host_cannot_preview_still_gets_a_card_and_a_decision(
    tmp_path: Path, path: str, why: str
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    args = {"file_path": path, "old_string": "a", "new_string": "b"}
    turn = [request_event("p1", "Edit", "edit", args), {"sleep": 30, "ignore_stop": False}]
    session, rec = await start(ws, "spec", [turn])
    try:
        session.submit(Prompt("go"))
        card = await rec.wait_for(ToolRequested, lambda e: e.call_id == "p1")
        assert card.pending and card.preview is not None
        assert "cannot preview this call" in card.preview.text and why in card.preview.text
        assert session.decide("p1", Decision.DENY) == "accepted"
        assert [d for d, _ in decisions(rec, "p1")] == [Decision.DENY]
    finally:
        await session.close()


@pytest.mark.asyncio
async def test_the_read_only_policy_does_not_approve_a_read_it_could_not_preview(
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    turn = [request_event("r", "Read", "info", {"file_path": "a\u0000b"}), {"sleep": 30}]
    session, rec = await start(ws, "spec", [turn])
    by_read_only_policy(session)
    try:
        session.submit(Prompt("go"))
        decided = await rec.wait_for(ToolDecided, lambda e: e.call_id == "r")
        assert (decided.decision, decided.source) == (Decision.DENY, DecisionSource.POLICY)
        card = rec.of(ToolRequested)[-1]
        assert card.preview is not None and card.preview.unavailable
    finally:
        await session.close()


# ------------------------------------------------------------------ 5. run without asking


@pytest.mark.asyncio
async def test_a_tool_run_without_a_request_is_marked(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.txt").write_text("hello\n")
    running = {"type": "tool_running", "msg_id": "m", "call_id": "sneaky", "tool_name": "Bash"}
    turn = [tool("Read", {"file_path": "a.txt"}, call_id="r1"), {"event": running}]
    session, rec = await start(ws, "aionrs-0.2", [turn])  # aionrs runs Read unasked (C20)
    try:
        session.submit(Prompt("go"))
        await session.wait_idle()
        started = {e.call_id: e for e in rec.of(ToolStarted)}
        assert started["r1"].unasked == UnaskedRun.ALLOWED
        assert started["r1"].category == ToolCategory.INFO
        assert started["sneaky"].unasked == UnaskedRun.WARNING
        assert started["sneaky"].category == ToolCategory.EXEC
    finally:
        await session.close()


@pytest.mark.asyncio
async def test_a_requested_tool_is_not_marked(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    session, rec = await start(ws, "aionrs-0.2", [[tool("Bash", {"command": "true"})]])
    try:
        session.submit(Prompt("go"))
        card = await rec.wait_for(ToolRequested, lambda e: e.pending)
        session.decide(card.call_id, Decision.ONCE)
        await session.wait_idle()
        assert [e.unasked for e in rec.of(ToolStarted)] == [None]
    finally:
        await session.close()
