"""Shared test set-up: every test runs with its own AGENTDESK_HOME; under pytest-xdist (two
workers, ``tests/run.sh``) the tests that share one resource never run at the same time: those of
the real keyring take a lock, the folders whose session-scoped build others reuse share a worker.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def agentdesk_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Point AGENTDESK_HOME at a fresh folder so no test touches the real home."""
    home = tmp_path_factory.mktemp("agentdesk-home")
    monkeypatch.setenv("AGENTDESK_HOME", str(home))
    # The automatic update check asks this (discard port: refused at once), never the internet.
    monkeypatch.setenv("AGENTDESK_UPDATE_FEED", "http://127.0.0.1:9/releases/latest")
    for name in ("PROVIDER", "API_KEY", "BASE_URL", "MODEL", "AGENTDESK_PROTOCOL_LOG"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture(autouse=True)
def one_keyring_test_at_a_time(request: pytest.FixtureRequest) -> Iterator[None]:
    """A ``keyring`` test holds a lock for its D-Bus session's one gnome-keyring, whose entries
    (e.g. the ``local`` key) these tests set and delete; other tests and runs are not held up."""
    if request.node.get_closest_marker("keyring") is None:
        yield
        return
    bus = hashlib.sha256(os.environ.get("DBUS_SESSION_BUS_ADDRESS", "").encode()).hexdigest()
    lock_path = Path(tempfile.gettempdir()) / f"agentdesk-test-keyring-{bus[:16]}.lock"
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


#: Folders whose tests reuse one session-scoped build (each xdist worker has its own session):
#: the frozen app and packages of ``tests/packaging`` (minutes), the npm agents of
#: ``tests/agents_real``. Their tests run on one worker, which builds once; the other goes on.
ONE_WORKER = ("tests/packaging/", "tests/agents_real/")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """xdist's ``loadgroup`` scheduling with the ``ONE_WORKER`` folders as groups (largest
    first, so a build starts at once); every other test is scheduled on its own. Another
    ``--dist`` mode asked for on the command line is left to xdist."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FolderGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return next((f for f in ONE_WORKER if nodeid.startswith(f)), nodeid)

    return FolderGroups(config, log)
