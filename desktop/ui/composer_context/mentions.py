"""The ``@`` file finder: the workspace's files, listed in a worker thread and ranked per
keystroke (``desktop.core.context.files``), offered in the popup; a picked file becomes an
``@path`` token in the prompt and goes with it as a mentioned file.

The list is made when the finder first opens and made again, in the background, when it opens
more than ``STALE_S`` seconds after the last listing (files the agent wrote since show up).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication

from desktop.core.context.files import FileIndex, list_files
from desktop.ui.composer_context.popup import PopupChoice
from desktop.ui.composer_context.tokens import MENTION

log = logging.getLogger(__name__)

# Seconds after which an opening finder lists the workspace again.
STALE_S = 10.0
# Rows the finder offers.
SHOWN = 30

Spawn = Callable[[Coroutine[Any, Any, None]], object]


class FileMentions:
    """The finder's file index of one workspace and the files picked into the prompt."""

    def __init__(self, workspace: Path, spawn: Spawn, on_listed: Callable[[], None]) -> None:
        self.workspace = workspace
        self._spawn = spawn
        self._on_listed = on_listed
        self.index: FileIndex | None = None
        self._listed_at = 0.0
        self._listing = False
        # Picked mentions: the token's path (relative, ``/``-separated) → the file's path.
        self.picked: dict[str, str] = {}

    def opened(self) -> None:
        """The finder opened: list the files if never listed or listed long ago."""
        fresh = self.index is not None and time.monotonic() - self._listed_at < STALE_S
        if self._listing or fresh:
            return
        self._listing = True
        self._spawn(self._list())

    async def _list(self) -> None:
        try:
            paths = await asyncio.to_thread(list_files, self.workspace)
            self.index = await asyncio.to_thread(FileIndex, paths)
            self._listed_at = time.monotonic()
        except OSError:
            log.warning("could not list the files of %s", self.workspace, exc_info=True)
        finally:
            self._listing = False
        self._on_listed()

    def heading(self) -> str:
        """The popup's heading: what the finder searches, or that it is listing."""
        if self.index is None:
            return QCoreApplication.translate("ComposerContext", "Listing the workspace's files…")
        return QCoreApplication.translate("ComposerContext", "Files in {0}").format(
            self.workspace.name
        )

    def choices(self, query: str) -> list[PopupChoice]:
        """The files for ``query``, best first (none until the files are listed)."""
        if self.index is None:
            return []
        rows = []
        for match in self.index.query(query, limit=SHOWN):
            folder, _, name = match.path.rpartition("/")
            rows.append(PopupChoice(match.path, name, folder))
        return rows

    def pick(self, path: str) -> str:
        """Remember a picked file; the token to put in the prompt (``@path``)."""
        self.picked[path] = str(self.workspace / path)
        return f"@{path}"

    def files_in(self, text: str) -> list[str]:
        """The picked files whose ``@path`` token is still in ``text``, in their order there."""
        found: list[str] = []
        for match in MENTION.finditer(text):
            file = self.picked.get(match.group(1))
            if file is not None and file not in found:
                found.append(file)
        return found
