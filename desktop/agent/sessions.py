"""Saved conversations: one JSON file per session under the Agent Desk data folder.

Layout: ``<data>/agent-sessions/<workspace hash>/<session id>.json``, so ``--resume latest`` finds
the newest conversation *of this workspace*. Files are written atomically (temporary file, then
rename) with owner-only permissions; a file that cannot be read is reported, never fatal.
Every file goes through the same redaction as the history database (``desktop.core.redaction``):
a key that shows up in model text or tool output is never written down.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
import uuid
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from desktop.agent.history import Entry
from desktop.core.atomic_file import atomic_write
from desktop.core.paths import app_paths
from desktop.core.redaction import Redactor

_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class SessionError(Exception):
    """A session cannot be used (bad id, missing, or already exists)."""


class CorruptSessionError(SessionError):
    """A session file exists but cannot be read."""


class SessionRecord(BaseModel):
    """What is saved: the conversation and enough context to resume it."""

    format: int = 1
    id: str
    workspace: str
    created: float = Field(default_factory=time.time)
    updated: float = Field(default_factory=time.time)
    provider: str = ""
    model: str = ""
    context: str | None = None
    """Text from ``init_history``, kept as conversation context."""
    history: list[Entry] = Field(default_factory=list)


def new_session_id() -> str:
    """A fresh random session id."""
    return uuid.uuid4().hex[:12]


def check_session_id(session_id: str) -> str:
    """``session_id`` if it is a safe file name; raises ``SessionError`` otherwise."""
    if not _ID_PATTERN.match(session_id) or session_id.endswith(".json"):
        raise SessionError(
            f"Invalid session id {session_id!r}: use letters, digits, '.', '_' and '-' "
            "(at most 128 characters)."
        )
    return session_id


class SessionStore:
    """The session files of one workspace."""

    def __init__(self, folder: Path, redactor: Redactor | None = None) -> None:
        self.folder = folder
        self._redact = redactor or Redactor(())

    @classmethod
    def for_workspace(cls, workspace: Path, redactor: Redactor | None = None) -> SessionStore:
        """The store of ``workspace`` under the Agent Desk data folder; ``redactor`` removes the
        keys in use (key-shaped strings are removed in any case)."""
        digest = hashlib.sha256(str(workspace.resolve()).encode()).hexdigest()[:16]
        return cls(app_paths().data / "agent-sessions" / digest, redactor)

    def path(self, session_id: str) -> Path:
        return self.folder / f"{check_session_id(session_id)}.json"

    def exists(self, session_id: str) -> bool:
        return self.path(session_id).exists()

    def latest_id(self) -> str | None:
        """The most recently saved session of this workspace."""
        try:
            files = [p for p in self.folder.glob("*.json") if p.is_file()]
        except OSError:
            return None
        if not files:
            return None
        return max(files, key=lambda p: p.stat().st_mtime_ns).stem

    def load(self, session_id: str) -> SessionRecord:
        """Read a session.

        Raises:
            SessionError: there is no such session.
            CorruptSessionError: the file is unreadable or not a valid session.
        """
        path = self.path(session_id)
        try:
            data = path.read_bytes()
        except FileNotFoundError as exc:
            raise SessionError(f"There is no saved session {session_id!r} ({path}).") from exc
        except OSError as exc:
            raise CorruptSessionError(f"Cannot read session file {path}: {exc}") from exc
        try:
            return SessionRecord.model_validate_json(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "file"
            raise CorruptSessionError(
                f"Session file {path} is corrupt ({where}: {first['msg']})."
            ) from exc

    def set_aside(self, session_id: str) -> Path:
        """Rename a corrupt file out of the way (kept for inspection) and return its new path."""
        path = self.path(session_id)
        target = path.with_name(f"{path.name}.corrupt-{int(time.time())}")
        os.replace(path, target)
        return target

    def save(self, record: SessionRecord) -> None:
        """Write ``record`` atomically, readable by the owner only."""
        record.updated = time.time()
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        data = self._redact(record.model_dump_json().encode())
        atomic_write(self.path(record.id), data, durable=True)
