"""Loading and saving ``mcp.json`` (the MCP servers), atomically, never losing a broken file.

A missing file is an empty configuration. A file that is not valid JSON or not a valid
configuration is moved aside (``mcp.json.corrupt-STAMP``), the reason is kept in ``messages``
in words for the user, and an empty configuration is used; nothing is overwritten until the
user saves. Saving validates first and replaces the file through ``atomic_write``.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

from pydantic import ValidationError

from desktop.core.atomic_file import atomic_write
from desktop.core.mcp.model import McpConfig, McpServer
from desktop.core.paths import app_paths

log = logging.getLogger(__name__)


def mcp_path() -> Path:
    """Where the MCP servers are kept (``<config>/mcp.json``)."""
    return app_paths().config / "mcp.json"


class McpStore:
    """The MCP servers of this run, loaded from and saved to one file.

    Args:
        path: The file (default: ``mcp_path()``).
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or mcp_path()
        #: What happened while loading, for the user (a corrupt file moved aside...).
        self.messages: list[str] = []
        self._config = self._load()

    @property
    def config(self) -> McpConfig:
        """The current configuration (immutable: change it with ``save``, ``put``, ``remove``)."""
        return self._config

    def save(self, config: McpConfig) -> None:
        """Validate and write atomically.

        Raises:
            pydantic.ValidationError: ``config`` is not valid (nothing is written).
            OSError: the file could not be written (the old file is intact).
        """
        checked = McpConfig.model_validate(config.model_dump(mode="json"))
        text = json.dumps(checked.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
        atomic_write(self.path, text, durable=True)
        self._config = checked

    def put(self, server: McpServer) -> None:
        """Add ``server``, or replace the one with its name."""
        others = tuple(s for s in self._config.servers if s.name != server.name)
        self.save(self._config.model_copy(update={"servers": (*others, server)}))

    def remove(self, name: str) -> bool:
        """Remove the server ``name``; False when there is none."""
        if self._config.server(name) is None:
            return False
        rest = tuple(s for s in self._config.servers if s.name != name)
        self.save(self._config.model_copy(update={"servers": rest}))
        return True

    def _load(self) -> McpConfig:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return McpConfig()
        except OSError as exc:
            self._tell(f"The MCP server file {self.path} could not be read ({exc}); none are used.")
            return McpConfig()
        try:
            return McpConfig.model_validate(json.loads(raw.decode("utf-8")))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "file"
            return self._corrupt(f"it has invalid values ({where}: {first['msg']})")
        except ValueError as exc:
            return self._corrupt(f"it is not valid JSON ({exc})")

    def _corrupt(self, why: str) -> McpConfig:
        target = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        n = 1
        while target.exists():
            target = target.with_name(f"{target.name}-{n}")
            n += 1
        try:
            os.replace(self.path, target)
        except OSError as exc:
            self._tell(f"The MCP server file is unusable: {why}; moving it aside failed ({exc}).")
            return McpConfig()
        self._tell(
            f"The MCP server file was unusable: {why}. It was moved to {target.name}; no MCP "
            "servers are used until you add them again or fix and restore that file."
        )
        return McpConfig()

    def _tell(self, message: str) -> None:
        log.warning("%s", message)
        self.messages.append(message)
