"""Fixtures for the remote runtime tests: a real gRPC test runtime on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio

from desktop.core.remote.config import RemoteRuntimeConfig
from tests.fakes.runtime_server import RuntimeServer

KEY = b"remote-test-signing-key"


@pytest_asyncio.fixture
async def runtime() -> AsyncIterator[RuntimeServer]:
    """A plaintext test runtime that accepts tokens signed with ``KEY``."""
    server = RuntimeServer(KEY)
    await server.start()
    yield server
    await server.stop()


def remote_config(address: str, **overrides: Any) -> RemoteRuntimeConfig:
    """A plaintext configuration for ``address``."""
    values: dict[str, Any] = {
        "address": address,
        "user_id": "user-1",
        "workspace_id": "ws-1",
        "agent_id": "wally",
        "connect_timeout": 5.0,
    }
    values.update(overrides)
    return RemoteRuntimeConfig(**values)
