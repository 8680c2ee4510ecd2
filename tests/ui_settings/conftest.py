"""Fixtures for the Settings/extensions window tests: the window test fixtures (offscreen Qt, a
qasync loop, the fake aionrs agent) plus an in-memory keyring that is classified as secure."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from desktop.core.secrets import SecretStore
from tests.fakes.memory_keyring import InMemoryKeyring
from tests.ui.conftest import (  # noqa: F401 - fixtures re-used from the window tests
    Driver,
    _theme,
    driver,
    ignore_known_messages,
    qloop,
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The known offscreen-plugin messages (tests/ui/conftest.py), in this folder's tests."""
    ignore_known_messages(items, Path(__file__).parent)


@pytest.fixture
def keyring_backend() -> InMemoryKeyring:
    return InMemoryKeyring()


@pytest.fixture
def secrets(keyring_backend: InMemoryKeyring) -> SecretStore:
    """A keyring facade over the in-memory backend, treated as a secure store."""
    return SecretStore(keyring_backend, secure=True, timeout=5.0)


@pytest.fixture(autouse=True)
def _plain_thread_pool(qloop: asyncio.AbstractEventLoop) -> Iterator[None]:  # noqa: F811
    """Run ``asyncio.to_thread`` work (keyring, program look-ups) on plain Python threads.

    qasync's default executor is a ``QThreadExecutor``; with the keyring, catalogue and HTTP
    client calls of these tests it crashed the process now and then (segfault in
    ``run_forever``, qasync#153/#154). A ``ThreadPoolExecutor`` avoids QThreads entirely.
    """
    pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="test-io")
    qloop.set_default_executor(pool)
    yield
    pool.shutdown(wait=True)
