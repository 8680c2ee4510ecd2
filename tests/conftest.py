"""Shared test set-up: every test runs with its own AGENTDESK_HOME; under pytest-xdist the tests
that share one resource run one after another on one worker (``_shared_resource``)."""

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


#: Session-scoped fixtures that fill one folder outside the test's own (each pytest-xdist worker
#: has its own session, so two workers would build into it at once): the packaging tests' frozen
#: build (``build/packaging-cache``, minutes of work) and the real agents' npm packages.
ONE_BUILDER = {"built": "packaging-build", "npm_agents": "npm-agents"}


def _shared_resource(item: pytest.Item) -> str | None:
    """The resource only one worker may use, if ``item`` uses one: a fixture of ``ONE_BUILDER``,
    or the D-Bus session's one gnome-keyring (the ``keyring`` tests set and delete its entries,
    e.g. the ``local`` key)."""
    for fixture in getattr(item, "fixturenames", ()):
        if fixture in ONE_BUILDER:
            return ONE_BUILDER[fixture]
    if item.get_closest_marker("keyring") is not None:
        return "keyring"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With pytest-xdist (``--dist loadgroup``), the tests of one shared resource share a worker."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        group = _shared_resource(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
