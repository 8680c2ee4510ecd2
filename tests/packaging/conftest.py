"""Builds the frozen onedir, the .deb and the AppDir once, for every packaging test.

The build (PyInstaller, then dpkg-deb; gzip -1 here, xz for releases) takes minutes on 2 cores,
so it is cached in ``build/packaging-cache/<hash>``, keyed by a hash of everything that goes
into it (the app's sources, the packaging scripts, resources, the Python and PyInstaller
versions). A changed source gives a new key and a fresh build; older cache folders are removed.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
CACHE = ROOT / "build" / "packaging-cache"
BUILD_TIMEOUT = 1500
sys.path.insert(0, str(PACKAGING))


@dataclass(frozen=True)
class Built:
    """Where the artifacts of this session's build are."""

    folder: Path
    onedir: Path
    executable: Path
    deb: Path
    appdir: Path


def _source_key() -> str:
    import PyInstaller

    digest = hashlib.sha256()
    digest.update(f"{sys.version} {platform.machine()} {PyInstaller.__version__}".encode())
    files = [
        *(ROOT / "desktop").rglob("*"),
        *PACKAGING.rglob("*"),
        *(ROOT / "resources").rglob("*"),
    ]
    for path in sorted(p for p in files if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _build(folder: Path) -> None:
    # gzip -1 instead of the release's xz: the same package contents in ~3 s instead of ~50 s
    # of both cores (benchmarks/packaging_sizes.py measures the release compression).
    env = {**os.environ, "AGENTDESK_DEB_COMPRESSION": "-Zgzip -z1"}
    for step in ("freeze", "deb", "appdir"):
        subprocess.run(
            [sys.executable, str(PACKAGING / "build.py"), "--build-dir", str(folder), step],
            check=True,
            timeout=BUILD_TIMEOUT,
            cwd=ROOT,
            env=env,
        )
    (folder / "complete").write_text("ok")


@pytest.fixture(scope="session")
def built() -> Iterator[Built]:
    """The onedir, .deb and AppDir of the current sources (built once, cached by hash).

    A lock file guards the cache across pytest processes (xdist workers, or two runs at once):
    a build is used under a shared lock and made under an exclusive one, so no process removes
    a build (or half of one) that another is making or testing."""
    folder = CACHE / _source_key()
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE.parent / "packaging-cache.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        if not (folder / "complete").exists():
            fcntl.flock(lock, fcntl.LOCK_EX)  # waits for the sessions using older builds
            if not (folder / "complete").exists():  # another process may have built it
                for old in CACHE.iterdir():
                    shutil.rmtree(old, ignore_errors=True)
                folder.mkdir()
                _build(folder)
            fcntl.flock(lock, fcntl.LOCK_SH)  # until this session ends
        onedir = folder / "dist" / "agentdesk"
        yield Built(
            folder=folder,
            onedir=onedir,
            executable=onedir / "agentdesk",
            deb=next(folder.glob("agentdesk_*.deb")),
            appdir=folder / "AgentDesk.AppDir",
        )
