"""Trust decisions for workspace extensions (code that came with a repository).

A workspace extension loads only after the user trusted that folder with exactly that content:
the decision is keyed by the resolved folder path and ``content_hash`` (manifest and Python
files), so changed code asks again. Stored as JSON in the config folder, written atomically.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

TRUST_FILE = "extensions-trust.json"


class TrustStore:
    """The user's trust decisions; reads the file on every query so CLI and window agree."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        trusted = data.get("trusted") if isinstance(data, dict) else None
        return trusted if isinstance(trusted, dict) else {}

    def is_trusted(self, folder: Path, content_hash: str) -> bool:
        """Whether the user trusted ``folder`` with this exact content."""
        entry = self._read().get(str(folder.resolve()))
        return isinstance(entry, dict) and entry.get("hash") == content_hash

    def trust(self, folder: Path, content_hash: str, name: str) -> None:
        """Record that the user trusts ``folder`` as it is now."""
        self._update(str(folder.resolve()), {"hash": content_hash, "name": name})

    def revoke(self, folder: Path) -> None:
        """Forget the decision for ``folder``."""
        self._update(str(folder.resolve()), None)

    def entries(self) -> dict[str, Any]:
        """Every recorded decision by folder."""
        return self._read()

    def _update(self, key: str, value: dict[str, str] | None) -> None:
        trusted = self._read()
        if value is None:
            trusted.pop(key, None)
        else:
            stamp = datetime.now(UTC).isoformat(timespec="seconds")
            trusted[key] = {**value, "trustedAt": stamp}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".trust-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"version": 1, "trusted": trusted}, handle, indent=2, sort_keys=True)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
