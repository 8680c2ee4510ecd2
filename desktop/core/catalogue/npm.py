"""Install a catalogue agent with npm into Agent Desk's data folder, reporting progress.

``install_lines(entry)`` is an async generator of human-readable progress lines (the window shows
them as they come); it raises ``NpmInstallError`` with npm's own output when the install fails.
Each agent gets its own folder (``<data>/npm/<key>``), so agents never share dependency trees.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path

from desktop.core.catalogue.entries import CatalogueEntry, npm_root
from desktop.core.shell_env import find_program

NPM_FLAGS = ("--no-audit", "--no-fund", "--loglevel=error")


class NpmInstallError(Exception):
    """npm is missing or the install failed; the message carries npm's output."""


def installed_version(folder: Path, entry: CatalogueEntry) -> str | None:
    """The version of ``entry`` installed under ``folder`` (None when absent)."""
    manifest = folder / "node_modules" / entry.package / "package.json"
    try:
        version = json.loads(manifest.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return None
    return version if isinstance(version, str) else None


async def install_lines(
    entry: CatalogueEntry, root: Path | None = None, *, force: bool = False
) -> AsyncIterator[str]:
    """Install ``entry`` (pinned) into ``root/<key>``; yield progress lines.

    Raises:
        NpmInstallError: npm is not installed, or it failed (its output is in the message).
    """
    folder = (root or npm_root()) / entry.key
    if not force and installed_version(folder, entry) == entry.version:
        yield f"{entry.spec} is already installed in {folder}"
        return
    npm = find_program("npm") or shutil.which("npm")
    if npm is None:
        raise NpmInstallError("npm was not found on PATH; install Node.js (which includes npm)")
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "package.json").exists():
        (folder / "package.json").write_text('{"name": "agentdesk-agent", "private": true}\n')
    yield f"Installing {entry.spec} into {folder} ..."
    process = await asyncio.create_subprocess_exec(
        npm,
        "install",
        "--prefix",
        str(folder),
        *NPM_FLAGS,
        entry.spec,
        cwd=str(folder),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert process.stdout is not None
    tail: deque[str] = deque(maxlen=40)
    async for raw in process.stdout:
        line = raw.decode("utf-8", "replace").rstrip()
        if line:
            tail.append(line)
            yield line
    code = await process.wait()
    if code != 0 or installed_version(folder, entry) != entry.version:
        raise NpmInstallError(f"npm install {entry.spec} failed (exit {code}):\n" + "\n".join(tail))
    yield f"Installed {entry.spec}"


async def install(entry: CatalogueEntry, root: Path | None = None) -> list[str]:
    """Install and return every progress line (for callers that do not stream them)."""
    return [line async for line in install_lines(entry, root)]
