"""What the window remembers between starts to paint its first frame sooner.

Two hints are read before the first paint: the last workspace (``agentdesk`` alone opens it)
and the desktop's colour scheme at the previous start (asking the desktop builds every ``Qt``
enum, ~15 ms, so that is done after the paint; see ``desktop.ui.theme``). Both are caches:
``recent_workspaces`` in the core's settings stays the record of the workspaces.

They live in Qt's own settings file (``QSettings``, INI format), because Qt finds its folder
without platformdirs (~5 ms to import before the paint) and without pydantic: on Linux
``$XDG_CONFIG_HOME/agentdesk/window.ini``, beside the core's settings. With ``AGENTDESK_HOME``
(tests, scripts) it is ``$AGENTDESK_HOME/config/window.ini``, so separate homes never share it.
A missing, unreadable or foreign value reads as "no hint": the start is merely slower.
"""

from __future__ import annotations

import logging
import os
from functools import cache
from pathlib import Path

from PySide6.QtCore import QSettings

from desktop.core.paths import APP_NAME, HOME_ENV

log = logging.getLogger(__name__)

_LAST_WORKSPACE = "startup/last-workspace"
_COLOUR_SCHEME = "startup/color-scheme"


def store() -> QSettings:
    """The settings file of this ``AGENTDESK_HOME`` (or of the user); also holds what the
    window remembers of its look (zoom, geometry per workspace, sidebar: ``desktop.ui.zoom``,
    ``desktop.ui.window_state``)."""
    return _store_for(os.environ.get(HOME_ENV) or "")


@cache
def _store_for(home: str) -> QSettings:
    """One ``QSettings`` per home (tests give each test its own), reused: reads are cached."""
    if home:
        path = Path(home).expanduser().resolve() / "config" / "window.ini"
        return QSettings(str(path), QSettings.Format.IniFormat)
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, APP_NAME, "window")


def location() -> str:
    """The file's path (also what tells one user's or one home's instance from another's)."""
    return store().fileName()


def last_workspace() -> Path | None:
    """The workspace opened last, when it is still a folder."""
    value = store().value(_LAST_WORKSPACE)
    if not isinstance(value, str) or not value:
        return None
    path = Path(value)
    return path if path.is_absolute() and path.is_dir() else None


def remembered_scheme() -> bool | None:
    """The colour scheme at the previous start (True: dark); None when unknown."""
    value = store().value(_COLOUR_SCHEME)
    return {"dark": True, "light": False}.get(value if isinstance(value, str) else "")


def remember(*, workspace: Path | None = None, dark: bool | None = None) -> None:
    """Store the hints given, and write the file now (a later crash keeps them)."""
    hints = store()
    if workspace is not None:
        hints.setValue(_LAST_WORKSPACE, str(workspace))
    if dark is not None:
        hints.setValue(_COLOUR_SCHEME, "dark" if dark else "light")
    hints.sync()
    if hints.status() != QSettings.Status.NoError:
        log.warning("could not save the start-up hints to %s", hints.fileName())
