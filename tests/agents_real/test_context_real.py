"""Issue 18's surfaces through the real npm agents, driven by the fake LLM: plans (Claude Code's
TodoWrite as ACP ``plan`` updates, Codex's ``update_plan`` as ``turn/plan/updated``), live command
output (Codex output deltas), slash commands (ACP ``available_commands_update``), and @files and
images reaching the model. A surface an agent does not offer is asserted cleanly absent: no event
of its kind and no error."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import (
    AgentReady,
    CommandsChanged,
    Notice,
    PlanStatus,
    PlanUpdated,
    TextDelta,
    ToolFinished,
    ToolOutputDelta,
    ToolRequested,
    TurnEndReason,
)
from tests.agents_real.conftest import RealAgent
from tests.agents_real.context_helpers import open_run, png_bytes
from tests.agents_real.test_mcp_real import tool_names
from tests.agents_real.test_real_agents import command_turn


def todo_turn() -> dict[str, Any]:
    """Claude Code's model writes its todo list (three steps, one in progress)."""
    todos = [
        {"content": "Read the parser", "status": "completed", "activeForm": "Reading"},
        {"content": "Fix the off-by-one", "status": "in_progress", "activeForm": "Fixing"},
        {"content": "Run the tests", "status": "pending", "activeForm": "Running"},
    ]
    return {"tool_calls": [{"name": "TodoWrite", "arguments": {"todos": todos}}]}


def update_plan_turn() -> dict[str, Any]:
    """Codex's model calls its ``update_plan`` tool."""
    args = {
        "explanation": "Three steps to the fix",
        "plan": [
            {"step": "Read the parser", "status": "completed"},
            {"step": "Fix the off-by-one", "status": "in_progress"},
            {"step": "Run the tests", "status": "pending"},
        ],
    }
    return {"tool_calls": [{"name": "update_plan", "call_id": "call_plan_1", "arguments": args}]}


EXPECTED_PLAN = [
    ("Read the parser", PlanStatus.COMPLETED),
    ("Fix the off-by-one", PlanStatus.IN_PROGRESS),
    ("Run the tests", PlanStatus.PENDING),
]


@pytest.mark.asyncio
async def test_claude_todo_list_is_a_live_plan(make_agent: Any) -> None:
    agent: RealAgent = make_agent("claude")
    agent.llm.add(todo_turn(), {"text": "Planned."})
    run = await open_run(agent)
    try:
        ended = await run.turn(Prompt("plan the fix"))
    finally:
        await run.session.close()
    assert ended.reason == TurnEndReason.COMPLETED, ended
    plans = run.of(PlanUpdated)
    assert plans, [e.type for e in run.events]
    assert [(s.content, s.status) for s in plans[-1].entries] == EXPECTED_PLAN
    assert plans[-1].turn_id == ended.turn_id
    assert run.events.index(plans[-1]) < run.events.index(ended)
    assert run.errors() == []


@pytest.mark.asyncio
async def test_codex_without_a_plan_tool_shows_no_plan(make_agent: Any) -> None:
    """Codex 0.169.0 offers the model no ``update_plan`` (its goal tools took its place), so it
    never sends ``turn/plan/updated``: a model that calls it anyway is told the call is
    unsupported, and Agent Desk shows no plan and no error."""
    agent: RealAgent = make_agent("codex")
    agent.llm.add(update_plan_turn(), {"text": "Planned."})
    run = await open_run(agent)
    try:
        ended = await run.turn(Prompt("plan the fix"))
    finally:
        await run.session.close()
    assert ended.reason == TurnEndReason.COMPLETED, ended
    first = agent.llm.model_requests[0].body
    assert "exec_command" in tool_names(first) and "update_plan" not in tool_names(first)
    assert "unsupported call: update_plan" in json.dumps(agent.llm.model_requests[-1].body)
    assert "turn/plan/updated" not in run.methods()
    assert run.of(PlanUpdated) == []
    assert run.errors() == []
    assert "Planned." in "".join(e.text for e in run.of(TextDelta))


def slow_command_turn() -> dict[str, Any]:
    """Codex's model runs a command that prints a line every 0.4 s (needs approval)."""
    args = {
        "cmd": "for i in 1 2 3; do echo line$i; sleep 0.4; done; echo done > hello.txt",
        "sandbox_permissions": "require_escalated",
        "justification": "Allow writing hello.txt?",
        "yield_time_ms": 10000,
    }
    return {"tool_calls": [{"name": "exec_command", "call_id": "call_slow_1", "arguments": args}]}


