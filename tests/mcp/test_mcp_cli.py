"""``agentdesk mcp list|add|remove|test`` in-process, with the echo server as a real stdio
MCP server and the real keyring for secrets."""

from __future__ import annotations

import asyncio
import io
import json
import sys
import uuid
from pathlib import Path

import pytest

from desktop.cli.main import main
from desktop.core.mcp import secret_entry
from desktop.core.mcp.store import McpStore, mcp_path
from desktop.core.secrets import SecretStore
from tests.mcp.support import ECHO_SERVER


def cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["mcp", *args])
    out, err = capsys.readouterr()
    return code, out, err


def add_echo(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, *extra: str
) -> None:
    code, out, err = cli(
        monkeypatch, capsys, "add", name, "--command", sys.executable,
        "--arg", str(ECHO_SERVER), *extra,
    )  # fmt: skip
    assert code == 0, err
    assert f"Added MCP server {name}" in out


def test_add_list_test_and_remove_a_stdio_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    add_echo(monkeypatch, capsys, "echo", "--env", f"MCP_ECHO_MARKER={marker}")
    add_echo(monkeypatch, capsys, "here", "--workspace", str(tmp_path))
    code, out, _ = cli(monkeypatch, capsys, "list")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("echo") and "[global]" in lines[0]
    assert lines[1].startswith("here") and f"[{tmp_path.resolve()}]" in lines[1]
    code, out, err = cli(monkeypatch, capsys, "test", "echo")
    assert code == 0, err
    assert "MCP server echo is working: 2 tool(s)." in out
    assert "echo " in out and "Return the text unchanged." in out and "add " in out
    code, out, _ = cli(monkeypatch, capsys, "remove", "here")
    assert code == 0 and "Removed MCP server here." in out
    assert [s.name for s in McpStore().config.servers] == ["echo"]
    code, _, err = cli(monkeypatch, capsys, "remove", "here")
    assert code == 2 and "no MCP server 'here'" in err


def test_a_server_that_fails_to_start_is_reported_with_its_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    add_echo(monkeypatch, capsys, "broken", "--arg=--fail-start")
    code, out, err = cli(monkeypatch, capsys, "test", "broken")
    assert code == 1 and out == ""
    assert "MCP server 'broken' failed to start" in err
    assert "mcp_echo_server: cannot start (asked to fail)" in err
    code, _, err = cli(monkeypatch, capsys, "add", "nope", "--command", "/nonexistent/mcp-server")
    assert code == 0
    code, _, err = cli(monkeypatch, capsys, "test", "nope")
    assert code == 1 and "No such file or directory" in err


def test_invalid_servers_are_refused_before_anything_is_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(monkeypatch, capsys, "add", "web", "--url", "ftp://example.com")
    assert code == 2 and "invalid MCP server: url" in err
    code, _, err = cli(monkeypatch, capsys, "add", "x", "--command", "y", "--env", "NOEQUALS")
    assert code == 2 and "--env 'NOEQUALS' is not KEY=VALUE" in err
    code, _, err = cli(monkeypatch, capsys, "add", "x", "--command", "y", "--header", "A=b")
    assert code == 2 and "no URL or headers" in err
    assert not mcp_path().exists()


@pytest.mark.keyring
def test_secrets_are_read_from_stdin_kept_in_the_keyring_and_reach_the_server(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    name = f"k{uuid.uuid4().hex[:10]}"
    value = f"v-{uuid.uuid4().hex}"
    marker = tmp_path / "marker"
    code, out, err = cli(
        monkeypatch, capsys, "add", name, "--command", sys.executable,
        "--arg", str(ECHO_SERVER), "--env", f"MCP_ECHO_MARKER={marker}",
        "--secret-env", "MCP_ECHO_SECRET", "--secret-stdin", stdin=value + "\n",
    )  # fmt: skip
    assert code == 0, err
    assert value not in mcp_path().read_text() and value not in out
    stored = json.loads(mcp_path().read_text())["servers"][0]
    assert stored["secret_env"] == ["MCP_ECHO_SECRET"] and "MCP_ECHO_SECRET" not in stored["env"]
    code, out, err = cli(monkeypatch, capsys, "test", name)
    assert code == 0, err
    assert f"secret={value}" in marker.read_text()
    code, out, _ = cli(monkeypatch, capsys, "remove", name)
    assert code == 0 and "Deleted its secrets" in out
    left = asyncio.run(SecretStore().get(secret_entry(name, "MCP_ECHO_SECRET")))
    assert left is None
