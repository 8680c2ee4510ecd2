"""Each real agent completes a turn, asks for a command and a file change, is approved and
denied from Agent Desk, and is stopped mid-turn leaving no process behind."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import psutil
import pytest

from desktop.core.backend import Prompt
from desktop.core.events import (
    Decision,
    SessionEvent,
    ToolCancelled,
    ToolFinished,
    ToolRequested,
    TurnEnded,
    TurnEndReason,
)
from desktop.core.launch.factory import make_backend_factory
from desktop.core.session import Session
from tests.agents_real.conftest import AGENTS, RealAgent
from tests.fakes.fake_llm import anthropic_tool_results
from tests.fakes.fake_llm_dialects import gemini_function_responses, responses_tool_outputs
from tests.waiting import until

PATCH = (
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: notes.md\n+# Notes\n"
    "+written via apply_patch\n*** End Patch\nEOF\n"
)


def command_turn(key: str, ws: Path) -> dict[str, Any]:
    """A model turn that runs a command which writes hello.txt (needs approval)."""
    if key in ("codex", "codex-acp"):
        args = {
            "cmd": "printf 'hi from agent\\n' > hello.txt && cat hello.txt",
            "sandbox_permissions": "require_escalated",
            "justification": "Allow writing hello.txt?",
            "yield_time_ms": 2000,
        }
        return {
            "tool_calls": [{"name": "exec_command", "call_id": "call_exec_1", "arguments": args}]
        }
    name = "Bash" if key == "claude" else "run_shell_command"
    args = {"command": "echo 'hi from agent' | tee hello.txt", "description": "write hello"}
    return {"tool_calls": [{"name": name, "call_id": "call_exec_1", "arguments": args}]}


def edit_turn(key: str, ws: Path) -> dict[str, Any]:
    """A model turn that creates notes.md (a file change needing approval)."""
    if key in ("codex", "codex-acp"):
        args: dict[str, Any] = {"cmd": PATCH}
        return {
            "tool_calls": [{"name": "exec_command", "call_id": "call_patch_1", "arguments": args}]
        }
    name = "Write" if key == "claude" else "write_file"
    args = {"file_path": str(ws / "notes.md"), "content": "# Notes\nwritten via write\n"}
    return {"tool_calls": [{"name": name, "call_id": "call_patch_1", "arguments": args}]}


def sent_back(key: str, body: dict[str, Any]) -> str:
    """What the agent told the model about the tool call (its result after the decision)."""
    if key in ("codex", "codex-acp"):
        return json.dumps(responses_tool_outputs(body))
    if key == "claude":
        return json.dumps(anthropic_tool_results(body))
    return json.dumps(gemini_function_responses(body))


async def run_turn(
    agent: RealAgent, decision: Decision, prompt: str = "go"
) -> tuple[list[SessionEvent], Session]:
    session = Session(
        make_backend_factory(agent.choice, agent.workspace),
        workspace=agent.workspace,
    )
    events: list[SessionEvent] = []

    def on(event: SessionEvent) -> None:
        events.append(event)
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, decision)

    session.subscribe(on)
    await session.start()
    session.submit(Prompt(prompt))
    await asyncio.wait_for(session.wait_idle(), 60)
    return events, session


#: Their "reject" option ends the whole turn (stopReason ``cancelled``), not just the tool call.
ABORTS_ON_DENY = {"codex-acp"}


def expected_end(key: str, decision: Decision) -> set[TurnEndReason]:
    if decision == Decision.DENY and key in ABORTS_ON_DENY:
        return {TurnEndReason.STOPPED}
    return {TurnEndReason.COMPLETED}


def ended(events: list[SessionEvent]) -> TurnEnded:
    return next(e for e in events if isinstance(e, TurnEnded))


@pytest.mark.asyncio
@pytest.mark.parametrize("key", AGENTS)
@pytest.mark.parametrize("decision", [Decision.ONCE, Decision.DENY])
async def test_command_approval(make_agent: Any, key: str, decision: Decision) -> None:
    agent: RealAgent = make_agent(key)
    agent.llm.add(command_turn(key, agent.workspace), {"text": "All done."})
    events, session = await run_turn(agent, decision)
    try:
        assert ended(events).reason in expected_end(key, decision)
        cards = [e for e in events if isinstance(e, ToolRequested) and e.pending]
        assert len(cards) == 1 and cards[0].category.value == "exec"
        assert cards[0].preview is not None and "hello.txt" in cards[0].preview.text
        if expected_end(key, decision) == {TurnEndReason.COMPLETED}:
            assert "All done." in "".join(e.text for e in events if e.type == "text_delta")
        follow_up = sent_back(key, agent.llm.model_requests[-1].body)
        if decision == Decision.ONCE:
            assert (agent.workspace / "hello.txt").read_text() == "hi from agent\n"
            assert any(isinstance(e, ToolFinished) and e.status == "success" for e in events)
            assert "hi from agent" in follow_up  # the command's output went back to the model
        else:
            assert not (agent.workspace / "hello.txt").exists()
            assert any(isinstance(e, ToolCancelled) for e in events)
            assert "hi from agent" not in follow_up
    finally:
        await session.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("key", AGENTS)
@pytest.mark.parametrize("decision", [Decision.ONCE, Decision.DENY])
async def test_file_change_approval(make_agent: Any, key: str, decision: Decision) -> None:
    agent: RealAgent = make_agent(key, sandbox="read-only")
    agent.llm.add(edit_turn(key, agent.workspace), {"text": "Edited."})
    events, session = await run_turn(agent, decision)
    try:
        assert ended(events).reason in expected_end(key, decision)
        cards = [e for e in events if isinstance(e, ToolRequested) and e.pending]
        assert len(cards) == 1 and cards[0].category.value == "edit"
        preview = cards[0].preview
        assert preview is not None and preview.kind == "diff"
        assert "+# Notes" in preview.text and "notes.md" in preview.text
        target = agent.workspace / "notes.md"
        if decision == Decision.ONCE:
            assert target.read_text().startswith("# Notes\n")
        else:
            assert not target.exists()
    finally:
        await session.close()


def _tree(pid: int) -> list[psutil.Process]:
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


@pytest.mark.asyncio
@pytest.mark.parametrize("key", AGENTS)
async def test_stop_mid_turn_leaves_no_process(make_agent: Any, key: str) -> None:
    agent: RealAgent = make_agent(key)
    agent.llm.add({"text": "thinking slowly", "hang_after": 1}, {"text": "after stop"})
    session = Session(
        make_backend_factory(agent.choice, agent.workspace),
        workspace=agent.workspace,
        stop_grace=5.0,
    )
    events: list[SessionEvent] = []
    session.subscribe(events.append)
    await session.start()
    backend = session.backend
    assert backend is not None
    pid = backend.process.pid  # type: ignore[attr-defined]
    session.submit(Prompt("take your time"))
    await asyncio.to_thread(agent.llm.wait_for_requests, 1, 30)
    tree = _tree(pid)
    await session.stop()
    assert ended(events).reason == TurnEndReason.STOPPED
    await session.close()

    def running() -> list[psutil.Process]:
        return [p for p in tree if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]

    with contextlib.suppress(pytest.fail.Exception):  # the assertion below says what is left
        await until(lambda: not running(), 5, "the agent's tree to end")
    alive = running()
    assert alive == [], [p.cmdline() for p in alive]
