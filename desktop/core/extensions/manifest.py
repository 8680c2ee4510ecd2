"""``extension.manifest.json``: who an extension is, what it runs on and what it may do.

Unknown fields are ignored so manifests written for the contract's other implementations still
parse. An extension folder without a manifest gets the defaults of the contract (version
``0.0.0``, agent id and display name from the folder name) and no capability declaration.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

MANIFEST_NAME = "extension.manifest.json"
DEFAULT_ENTRYPOINT = "events.py"


class ManifestError(Exception):
    """The manifest is not valid JSON or misses a required field."""


class Capabilities(BaseModel):
    """Declared events and actions; ``"*"`` matches everything."""

    model_config = ConfigDict(extra="ignore")

    events: list[str] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list)

    def allows_event(self, event_type: str) -> bool:
        """Whether handlers for ``event_type`` were declared."""
        return "*" in self.events or event_type in self.events

    def allows_action(self, action_type: str) -> bool:
        """Whether ``action_type`` requests were declared."""
        return "*" in self.actions or action_type in self.actions


class Entrypoints(BaseModel):
    """Files of the extension, relative to its folder."""

    model_config = ConfigDict(extra="ignore")

    events: str | None = None
    config: str | None = None


class ExtensionManifest(BaseModel):
    """The parsed manifest (camelCase on disk, snake_case in Python)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    name: str = Field(min_length=1)
    version: str = Field(min_length=1)
    agent_id: str = Field(alias="agentId", min_length=1)
    display_name: str = Field(alias="displayName", min_length=1)
    description: str = ""
    runtime: dict[str, Any] | None = None
    entrypoints: Entrypoints = Field(default_factory=Entrypoints)
    capabilities: Capabilities | None = None

    @field_validator("name", "version", "agent_id", "display_name")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()

    @field_validator("runtime", mode="before")
    @classmethod
    def _normalize_runtime(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return None
        runtime = dict(value)
        core = runtime.get("coreApiVersion")
        if isinstance(core, int | float) and not isinstance(core, bool) and math.isfinite(core):
            runtime["coreApiVersion"] = math.floor(core)
        profiles = runtime.get("profiles")
        if isinstance(profiles, list):
            runtime["profiles"] = [
                p for p in profiles if isinstance(p, dict) and isinstance(p.get("name"), str)
            ]
        return runtime


def read_manifest(folder: Path) -> tuple[ExtensionManifest, bool]:
    """The manifest of ``folder`` and whether a manifest file exists.

    Raises:
        ManifestError: invalid JSON or a missing/blank identity field.
    """
    path = folder / MANIFEST_NAME
    if not path.is_file():
        return (
            ExtensionManifest.model_validate(
                {
                    "name": folder.name,
                    "version": "0.0.0",
                    "agentId": folder.name,
                    "displayName": folder.name,
                }
            ),
            False,
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ManifestError(f"{path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ManifestError(f"{path}: the manifest must be a JSON object")
    try:
        return ExtensionManifest.model_validate(data), True
    except ValidationError as exc:
        fields = ", ".join(".".join(str(p) for p in e["loc"]) or "?" for e in exc.errors())
        raise ManifestError(f"{path}: invalid or missing {fields}") from exc


def entrypoint_path(folder: Path, manifest: ExtensionManifest) -> Path | None:
    """The Python file to import: ``entrypoints.events``, else ``events.py``; None if absent."""
    candidates = [manifest.entrypoints.events] if manifest.entrypoints.events else []
    candidates.append(DEFAULT_ENTRYPOINT)
    root = folder.resolve()
    for candidate in candidates:
        if not candidate:
            continue
        path = (folder / candidate).resolve()
        if path.is_file() and path.is_relative_to(root):
            return path
    return None


def content_hash(folder: Path) -> str:
    """SHA-256 over the manifest and every ``.py`` file of the extension.

    Trust is keyed by this hash, so a repository that changes its extension's code (not only
    its manifest) has to be trusted again.
    """
    digest = hashlib.sha256()
    files = [folder / MANIFEST_NAME] if (folder / MANIFEST_NAME).is_file() else []
    files += sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)
    for file in files:
        digest.update(file.relative_to(folder).as_posix().encode())
        digest.update(b"\0")
        try:
            digest.update(file.read_bytes())
        except OSError:
            digest.update(b"<unreadable>")
        digest.update(b"\0")
    return digest.hexdigest()
