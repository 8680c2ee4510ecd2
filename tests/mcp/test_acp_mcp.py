"""The configured MCP servers in ACP ``session/new`` and ``session/load`` (``mcpServers``),
through the real launch factory and the fake ACP peer: stdio servers with env as a name/value
list, HTTP servers only where ``mcpCapabilities.http`` says so, a notice where it does not."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop.core.events import Notice, SessionEvent
from desktop.core.launch.factory import make_backend_factory
from desktop.core.launch.spec import LaunchAcp
from desktop.core.mcp import McpServer, McpTransport
from desktop.core.mcp.store import McpStore
from desktop.core.session import Session

PEER = Path(__file__).parents[1] / "fakes" / "fake_acp_peer.py"


def configure() -> None:
    store = McpStore()
    store.put(
        McpServer(
            name="echo",
            transport=McpTransport.STDIO,
            command="echo-server",
            args=("--x",),
            env={"A": "1"},
        )
    )
    store.put(
        McpServer(
            name="web",
            transport=McpTransport.HTTP,
            url="https://mcp.example.com/mcp",
            headers={"X-Team": "blue"},
        )
    )


async def start(
    workspace: Path, log: Path, http: bool, resume: str | None = None
) -> tuple[list[dict[str, Any]], list[SessionEvent]]:
    env = {"FAKE_PEER_LOG": str(log), "FAKE_PEER_MCP_HTTP": "1" if http else "0"}
    launch = LaunchAcp(name="fake-acp", command=[sys.executable, str(PEER)], env=env)
    factory = make_backend_factory(launch, workspace, ready_timeout=30.0)
    session = Session(factory, workspace=workspace, resume_id=resume)
    events: list[SessionEvent] = []
    session.subscribe(events.append)
    try:
        await session.start()
    finally:
        await session.close()
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    return sent, events


STDIO = {
    "name": "echo",
    "command": "echo-server",
    "args": ["--x"],
    "env": [{"name": "A", "value": "1"}],
}
HTTP = {
    "type": "http",
    "name": "web",
    "url": "https://mcp.example.com/mcp",
    "headers": [{"name": "X-Team", "value": "blue"}],
}


@pytest.mark.asyncio
async def test_session_new_carries_stdio_and_http_servers(tmp_path: Path) -> None:
    configure()
    sent, events = await start(tmp_path, tmp_path / "peer.log", http=True)
    [new] = [m for m in sent if m.get("method") == "session/new"]
    assert new["params"]["mcpServers"] == [STDIO, HTTP]
    notices = [e.message for e in events if isinstance(e, Notice)]
    assert "MCP servers passed to the agent: echo, web." in notices


@pytest.mark.asyncio
async def test_an_agent_without_http_gets_stdio_only_and_the_user_is_told(tmp_path: Path) -> None:
    configure()
    sent, events = await start(tmp_path, tmp_path / "peer.log", http=False)
    [new] = [m for m in sent if m.get("method") == "session/new"]
    assert new["params"]["mcpServers"] == [STDIO]
    warnings = [e for e in events if isinstance(e, Notice) and e.level == "warning"]
    assert [w.message for w in warnings] == [
        "This agent cannot use HTTP MCP servers; not available here: web."
    ]


@pytest.mark.asyncio
async def test_session_load_carries_the_servers_too(tmp_path: Path) -> None:
    configure()
    sent, _ = await start(tmp_path, tmp_path / "peer.log", http=True, resume="s-old")
    [load] = [m for m in sent if m.get("method") == "session/load"]
    assert load["params"]["sessionId"] == "s-old"
    assert load["params"]["mcpServers"] == [STDIO, HTTP]


@pytest.mark.asyncio
async def test_no_servers_configured_sends_an_empty_list(tmp_path: Path) -> None:
    sent, events = await start(tmp_path, tmp_path / "peer.log", http=True)
    [new] = [m for m in sent if m.get("method") == "session/new"]
    assert new["params"]["mcpServers"] == []
    assert not [e for e in events if isinstance(e, Notice) and "MCP" in e.message]
