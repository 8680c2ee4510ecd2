"""Where Agent Desk keeps its files.

``AGENTDESK_HOME=DIR`` puts config, data, cache and logs under DIR (tests and scripts rely on
it); otherwise the operating system's usual locations from platformdirs are used.

The window reads two start-up hints from the cache folder before its first paint, so this
module stays cheap to import: a ``NamedTuple`` rather than a dataclass (``dataclasses`` and a
frozen dataclass cost ~3 ms there), and platformdirs is loaded only when it is asked.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

APP_NAME = "agentdesk"
HOME_ENV = "AGENTDESK_HOME"


class AppPaths(NamedTuple):
    """The four folders Agent Desk writes to."""

    config: Path
    data: Path
    cache: Path
    logs: Path

    def ensure(self) -> AppPaths:
        """Create the folders (owner-only permissions) and return self."""
        for folder in self:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        return self


def app_paths(environ: os._Environ[str] | dict[str, str] | None = None) -> AppPaths:
    """Resolve the folders from ``AGENTDESK_HOME`` or platformdirs (not created yet)."""
    env = os.environ if environ is None else environ
    home = env.get(HOME_ENV)
    if home:
        root = Path(home).expanduser().resolve()
        return AppPaths(root / "config", root / "data", root / "cache", root / "logs")
    import platformdirs

    return AppPaths(
        config=Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
        data=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
        cache=Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)),
        logs=Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
    )
