"""End to end through the host: the configured server (with a secret from the real keyring)
reaches the built-in agent, launched as the app launches it, with ``add_mcp_server``; the
model's call of ``mcp__echo__echo`` is asked about in the ``mcp`` category, approved, reaches
the server and its result goes back to the model."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import Decision, Notice, SessionEvent, ToolCategory, ToolRequested
from desktop.core.launch.factory import make_backend_factory
from desktop.core.launch.locate import builtin_agent_command
from desktop.core.launch.spec import LaunchAionrs
from desktop.core.mcp import McpServer, McpTransport, secret_entry
from desktop.core.mcp.store import McpStore
from desktop.core.secrets import SecretStore
from desktop.core.session import Session
from tests.agent.harness import ROOT
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn, anthropic_tool_results
from tests.mcp.support import echo_command


@pytest.mark.asyncio
@pytest.mark.keyring
async def test_a_configured_server_reaches_the_builtin_agent_and_a_call_is_approved(
    tmp_path: Path, llm: FakeLLM
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    marker = tmp_path / "marker"
    secret = f"s-{uuid.uuid4().hex}"
    name = "echo"
    command, *args = echo_command()
    McpStore().put(
        McpServer(
            name=name,
            transport=McpTransport.STDIO,
            command=command,
            args=tuple(args),
            env={"MCP_ECHO_MARKER": str(marker)},
            secret_env=("MCP_ECHO_SECRET",),
        )
    )
    keyring = SecretStore()
    await keyring.set(secret_entry(name, "MCP_ECHO_SECRET"), secret)
    call = ToolCallSpec("mcp__echo__echo", {"text": "through the host"}, "t1")
    llm.add(Turn(tool_calls=[call]), {"text": "Done."})
    flags = ["--provider", "anthropic", "--model", "m", "--base-url", llm.url]
    launch = LaunchAionrs(
        name="builtin",
        command=[*builtin_agent_command(), *flags],
        env={"PYTHONPATH": str(ROOT), "NO_PROXY": "127.0.0.1"},
        keys={"ANTHROPIC_API_KEY": "sk-ant-fake"},
    )
    session = Session(make_backend_factory(launch, workspace), workspace=workspace)
    events: list[SessionEvent] = []
    ready = asyncio.Event()

    def on(event: SessionEvent) -> None:
        events.append(event)
        if isinstance(event, Notice) and "'echo' is ready" in event.message:
            ready.set()
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, Decision.ONCE)

    session.subscribe(on)
    try:
        await session.start()
        await asyncio.wait_for(ready.wait(), 30)
        session.submit(Prompt("Echo it"))
        await asyncio.wait_for(session.wait_idle(), 60)
    finally:
        await session.close()
        await keyring.delete(secret_entry(name, "MCP_ECHO_SECRET"))
    [asked] = [e for e in events if isinstance(e, ToolRequested)]
    assert asked.name == "mcp__echo__echo" and asked.category == ToolCategory.MCP
    lines = marker.read_text().splitlines()
    assert f"secret={secret}" in lines  # the keyring's secret reached the server's environment
    assert 'echo {"text": "through the host"}' in lines
    tools = {t["name"] for t in llm.model_requests[0].body["tools"]}
    assert {"mcp__echo__echo", "mcp__echo__add"} <= tools
    assert anthropic_tool_results(llm.model_requests[1].body) == {"t1": ("through the host", False)}