@pytest.mark.asyncio
async def test_codex_streams_command_output(make_agent: Any) -> None:
    agent: RealAgent = make_agent("codex")
    agent.llm.add(slow_command_turn(), {"text": "All done."})
    run = await open_run(agent)
    try:
        ended = await run.turn(Prompt("count to three"))
    finally:
        await run.session.close()
    assert ended.reason == TurnEndReason.COMPLETED
    asked = [e for e in run.of(ToolRequested) if e.pending]
    assert [e.call_id for e in asked] == ["call_slow_1"]
    deltas = [e for e in run.of(ToolOutputDelta) if e.call_id == "call_slow_1"]
    finished = [e for e in run.of(ToolFinished) if e.call_id == "call_slow_1"]
    assert deltas and finished, [e.type for e in run.events]
    assert "line3\n" in "".join(d.text for d in deltas)  # streamed while it ran
    assert all(d.turn_id == ended.turn_id for d in deltas)
    assert run.events.index(deltas[-1]) < run.events.index(finished[0])
    assert finished[0].output == "line1\nline2\nline3\n"
    assert (agent.workspace / "hello.txt").read_text() == "done\n"
    assert run.errors() == []


@pytest.mark.asyncio
async def test_claude_runs_bash_itself_without_client_terminals(make_agent: Any) -> None:
    """claude-agent-acp 0.23.1 runs Bash in its own process and never calls ``terminal/*``
    (it streams nothing: the output comes with the finished call), so no live output."""
    agent: RealAgent = make_agent("claude")
    agent.llm.add(command_turn("claude", agent.workspace), {"text": "All done."})
    run = await open_run(agent)
    try:
        ended = await run.turn(Prompt("write hello"))
    finally:
        await run.session.close()
    assert ended.reason == TurnEndReason.COMPLETED
    assert (agent.workspace / "hello.txt").read_text() == "hi from agent\n"
    assert not [m for m in run.methods() if m.startswith("terminal/")], run.methods()
    assert run.of(ToolOutputDelta) == []
    finished = run.of(ToolFinished)
    assert finished and "hi from agent" in finished[-1].output
    assert run.errors() == []


@pytest.mark.asyncio
@pytest.mark.parametrize("key", ["claude", "codex"])
async def test_slash_commands(make_agent: Any, key: str) -> None:
    agent: RealAgent = make_agent(key)
    agent.llm.add({"text": "Hello."})
    run = await open_run(agent)
    try:
        ended = await run.turn(Prompt("hi"))
    finally:
        await run.session.close()
    assert ended.reason == TurnEndReason.COMPLETED
    offered = run.of(CommandsChanged)
    if key == "codex":  # the app-server has no command list: the / menu has Agent Desk's only
        assert offered == []
    else:
        commands = {c.name: c for c in offered[-1].commands}
        assert {"compact", "init", "review"} <= set(commands), sorted(commands)
        assert all(c.description for c in commands.values())
        assert not any(name.startswith("/") for name in commands)
    assert run.errors() == []


def image_blocks(body: dict[str, Any]) -> list[str]:
    """The base64 data of every image in a model request (Anthropic or OpenAI Responses)."""
    found = []
    for message in body.get("messages") or body.get("input") or []:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "image":
                found.append(block["source"]["data"])
            elif block.get("type") == "input_image":
                found.append(str(block.get("image_url", "")).split("base64,", 1)[-1])
    return found


@pytest.mark.asyncio
@pytest.mark.parametrize("key", ["claude", "codex"])
async def test_mentioned_file_and_image_reach_the_model(make_agent: Any, key: str) -> None:
    agent: RealAgent = make_agent(key)
    notes = agent.workspace / "notes.txt"
    notes.write_text("The secret word is PELICAN-42.\n")
    image = agent.workspace / "shot.png"
    image.write_bytes(png_bytes())
    agent.llm.add({"text": "Seen."})
    run = await open_run(agent)
    try:
        ended = await run.turn(Prompt("what is in these?", files=(str(notes), str(image))))
    finally:
        await run.session.close()
    assert ended.reason == TurnEndReason.COMPLETED
    body = agent.llm.model_requests[0].body
    assert image_blocks(body) == [base64.b64encode(png_bytes()).decode()]
    sent = json.dumps(body)
    if key == "claude":  # embeddedContext: the file's text is in the prompt
        assert "The secret word is PELICAN-42." in sent
    else:  # Codex is told the path and reads the file itself if the model wants it
        assert str(notes) in sent and "PELICAN" not in sent
    assert not [n for n in run.of(Notice) if "does not take images" in n.message]
    if key == "claude":
        ready = run.of(AgentReady)[-1]
        caps = ready.capabilities["promptCapabilities"]
        assert caps["image"] is True and caps["embeddedContext"] is True, caps
    assert run.errors() == []
