"""Shared helpers of the remote runtime tests."""

from __future__ import annotations

from typing import Any

from desktop.core.remote.config import RemoteRuntimeConfig

KEY = b"remote-test-signing-key"


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
