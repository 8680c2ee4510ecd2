"""Loading and saving ``settings.json``: migrations, atomic writes, corrupt-file recovery.

Loading never fails: a corrupt or invalid file is moved aside and defaults are used; a file that
cannot be migrated (or comes from a newer version) is left where it is, copied to a backup, and
defaults are used for this run. Either way ``SettingsStore.messages`` says what happened, in words
for the user. Saving writes a temporary file in the same folder and ``os.replace``-s it, so a
crash leaves either the old or the new file, never half of one.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from desktop.core.atomic_file import atomic_write
from desktop.core.paths import app_paths
from desktop.core.settings.migrations import MigrationError, document_version, migrate
from desktop.core.settings.models import SCHEMA_VERSION, Settings

log = logging.getLogger(__name__)

#: Called with the changed section (a top-level field name, or ``""`` for "anything").
ChangeListener = Callable[[str], None]


def settings_path() -> Path:
    """Where the settings file lives (``<config>/settings.json``)."""
    return app_paths().config / "settings.json"


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def _aside(path: Path, label: str) -> Path:
    target = path.with_name(f"{path.name}.{label}-{_stamp()}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.{label}-{_stamp()}-{n}")
        n += 1
    return target


class SettingsStore:
    """The settings of this run, loaded from and saved to one file.

    Args:
        path: The settings file (default: ``settings_path()``).
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or settings_path()
        #: What happened while loading, for the user (corrupt file moved, migration failed...).
        self.messages: list[str] = []
        self._listeners: list[ChangeListener] = []
        self._settings = self._load()

    @property
    def settings(self) -> Settings:
        """The current settings (an immutable snapshot: change them with ``save``)."""
        return self._settings

    def subscribe(self, listener: ChangeListener) -> Callable[[], None]:
        """Be told after each save which section changed; returns an unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def save(self, settings: Settings, section: str = "") -> None:
        """Validate, write atomically, then notify listeners.

        Raises:
            pydantic.ValidationError: ``settings`` is not valid (nothing is written).
            OSError: the file could not be written (the old file is intact).
        """
        checked = Settings.model_validate(settings.model_dump(mode="json"))
        atomic_write(self.path, self._dump(checked), durable=True)
        self._settings = checked
        for listener in tuple(self._listeners):
            try:
                listener(section)
            except Exception:
                log.exception("a settings listener failed")

    @staticmethod
    def _dump(settings: Settings) -> str:
        return json.dumps(settings.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"

    # ------------------------------------------------------------------ loading

    def _load(self) -> Settings:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return self._fresh()
        except OSError as exc:
            self._tell(f"The settings file {self.path} could not be read ({exc}); using defaults.")
            return Settings()
        try:
            doc: Any = json.loads(raw.decode("utf-8"))
            if not isinstance(doc, dict):
                raise ValueError("the file does not hold a JSON object")
            version = document_version(doc)
        except (ValueError, MigrationError) as exc:
            return self._corrupt(f"it is not a valid settings file ({exc})")
        if version == SCHEMA_VERSION:
            try:
                return Settings.model_validate(doc)
            except ValidationError as exc:
                return self._corrupt(f"it has invalid values ({_summary(exc)})")
        try:
            settings = Settings.model_validate(migrate(doc))
        except (MigrationError, ValidationError) as exc:
            reason = _summary(exc) if isinstance(exc, ValidationError) else str(exc)
            return self._migration_failed(version, reason)
        backup = self.path.with_name(f"{self.path.name}.v{version}.bak")
        shutil.copy2(self.path, backup)
        atomic_write(self.path, self._dump(settings), durable=True)
        self._tell(
            f"Settings were upgraded from version {version} to {SCHEMA_VERSION}; "
            f"the old file is kept as {backup.name}."
        )
        return settings

    def _fresh(self) -> Settings:
        settings = Settings()
        try:
            atomic_write(self.path, self._dump(settings), durable=True)
        except OSError as exc:
            self._tell(f"The settings file {self.path} could not be created ({exc}).")
        return settings

    def _corrupt(self, why: str) -> Settings:
        target = _aside(self.path, "corrupt")
        try:
            os.replace(self.path, target)
        except OSError as exc:
            self._tell(f"The settings file is unusable: {why}; moving it aside failed ({exc}).")
            return Settings()
        self._tell(
            f"The settings file was unusable: {why}. It was moved to {target.name} and "
            "default settings are used."
        )
        return self._fresh()

    def _migration_failed(self, version: int, why: str) -> Settings:
        backup = _aside(self.path, f"v{version}")
        try:
            shutil.copy2(self.path, backup)
            kept = f"It is unchanged, and a copy is kept as {backup.name}."
        except OSError:
            kept = "It is unchanged."
        self._tell(
            f"The settings file could not be upgraded: {why}. {kept} Default settings are used "
            "for now; saving settings will replace it."
        )
        return Settings()

    def _tell(self, message: str) -> None:
        log.warning("%s", message)
        self.messages.append(message)


def _summary(exc: ValidationError) -> str:
    parts = [
        f"{'.'.join(str(p) for p in err['loc']) or 'file'}: {err['msg']}"
        for err in exc.errors()[:3]
    ]
    more = exc.error_count() - len(parts)
    return "; ".join(parts) + (f" and {more} more" if more > 0 else "")
