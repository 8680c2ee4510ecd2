"""A published MCP server from npm (``@modelcontextprotocol/server-everything``) configured once
in ``mcp.json`` reaches real agents (claude-agent-acp through ACP ``mcpServers``, Codex through
``-c mcp_servers.*``): the model's tool list holds the server's tools, a call of its ``echo``
tool is approved in Agent Desk and reaches the server, and its answer goes back to the model."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import Decision, SessionEvent, ToolCategory, ToolRequested, TurnEnded
from desktop.core.launch.factory import make_backend_factory
from desktop.core.mcp import McpServer, McpTransport
from desktop.core.mcp.store import McpStore
from desktop.core.session import Session
from tests.agents_real.conftest import RealAgent, npm_cache_root

PACKAGE = "@modelcontextprotocol/server-everything@2026.8.31"
MCP_AGENTS = ("claude", "codex")


@pytest.fixture(scope="session")
def everything_server() -> Path:
    """The server's program, installed once into the test npm cache."""
    root = npm_cache_root() / "mcp-everything"
    program = root / "node_modules" / ".bin" / "mcp-server-everything"
    if not program.exists():
        done = subprocess.run(
            ["npm", "install", "--prefix", str(root), "--no-audit", "--no-fund", PACKAGE],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            pytest.skip(f"npm could not install {PACKAGE}: {done.stderr[-500:]}")
    return program


def tool_names(body: dict[str, Any]) -> set[str]:
    """Every tool the model is offered; a Responses namespace's as ``<namespace>__<tool>``."""
    names = set()
    for tool in body.get("tools") or []:
        if tool.get("type") == "namespace":
            names |= {f"{tool['name']}__{t.get('name')}" for t in tool.get("tools") or []}
        names.add(str(tool.get("name") or tool.get("function", {}).get("name")))
    return names


def echo_call(key: str) -> dict[str, Any]:
    """The model calls the server's ``echo`` (Codex offers it in the server's namespace)."""
    args = {"message": "hello from the model"}
    if key == "codex":
        call = {"name": "mcp__everything::echo", "call_id": "call_mcp_1", "arguments": args}
        return {"tool_calls": [call]}
    return {
        "tool_calls": [
            {"name": "mcp__everything__echo", "call_id": "call_mcp_1", "arguments": args}
        ]
    }


@pytest.mark.asyncio
@pytest.mark.parametrize("key", MCP_AGENTS)
async def test_a_published_server_reaches_a_real_agent(
    make_agent: Any, everything_server: Path, key: str
) -> None:
    McpStore().put(
        McpServer(
            name="everything",
            transport=McpTransport.STDIO,
            command=str(everything_server),
            args=("stdio",),
        )
    )
    agent: RealAgent = make_agent(key)
    agent.llm.add(echo_call(key), {"text": "Echoed."})
    session = Session(
        make_backend_factory(agent.choice, agent.workspace), workspace=agent.workspace
    )
    events: list[SessionEvent] = []

    def on(event: SessionEvent) -> None:
        events.append(event)
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, Decision.ONCE)

    session.subscribe(on)
    try:
        await session.start()
        session.submit(Prompt("echo something"))
        await asyncio.wait_for(session.wait_idle(), 90)
    finally:
        await session.close()
    bodies = [r.body for r in agent.llm.model_requests]
    offered = set().union(*(tool_names(b) for b in bodies))
    get_sum = "mcp__everything__get_sum" if key == "codex" else "mcp__everything__get-sum"
    assert {"mcp__everything__echo", get_sum} <= offered, sorted(offered)
    asked = [e for e in events if isinstance(e, ToolRequested) and e.pending]
    assert [(e.name, e.category) for e in asked] == [("mcp__everything__echo", ToolCategory.MCP)]
    assert any(isinstance(e, TurnEnded) for e in events)
    assert "Echo: hello from the model" in json.dumps(bodies[-1])
