"""``agentdesk keys set|list|delete NAME`` for remote runtime agents (their signing key), with an
in-memory keyring; the remote agent then converses with the test runtime using the stored key."""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Iterator
from pathlib import Path

import keyring
import keyring.backends.fail
import pytest
from keyring.backend import KeyringBackend

from desktop.cli.main import main
from desktop.core import secrets
from desktop.core.backend import Prompt
from desktop.core.events import TurnEnded, TurnEndReason
from desktop.core.launch.factory import make_backend_factory
from desktop.core.launch.resolve import resolve
from desktop.core.launch.spec import AgentRef
from desktop.core.secrets import SecretStore
from desktop.core.session import Session
from desktop.core.settings import SettingsStore
from tests.fakes.memory_keyring import InMemoryKeyring
from tests.fakes.runtime_server import RuntimeServer
from tests.remote.support import KEY


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[InMemoryKeyring]:
    """An in-memory keyring that every ``SecretStore()`` treats as secure."""
    backend = InMemoryKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    real = secrets._is_secure

    def trusted(candidate: KeyringBackend) -> bool:
        return candidate is backend or real(candidate)

    monkeypatch.setattr(secrets, "_is_secure", trusted)
    yield backend
    keyring.set_keyring(previous)


def cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def add_remote(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], address: str
) -> None:
    code, _, err = cli(
        monkeypatch,
        capsys,
        *("agents", "add-remote", "cluster", "--address", address, "--plaintext"),
        *("--user-id", "user-1", "--workspace-id", "ws-1"),
    )
    assert code == 0, err


def test_keys_set_list_delete_a_remote_agents_signing_key(
    memory_keyring: InMemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    add_remote(monkeypatch, capsys, "127.0.0.1:9")
    secret = KEY.decode()
    code, out, err = cli(monkeypatch, capsys, "keys", "set", "cluster", stdin=secret + "\n")
    assert code == 0, err
    assert "signing key of cluster" in out and secret not in out
    assert memory_keyring.passwords == {("agentdesk", "cluster"): secret}
    code, out, _ = cli(monkeypatch, capsys, "keys", "list")
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:]}
    assert rows["cluster"][1] == "remote" and rows["cluster"][2] == "stored"
    assert "no key" in " ".join(rows["anthropic"]) and secret not in out
    code, out, _ = cli(monkeypatch, capsys, "keys", "list", "cluster")
    assert code == 0 and [line.split()[0] for line in out.splitlines()[1:]] == ["cluster"]
    code, out, _ = cli(monkeypatch, capsys, "keys", "delete", "cluster")
    assert code == 0 and "Deleted the signing key of cluster" in out
    assert memory_keyring.passwords == {}
    code, _, err = cli(monkeypatch, capsys, "keys", "delete", "cluster")
    assert code == 1 and "no key is stored for cluster" in err
    assert secret not in SettingsStore().path.read_text()


@pytest.mark.parametrize("action", ["set", "delete", "list"])
def test_a_name_that_is_neither_profile_nor_remote_agent_is_refused(
    action: str,
    memory_keyring: InMemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    add_remote(monkeypatch, capsys, "127.0.0.1:9")
    code, out, err = cli(monkeypatch, capsys, "keys", action, "nope", stdin="sk-x\n")
    assert code == 2 and out == ""
    assert "unknown profile or remote agent 'nope'" in err
    assert "profiles: anthropic, openai" in err and "remote agents: cluster" in err
    assert memory_keyring.passwords == {}


def test_a_stale_key_of_a_removed_agent_can_still_be_deleted(
    memory_keyring: InMemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    memory_keyring.passwords[("agentdesk", "gone")] = "old"
    code, out, _ = cli(monkeypatch, capsys, "keys", "delete", "gone")
    assert code == 0 and "Deleted the key of gone" in out and memory_keyring.passwords == {}


def test_signing_key_cannot_be_kept_without_a_secure_keyring(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    try:
        add_remote(monkeypatch, capsys, "127.0.0.1:9")
        code, _, err = cli(monkeypatch, capsys, "keys", "set", "cluster", stdin="k\n")
    finally:
        keyring.set_keyring(previous)
    assert code == 1 and "can only come from the keyring" in err


@pytest.mark.asyncio
async def test_the_stored_signing_key_is_used_to_converse(
    memory_keyring: InMemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    server = RuntimeServer(KEY)
    await server.start()
    try:
        add_remote(monkeypatch, capsys, server.address)
        # `keys set` runs its own event loop, so run it in a thread as a user's shell would.
        code, _, err = await asyncio.to_thread(
            cli, monkeypatch, capsys, "keys", "set", "cluster", stdin=KEY.decode()
        )
        assert code == 0, err
        store = SecretStore(environ={})
        resolved = await resolve(AgentRef("cluster"), SettingsStore().settings, store)
        assert resolved is not None
        session = Session(make_backend_factory(resolved, tmp_path), workspace=tmp_path)
        events: list[object] = []
        session.subscribe(events.append)
        session.submit(Prompt("hi"))
        await asyncio.wait_for(session.wait_idle(), 10)
        await session.close()
        [end] = [e for e in events if isinstance(e, TurnEnded)]
        assert end.reason == TurnEndReason.COMPLETED
    finally:
        await server.stop()
