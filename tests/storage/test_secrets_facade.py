"""The keyring facade: classification, fallbacks, timeouts and errors (in-memory backends)."""

from __future__ import annotations

import threading

import keyring.errors
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail, null

from desktop.core import secrets
from desktop.core.secrets import KeySource, SecretStore, SecretStoreError, mask, select_backend
from tests.fakes.memory_keyring import InMemoryKeyring


class SlowKeyring(InMemoryKeyring):
    """Blocks like a keyring waiting for an unlock prompt."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def get_password(self, service: str, username: str) -> str | None:
        self.release.wait(10)
        return None


class DismissedKeyring(InMemoryKeyring):
    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.InitError("Failed to unlock the collection: Prompt dismissed.")


def test_classification() -> None:
    assert select_backend(fail.Keyring())[1] is False
    assert select_backend(null.Keyring())[1] is False
    assert select_backend(InMemoryKeyring())[1] is False  # unknown backends are not trusted
    from keyring.backends import SecretService

    secret_service = SecretService.Keyring()
    assert select_backend(secret_service) == (secret_service, True)


def test_chainer_uses_only_its_secure_member(monkeypatch: pytest.MonkeyPatch) -> None:
    from keyring.backends import SecretService

    secure, plain = SecretService.Keyring(), InMemoryKeyring()
    chain = chainer.ChainerBackend()
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [plain, secure])
    assert select_backend(chain) == (secure, True)
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [plain])
    assert select_backend(chain) == (chain, False)


@pytest.mark.asyncio
async def test_secure_store_roundtrip() -> None:
    backend = InMemoryKeyring()
    store = SecretStore(backend, secure=True, environ={})
    assert await store.get("work", "anthropic") is None
    assert await store.set("work", "  sk-ant-secret-value  \n") == KeySource.KEYRING
    assert backend.passwords == {("agentdesk", "work"): "sk-ant-secret-value"}
    found = await store.get("work", "anthropic")
    assert found is not None and found.source == KeySource.KEYRING
    assert found.value.get_secret_value() == "sk-ant-secret-value"
    assert "sk-ant" not in repr(found)
    assert await store.delete("work") is True
    assert await store.delete("work") is False
    with pytest.raises(ValueError, match="empty"):
        await store.set("work", "   ")


@pytest.mark.asyncio
async def test_without_a_secure_store_keys_stay_in_memory(
    caplog: pytest.LogCaptureFixture, agentdesk_home: object
) -> None:
    backend = InMemoryKeyring()
    store = SecretStore(backend, environ={"OPENAI_API_KEY": "sk-from-env-123"})
    assert not store.status.secure and "memory for this run only" in store.status.message
    assert [r.levelname for r in caplog.records if r.name == secrets.__name__] == ["WARNING"]
    assert await store.set("anthropic", "sk-typed-in-ui") == KeySource.MEMORY
    assert backend.passwords == {}  # never written anywhere
    found = await store.get("anthropic", "anthropic")
    assert found is not None and found.source == KeySource.MEMORY
    env = await store.get("openai", "openai")
    assert env is not None and env.source == KeySource.ENVIRONMENT
    assert SecretStore(backend, announce=False) is not None
    assert len([r for r in caplog.records if r.name == secrets.__name__]) == 1


@pytest.mark.asyncio
async def test_a_stuck_keyring_times_out_with_a_clear_error() -> None:
    backend = SlowKeyring()
    store = SecretStore(backend, secure=True, timeout=0.2, environ={})
    with pytest.raises(SecretStoreError, match=r"did not answer within 0\.2 s"):
        await store.get("work")
    backend.release.set()


@pytest.mark.asyncio
async def test_dismissed_prompt_is_explained() -> None:
    store = SecretStore(DismissedKeyring(), secure=True, environ={})
    with pytest.raises(SecretStoreError, match="locked and the unlock prompt was dismissed"):
        await store.set("work", "sk-x")


def test_mask_never_shows_the_key() -> None:
    assert mask("sk-ant-api03-abcdefghijklmnop") == "sk-…mnop"
    assert mask("short") == "••••••••"


def test_default_backend_here_is_classified(memory_keyring: KeyringBackend) -> None:
    assert SecretStore().status.secure  # the fixture's backend, trusted for tests
