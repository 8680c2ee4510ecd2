"""Trust decisions for workspace extensions (code that came with a repository).

A workspace extension loads only after the user trusted that folder with exactly that content:
the decision is keyed by the resolved folder path, ``content_hash`` (manifest and Python files,
what the user reviews) and ``folder_digest``, a digest of EVERY entry of the folder (``__pycache__``
and its bytecode, hidden files, symbolic links, empty folders), recorded when the user trusts.
Any planted or changed file (a ``.pyc`` that Python would prefer to the source, for one) revokes
the trust until the user trusts again. Stored as JSON in the config folder, written atomically.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from desktop.core.atomic_file import atomic_write

TRUST_FILE = "extensions-trust.json"
_CHUNK = 1 << 20


def folder_digest(folder: Path) -> str:
    """SHA-256 over every entry below ``folder``: relative path, kind and content (a link's
    target, not what it points to; folders are not left through links)."""
    digest = hashlib.sha256()
    root = Path(folder)
    for current, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        base = Path(current)
        for name in sorted([*dirs, *files]):
            path = base / name
            digest.update(path.relative_to(root).as_posix().encode("utf-8", "surrogateescape"))
            digest.update(b"\0")
            for chunk in _entry_bytes(path):
                digest.update(chunk)
            digest.update(b"\0")
    return digest.hexdigest()


def _entry_bytes(path: Path) -> Iterator[bytes]:
    try:
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode):
            yield b"link:" + os.fsencode(os.readlink(path))
        elif stat.S_ISDIR(mode):
            yield b"dir"
        elif stat.S_ISREG(mode):
            yield b"file:"
            with path.open("rb") as handle:
                while chunk := handle.read(_CHUNK):
                    yield chunk
        else:
            yield b"special"
    except OSError:
        yield b"<unreadable>"


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
        """Whether the user trusted ``folder`` with this exact content, every file included
        (a decision recorded before the whole folder was covered is asked again)."""
        entry = self._read().get(str(folder.resolve()))
        return (
            isinstance(entry, dict)
            and entry.get("hash") == content_hash
            and entry.get("files") == folder_digest(folder)
        )

    def changed(self, folder: Path) -> bool:
        """Whether ``folder`` was trusted once and has changed since (so it is not trusted)."""
        return str(folder.resolve()) in self._read()

    def trust(self, folder: Path, content_hash: str, name: str) -> None:
        """Record that the user trusts ``folder`` as it is now."""
        files = folder_digest(folder)
        self._update(str(folder.resolve()), {"hash": content_hash, "files": files, "name": name})

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
        document = {"version": 1, "trusted": trusted}
        atomic_write(self.path, json.dumps(document, indent=2, sort_keys=True))
