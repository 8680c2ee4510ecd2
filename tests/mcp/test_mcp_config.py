"""The MCP server configuration: the model's rules, ``mcp.json`` (atomic, a corrupt file kept
aside), and resolution for a workspace with secrets from the real keyring."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path

import pytest
from pydantic import ValidationError

from desktop.core.mcp import McpConfig, McpServer, McpTransport, secret_entry
from desktop.core.mcp.resolve import resolve_servers, workspace_servers
from desktop.core.mcp.store import McpStore, mcp_path
from desktop.core.secrets import SecretStore


def stdio(name: str = "echo", **extra: object) -> McpServer:
    return McpServer.model_validate(
        {"name": name, "transport": "stdio", "command": "python", **extra}
    )


def test_the_model_refuses_what_cannot_work() -> None:
    with pytest.raises(ValidationError, match="needs a command"):
        McpServer(name="a", transport=McpTransport.STDIO)
    with pytest.raises(ValidationError, match="needs a URL"):
        McpServer(name="a", transport=McpTransport.HTTP)
    with pytest.raises(ValidationError, match="no URL"):
        stdio(url="http://x")
    with pytest.raises(ValidationError):
        stdio(name="a__b")  # the name is part of mcp__<server>__<tool>
    with pytest.raises(ValidationError, match="both plain and secret"):
        stdio(env={"TOKEN": "x"}, secret_env=["TOKEN"])
    with pytest.raises(ValidationError, match="used twice"):
        McpConfig(servers=(stdio(), stdio()))


def test_the_store_saves_atomically_and_reloads(tmp_path: Path) -> None:
    store = McpStore()
    assert store.path == mcp_path() and store.config.servers == ()
    store.put(stdio(args=["-m", "x"], env={"A": "1"}))
    store.put(McpServer(name="web", transport=McpTransport.HTTP, url="https://example.com/mcp"))
    again = McpStore()
    assert [s.name for s in again.config.servers] == ["echo", "web"]
    assert again.config.server("echo") == stdio(args=["-m", "x"], env={"A": "1"})
    assert again.remove("echo") and not again.remove("echo")
    assert [s.name for s in McpStore().config.servers] == ["web"]
    assert not list(mcp_path().parent.glob(".mcp.json.*.tmp"))


@pytest.mark.parametrize(
    "content", ["{not json", json.dumps({"version": 1, "servers": [{"name": "x"}]})]
)
def test_a_corrupt_file_is_kept_aside_with_a_clear_message(content: str) -> None:
    path = mcp_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    store = McpStore()
    assert store.config.servers == ()
    assert len(store.messages) == 1 and "moved to mcp.json.corrupt-" in store.messages[0]
    kept = list(path.parent.glob("mcp.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == content
    assert not path.exists()  # nothing overwritten until the user saves


def test_servers_apply_globally_or_to_their_workspaces(tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    config = McpConfig(
        servers=(
            stdio("everywhere"),
            stdio("only-here", workspaces=[str(here)]),
            stdio("off", enabled=False),
        )
    )
    found = asyncio.run(resolve_servers(config, here, None))
    assert [s.name for s in found.servers] == ["everywhere", "only-here"]
    found = asyncio.run(resolve_servers(config, there, None))
    assert [s.name for s in found.servers] == ["everywhere"]


def test_without_a_keyring_a_server_that_needs_a_secret_is_left_out_with_a_reason(
    tmp_path: Path,
) -> None:
    config = McpConfig(servers=(stdio("needs", secret_env=["TOKEN"]), stdio("plain")))
    found = asyncio.run(resolve_servers(config, tmp_path, None))
    assert [s.name for s in found.servers] == ["plain"]
    assert "'needs' was left out" in found.problems[0]


@pytest.mark.keyring
def test_secrets_come_from_the_keyring_and_never_reach_the_file(tmp_path: Path) -> None:
    name = f"s{uuid.uuid4().hex[:10]}"
    value = f"secret-{uuid.uuid4().hex}"
    store = McpStore()
    store.put(stdio(name, env={"PLAIN": "1"}, secret_env=["TOKEN"]))
    store.put(
        McpServer(
            name=f"{name}-web",
            transport=McpTransport.HTTP,
            url="https://example.com/mcp",
            secret_headers=("Authorization",),
        )
    )
    secrets = SecretStore()
    assert secrets.status.secure

    async def scenario() -> None:
        missing = await workspace_servers(tmp_path)
        assert missing.servers == () and len(missing.problems) == 2
        assert "TOKEN is not in the keyring" in missing.problems[0]
        await secrets.set(secret_entry(name, "TOKEN"), value)
        await secrets.set(secret_entry(f"{name}-web", "Authorization"), "Bearer " + value)
        try:
            found = await workspace_servers(tmp_path)
        finally:
            await secrets.delete(secret_entry(name, "TOKEN"))
            await secrets.delete(secret_entry(f"{name}-web", "Authorization"))
        local, web = found.servers
        assert local.env == {"PLAIN": "1", "TOKEN": value}
        assert web.headers == {"Authorization": "Bearer " + value}
        assert value not in repr(local) and value not in repr(web)
        assert value in found.secret_values()

    asyncio.run(scenario())
    assert value not in mcp_path().read_text()
