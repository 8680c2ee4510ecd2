"""The real Secret Service (gnome-keyring under dbus-run-session). Run with::

    dbus-run-session -- sh -c 'echo -n ci | gnome-keyring-daemon --unlock --components=secrets; \
        pytest -m keyring tests/keyring'
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from desktop.core.secrets import KeySource, SecretStore

pytestmark = pytest.mark.keyring


def agentdesk(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        input=stdin,
        env=os.environ.copy(),
        check=False,
    )


@pytest.mark.asyncio
async def test_secret_service_is_classified_secure_and_stores_keys() -> None:
    store = SecretStore(environ={})
    assert store.status.secure, store.status.message
    assert "SecretService" in store.status.backend
    profile = f"test-{uuid.uuid4().hex[:8]}"
    assert await store.set(profile, "sk-real-keyring-123456") == KeySource.KEYRING
    found = await SecretStore(environ={}).get(profile)
    assert found is not None and found.value.get_secret_value() == "sk-real-keyring-123456"
    assert await store.delete(profile) is True
    assert await store.get(profile) is None


def test_cli_keys_against_the_real_keyring(tmp_path: Path, agentdesk_home: Path) -> None:
    key = f"sk-cli-{uuid.uuid4().hex}"
    stored = agentdesk("keys", "set", "openai", cwd=tmp_path, stdin=key + "\n")
    assert stored.returncode == 0, stored.stderr
    listed = agentdesk("keys", "list", cwd=tmp_path)
    assert "system keyring" in listed.stdout and key not in listed.stdout
    assert f"stored ({key[:3]}…{key[-4:]})" in listed.stdout
    on_disk = [
        p for p in agentdesk_home.rglob("*") if p.is_file() and key.encode() in p.read_bytes()
    ]
    assert on_disk == []
    assert agentdesk("keys", "delete", "openai", cwd=tmp_path).returncode == 0
    assert "openai     no key" in agentdesk("keys", "list", cwd=tmp_path).stdout


def test_cli_keys_stores_a_remote_agents_signing_key(tmp_path: Path, agentdesk_home: Path) -> None:
    name = f"rt-{uuid.uuid4().hex[:8]}"
    added = agentdesk(
        *("agents", "add-remote", name, "--address", "127.0.0.1:9", "--plaintext"),
        *("--user-id", "u", "--workspace-id", "w"),
        cwd=tmp_path,
    )
    assert added.returncode == 0, added.stderr
    key = f"signing-{uuid.uuid4().hex}"
    stored = agentdesk("keys", "set", name, cwd=tmp_path, stdin=key + "\n")
    assert stored.returncode == 0, stored.stderr
    assert "signing key" in stored.stdout and key not in stored.stdout
    listed = agentdesk("keys", "list", name, cwd=tmp_path)
    assert f"stored ({key[:3]}…{key[-4:]})" in listed.stdout and "remote" in listed.stdout
    assert key not in listed.stdout
    on_disk = [
        p for p in agentdesk_home.rglob("*") if p.is_file() and key.encode() in p.read_bytes()
    ]
    assert on_disk == []
    assert agentdesk("keys", "delete", name, cwd=tmp_path).returncode == 0
    refused = agentdesk("keys", "set", f"{name}-missing", cwd=tmp_path, stdin="x\n")
    assert refused.returncode == 2 and "unknown profile or remote agent" in refused.stderr
