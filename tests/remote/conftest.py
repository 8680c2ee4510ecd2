"""Fixtures for the remote runtime tests: a real gRPC test runtime on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.fakes.runtime_server import RuntimeServer
from tests.remote.support import KEY


@pytest_asyncio.fixture
async def runtime() -> AsyncIterator[RuntimeServer]:
    """A plaintext test runtime that accepts tokens signed with ``KEY``."""
    server = RuntimeServer(KEY)
    await server.start()
    yield server
    await server.stop()
