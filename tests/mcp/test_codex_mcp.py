"""The configured MCP servers reach Codex as ``-c mcp_servers.*`` overrides, through the real
launch factory and the fake app-server: plain values on the command line, secrets (from the
real keyring) only in its environment, named by ``env_vars`` / ``env_http_headers``, and every
tool call asked about (``default_tools_approval_mode = "prompt"``)."""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from pathlib import Path

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import Decision, Notice, SessionEvent, ToolCategory, ToolRequested
from desktop.core.launch.factory import make_backend_factory
from desktop.core.launch.spec import LaunchCodex
from desktop.core.mcp import McpServer, McpTransport, secret_entry
from desktop.core.mcp.store import McpStore
from desktop.core.protocols.codex.config import CodexOptions
from desktop.core.secrets import SecretStore
from desktop.core.session import Session

PEER = Path(__file__).parents[1] / "fakes" / "fake_codex_peer.py"
HEADER_VAR = "AGENTDESK_MCP_WEB_AUTHORIZATION"


async def start_codex(workspace: Path, log: Path) -> list[SessionEvent]:
    env = {"FAKE_PEER_LOG": str(log), "FAKE_PEER_SHOW_ENV": f"TOKEN,{HEADER_VAR}"}
    launch = LaunchCodex(
        name="codex-fake",
        command=[sys.executable, str(PEER)],
        options=CodexOptions(),
        env=env,
        entry=None,
    )
    session = Session(make_backend_factory(launch, workspace), workspace=workspace)
    events: list[SessionEvent] = []
    session.subscribe(events.append)
    try:
        await session.start()
    finally:
        await session.close()
    return events


@pytest.mark.asyncio
@pytest.mark.keyring
async def test_codex_gets_overrides_and_secrets_only_in_its_environment(tmp_path: Path) -> None:
    token, bearer = f"t-{uuid.uuid4().hex}", f"Bearer {uuid.uuid4().hex}"
    name = f"e{uuid.uuid4().hex[:8]}"
    store = McpStore()
    store.put(
        McpServer(
            name=name,
            transport=McpTransport.STDIO,
            command="echo-server",
            args=("--x",),
            env={"PLAIN": "1"},
            secret_env=("TOKEN",),
        )
    )
    store.put(
        McpServer(
            name="web",
            transport=McpTransport.HTTP,
            url="https://mcp.example.com/mcp",
            headers={"X-Team": "blue"},
            secret_headers=("Authorization",),
        )
    )
    secrets = SecretStore()
    await secrets.set(secret_entry(name, "TOKEN"), token)
    await secrets.set(secret_entry("web", "Authorization"), bearer)
    log = tmp_path / "peer.log"
    try:
        events = await start_codex(tmp_path, log)
    finally:
        await secrets.delete(secret_entry(name, "TOKEN"))
        await secrets.delete(secret_entry("web", "Authorization"))
    started = json.loads(log.read_text().splitlines()[0])
    assert started["argv"] == [
        "-c", f'mcp_servers.{name}.default_tools_approval_mode="prompt"',
        "-c", f'mcp_servers.{name}.command="echo-server"',
        "-c", f'mcp_servers.{name}.args=["--x"]',
        "-c", f'mcp_servers.{name}.env={{"PLAIN" = "1"}}',
        "-c", f'mcp_servers.{name}.env_vars=["TOKEN"]',
        "-c", 'mcp_servers.web.default_tools_approval_mode="prompt"',
        "-c", 'mcp_servers.web.url="https://mcp.example.com/mcp"',
        "-c", 'mcp_servers.web.http_headers={"X-Team" = "blue"}',
        "-c", f'mcp_servers.web.env_http_headers={{"Authorization" = "{HEADER_VAR}"}}',
    ]  # fmt: skip
    assert started["env"] == {"TOKEN": token, HEADER_VAR: bearer}
    notices = [e.message for e in events if isinstance(e, Notice)]
    assert f"MCP servers passed to Codex: {name}, web." in notices


@pytest.mark.asyncio
async def test_without_servers_codex_starts_as_before(tmp_path: Path) -> None:
    log = tmp_path / "peer.log"
    events = await start_codex(tmp_path, log)
    started = json.loads(log.read_text().splitlines()[0])
    assert started["argv"] == []
    assert not [e for e in events if isinstance(e, Notice) and "MCP" in e.message]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("decision", "answer"),
    [(Decision.ONCE, {"action": "accept", "content": {}}), (Decision.DENY, {"action": "decline"})],
)
async def test_codex_asks_about_an_mcp_tool_call_as_an_mcp_approval(
    tmp_path: Path, decision: Decision, answer: dict[str, object]
) -> None:
    log = tmp_path / "peer.log"
    env = {"FAKE_PEER_LOG": str(log), "FAKE_PEER_MCP_APPROVAL": "1"}
    launch = LaunchCodex(
        name="codex-fake", command=[sys.executable, str(PEER)], options=CodexOptions(), env=env
    )
    session = Session(make_backend_factory(launch, tmp_path), workspace=tmp_path)
    asked: list[ToolRequested] = []

    def on(event: SessionEvent) -> None:
        if isinstance(event, ToolRequested) and event.pending:
            asked.append(event)
            session.decide(event.call_id, decision)

    session.subscribe(on)
    try:
        await session.start()
        session.submit(Prompt("go"))
        await asyncio.wait_for(session.wait_idle(), 30)
    finally:
        await session.close()
    [card] = asked
    assert (card.name, card.category) == ("mcp__everything__echo", ToolCategory.MCP)
    assert card.args == {"message": "hi"}
    assert card.description == 'Allow the everything MCP server to run tool "echo"?'
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    assert [m["result"] for m in sent if m.get("id") == 5 and "method" not in m] == [answer]
