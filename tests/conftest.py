"""Shared test set-up: every test runs with its own AGENTDESK_HOME."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def agentdesk_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Point AGENTDESK_HOME at a fresh folder so no test touches the real home."""
    home = tmp_path_factory.mktemp("agentdesk-home")
    monkeypatch.setenv("AGENTDESK_HOME", str(home))
    for name in ("PROVIDER", "API_KEY", "BASE_URL", "MODEL", "AGENTDESK_PROTOCOL_LOG"):
        monkeypatch.delenv(name, raising=False)
    return home
