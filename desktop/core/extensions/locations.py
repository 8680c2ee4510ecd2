"""Where extensions are looked for: a module with no heavy imports, so ``agentdesk exec`` can
decide that nothing could load without importing the extension runtime."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

PATH_ENV = "AGENTDESK_EXTENSIONS_PATH"
WORKSPACE_FOLDER = Path(".agentdesk") / "extensions"


def env_roots(environ: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """The folders listed in ``AGENTDESK_EXTENSIONS_PATH`` (``os.pathsep``-separated)."""
    env = os.environ if environ is None else environ
    return tuple(Path(p).expanduser() for p in env.get(PATH_ENV, "").split(os.pathsep) if p)


def search_roots(config_dir: Path, workspace: Path | None) -> list[Path]:
    """Every folder user, environment and workspace extensions may live in."""
    roots = [config_dir / "extensions", *env_roots()]
    if workspace is not None:
        roots.append(workspace / WORKSPACE_FOLDER)
    return roots
