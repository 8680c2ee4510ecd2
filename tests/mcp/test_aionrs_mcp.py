"""The configured MCP servers reach an aionrs-protocol agent: ``add_mcp_server`` after ``ready``
for the workspace's servers (through the real launch factory, the real ``mcp.json`` and the fake
aionrs agent), ``mcp_ready`` and failures shown, an agent without MCP told plainly, and the
protocol log never holding a server's environment values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from desktop.core.events import ErrorEvent, Notice
from desktop.core.mcp import McpServer, McpTransport
from desktop.core.mcp.store import McpStore
from desktop.core.paths import app_paths
from tests.core.support import make_session

REAL, SPEC = "aionrs-0.2", "spec"


def configure(workspace: Path, elsewhere: Path) -> None:
    store = McpStore()
    store.put(
        McpServer(
            name="echo",
            transport=McpTransport.STDIO,
            command="echo-server",
            args=("--flag",),
            env={"PLAIN_VALUE": "visible-only-to-the-agent"},
        )
    )
    store.put(
        McpServer(
            name="web",
            transport=McpTransport.HTTP,
            url="https://mcp.example.com/mcp",
            headers={"X-Team": "blue"},
            workspaces=(str(workspace),),
        )
    )
    store.put(
        McpServer(
            name="other", transport=McpTransport.STDIO, command="x", workspaces=(str(elsewhere),)
        )
    )
    store.put(McpServer(name="broken", transport=McpTransport.STDIO, command="y"))


@pytest.mark.asyncio
@pytest.mark.parametrize("profile", [REAL, SPEC])
async def test_the_workspaces_servers_are_added_and_their_outcome_shown(
    tmp_path: Path, profile: str
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    configure(workspace, tmp_path)
    log = tmp_path / "mcp.log"
    scenario: dict[str, Any] = {
        "mcp": True,
        "mcp_log": str(log),
        "mcp_fail": {"broken": "MCP server 'broken' failed to start: y not found."},
    }
    session, rec = make_session(workspace, profile, scenario, protocol_log=True)
    await session.start()
    try:
        await rec.wait_for(Notice, lambda n: "'web' is ready" in n.message, timeout=20.0)
        await rec.wait_for(Notice, lambda n: "'echo' is ready" in n.message, timeout=20.0)
        error = await rec.wait_for(ErrorEvent, lambda e: e.code == "mcp_error", timeout=20.0)
    finally:
        await session.close()
    assert "'broken' failed to start: y not found." in error.message
    starting = [n.message for n in rec.of(Notice) if n.message.startswith("Starting MCP")]
    assert starting == ["Starting MCP servers: echo, web, broken."]
    sent = {c["name"]: c for c in map(json.loads, log.read_text().splitlines())}
    assert set(sent) == {"echo", "web", "broken"}  # "other" belongs to another workspace
    assert sent["echo"] == {
        "type": "add_mcp_server",
        "name": "echo",
        "transport": "stdio",
        "command": "echo-server",
        "args": ["--flag"],
        "env": {"PLAIN_VALUE": "visible-only-to-the-agent"},
    }
    assert sent["web"] == {
        "type": "add_mcp_server",
        "name": "web",
        "transport": "streamable-http",
        "url": "https://mcp.example.com/mcp",
        "headers": {"X-Team": "blue"},
    }
    [traffic] = (app_paths().logs / "protocol").glob("*.log")
    text = traffic.read_text()
    assert '"add_mcp_server"' in text and '"PLAIN_VALUE":"***"' in text
    assert "visible-only-to-the-agent" not in text and "blue" not in text


@pytest.mark.asyncio
async def test_an_agent_without_mcp_is_told_plainly_and_sent_nothing(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    configure(workspace, tmp_path)
    log = tmp_path / "mcp.log"
    session, rec = make_session(workspace, REAL, {"mcp_log": str(log)})
    await session.start()
    try:
        notice = await rec.wait_for(Notice, lambda n: "cannot use MCP" in n.message, timeout=20.0)
    finally:
        await session.close()
    assert notice.level == "warning"
    assert notice.message == (
        "This agent cannot use MCP servers; not available here: echo, web, broken."
    )
    assert not log.exists()
    assert not [e for e in rec.of(ErrorEvent) if "protocol" in e.code]


@pytest.mark.asyncio
async def test_no_servers_no_commands_and_a_corrupt_file_is_reported(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    McpStore().path.parent.mkdir(parents=True, exist_ok=True)
    McpStore().path.write_text("{broken")
    log = tmp_path / "mcp.log"
    session, rec = make_session(workspace, REAL, {"mcp": True, "mcp_log": str(log)})
    await session.start()
    try:
        notice = await rec.wait_for(Notice, lambda n: "MCP server file" in n.message, 20.0)
    finally:
        await session.close()
    assert notice.level == "warning" and "moved to mcp.json.corrupt-" in notice.message
    assert not log.exists()
