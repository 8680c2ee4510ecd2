"""``agentdesk agents add-remote`` writes a real settings file; the stored agent then converses
through the keyring helper with the test runtime."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from keyring.backend import KeyringBackend

from desktop.cli import exec_command
from desktop.cli.main import main
from desktop.core.backend import Prompt
from desktop.core.events import TextDelta, TurnEnded, TurnEndReason
from desktop.core.launch.factory import make_backend_factory
from desktop.core.launch.resolve import resolve
from desktop.core.launch.spec import AgentRef, MissingSigningKeyError
from desktop.core.remote.config import RemoteRuntimeConfig, TlsMode
from desktop.core.secrets import SecretStore
from desktop.core.session import Session
from desktop.core.settings import RemoteAgent, SettingsStore
from tests.fakes.runtime_server import RuntimeServer
from tests.remote.support import KEY


class DictKeyring(KeyringBackend):
    """A keyring that keeps passwords in a dict (no real keychain is touched)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        del self.passwords[(service, username)]


def add_remote(*extra: str, name: str = "cluster", address: str = "127.0.0.1:42618") -> int:
    head = ["agents", "add-remote", name, "--address", address]
    return main([*head, "--user-id", "user-1", "--workspace-id", "ws-1", *extra])


def test_add_remote_writes_settings_without_a_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ca = tmp_path / "ca.pem"
    ca.write_text("not checked until connecting")
    assert add_remote("--agent-id", "wally", "--ca", str(ca)) == 0
    assert "agentdesk keys set cluster" in capsys.readouterr().out
    agent = SettingsStore().settings.agent("cluster")
    assert isinstance(agent, RemoteAgent)
    assert agent.runtime.tls == TlsMode.CUSTOM_CA
    assert agent.runtime.ca_file == ca.resolve()
    assert (agent.runtime.user_id, agent.runtime.workspace_id, agent.runtime.agent_id) == (
        "user-1",
        "ws-1",
        "wally",
    )
    (entry,) = [
        a for a in json.loads(SettingsStore().path.read_text())["agents"] if a["name"] == "cluster"
    ]
    assert set(entry["runtime"]) == set(RemoteRuntimeConfig.model_fields)
    assert not [field for field in entry["runtime"] if "signing" in field or field == "key"]
    assert main(["agents", "list"]) == 0
    assert "cluster" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (["--user-id", "a:b"], "must not contain ':'"),
        (["--plaintext", "--ca", "x.pem"], "--plaintext cannot be combined"),
        (["--client-cert", "c.pem"], "needs both"),
    ],
)
def test_add_remote_refuses_bad_settings(
    extra: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert add_remote(*extra) == 2
    assert problem in capsys.readouterr().err
    assert SettingsStore().settings.agent("cluster") is None


def test_add_remote_refuses_a_duplicate_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert add_remote("--plaintext") == 0
    assert add_remote("--plaintext") == 2
    assert "already exists" in capsys.readouterr().err


@pytest.mark.asyncio
async def test_stored_remote_agent_converses_with_its_keyring_key(runtime: RuntimeServer) -> None:
    assert add_remote("--plaintext", address=runtime.address) == 0
    agent = SettingsStore().settings.agent("cluster")
    assert isinstance(agent, RemoteAgent)
    secrets = SecretStore(DictKeyring(), secure=True, environ={})
    with pytest.raises(MissingSigningKeyError, match="agentdesk keys set cluster"):
        await resolve(AgentRef(agent.name), SettingsStore().settings, secrets)
    await secrets.set("cluster", KEY.decode())
    launch = await resolve(AgentRef(agent.name), SettingsStore().settings, secrets)
    factory = make_backend_factory(launch, Path.cwd())
    session = Session(factory, workspace=Path.cwd())
    events: list[object] = []
    session.subscribe(events.append)
    turn = session.submit(Prompt("hi"))
    await asyncio.wait_for(session.wait_idle(), 10)
    await session.close()
    (end,) = [e for e in events if isinstance(e, TurnEnded)]
    assert end.turn_id == turn and end.reason == TurnEndReason.COMPLETED
    assert "".join(e.text for e in events if isinstance(e, TextDelta)).startswith("echo: hi")


@pytest.fixture
def threaded_runtime() -> Iterator[RuntimeServer]:
    """A test runtime on its own event loop thread, for commands that run ``asyncio.run``."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = RuntimeServer(KEY)
    asyncio.run_coroutine_threadsafe(server.start(), loop).result(10)
    yield server
    asyncio.run_coroutine_threadsafe(server.stop(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)
    loop.close()


def test_exec_agent_name_converses_with_a_stored_remote_runtime(
    threaded_runtime: RuntimeServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert add_remote("--plaintext", address=threaded_runtime.address) == 0
    keyring = DictKeyring()
    keyring.set_password("agentdesk", "cluster", KEY.decode())
    monkeypatch.setattr(
        exec_command, "SecretStore", lambda: SecretStore(keyring, secure=True, environ={})
    )
    capsys.readouterr()
    code = main(["exec", "--agent", "cluster", "--no-history", "--json", "-p", "hi", "-p", "again"])
    out = capsys.readouterr().out
    assert code == 0, out
    events = [json.loads(line) for line in out.splitlines() if line.strip()]
    ready = next(e for e in events if e["type"] == "agent_ready")
    assert ready["protocol"] == "remote"
    text = "".join(e["text"] for e in events if e["type"] == "text_delta")
    sid = ready["session_id"]
    assert f"echo: hi [turn 1 of {sid}]" in text and f"echo: again [turn 2 of {sid}]" in text
    assert [e["reason"] for e in events if e["type"] == "turn_ended"] == ["completed", "completed"]


def test_exec_remote_agent_without_a_key_says_how_to_store_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert add_remote("--plaintext") == 0
    monkeypatch.setattr(
        exec_command, "SecretStore", lambda: SecretStore(DictKeyring(), secure=True, environ={})
    )
    assert main(["exec", "--agent", "cluster", "--no-history", "-p", "hi"]) == 3
    assert "agentdesk keys set cluster" in capsys.readouterr().err
