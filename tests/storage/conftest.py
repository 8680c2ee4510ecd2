"""Fixtures of the storage tests: an in-memory keyring classified as if it were the OS store."""

from __future__ import annotations

from collections.abc import Iterator

import keyring
import pytest
from keyring.backend import KeyringBackend

from desktop.core import secrets
from tests.fakes.memory_keyring import InMemoryKeyring


@pytest.fixture
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[InMemoryKeyring]:
    """Install an in-memory keyring that every ``SecretStore()`` treats as secure."""
    backend = InMemoryKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    real = secrets._is_secure

    def trusted(candidate: KeyringBackend) -> bool:
        return candidate is backend or real(candidate)

    monkeypatch.setattr(secrets, "_is_secure", trusted)
    yield backend
    keyring.set_keyring(previous)
