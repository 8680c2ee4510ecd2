"""HTTP MCP servers (streamable HTTP, the echo server behind a bearer-token check on 127.0.0.1):
``agentdesk mcp test`` with the token as a keyring secret header, a wrong token refused with a
reason, and the built-in agent connecting with the headers ``add_mcp_server`` gives it."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop.cli.main import main
from tests.agent.harness import running
from tests.fakes.fake_llm import FakeLLM
from tests.mcp.support import echo_command
from tests.waiting import wait_until

TOKEN = f"tok-{uuid.uuid4().hex}"


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def http_server(free_tcp_port: int, tmp_path: Path) -> Iterator[str]:
    """The echo server on ``http://127.0.0.1:PORT/mcp`` (requests need ``TOKEN``)."""
    env = {"MCP_ECHO_TOKEN": TOKEN, "MCP_ECHO_MARKER": str(tmp_path / "marker"), "PATH": "/usr/bin"}
    process = subprocess.Popen(
        echo_command("--http", str(free_tcp_port)),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: _listening(free_tcp_port), timeout=30.0, what="the HTTP MCP server")
        yield f"http://127.0.0.1:{free_tcp_port}/mcp"
    finally:
        process.terminate()
        process.wait(15)


def cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["mcp", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.keyring
def test_the_cli_tests_an_http_server_with_a_secret_header(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], http_server: str
) -> None:
    name = f"h{uuid.uuid4().hex[:8]}"
    code, _, err = cli(
        monkeypatch, capsys, "add", name, "--url", http_server, "--header", "X-Team=blue",
        "--secret-header", "Authorization", "--secret-stdin", stdin=f"Bearer {TOKEN}\n",
    )  # fmt: skip
    assert code == 0, err
    try:
        code, out, err = cli(monkeypatch, capsys, "test", name)
        assert code == 0, err
        assert f"MCP server {name} is working: 2 tool(s)." in out
    finally:
        cli(monkeypatch, capsys, "remove", name)


def test_a_wrong_token_is_refused_with_a_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], http_server: str
) -> None:
    code, _, _ = cli(
        monkeypatch, capsys, "add", "web", "--url", http_server,
        "--header", "Authorization=Bearer wrong",
    )  # fmt: skip
    assert code == 0
    code, out, err = cli(monkeypatch, capsys, "test", "web")
    assert code == 1 and out == ""
    assert "MCP server 'web' failed to start" in err


def test_the_builtin_agent_connects_to_an_http_server_with_its_headers(
    workspace: Path, llm: FakeLLM, http_server: str
) -> None:
    with running(workspace, llm, provider="anthropic") as agent:
        agent.send(
            {
                "type": "add_mcp_server",
                "name": "web",
                "transport": "streamable-http",
                "url": http_server,
                "headers": {"Authorization": f"Bearer {TOKEN}"},
            }
        )
        [ready] = agent.until("mcp_ready", timeout=30.0)
    assert ready["tools"] == ["mcp__web__echo", "mcp__web__add"]
