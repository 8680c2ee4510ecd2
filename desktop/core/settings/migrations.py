"""Ordered migrations of ``settings.json`` from every earlier schema version to the current one.

``MIGRATIONS[n]`` turns a version-``n`` document into a version-``n + 1`` document. Migrations
work on plain JSON data (old versions have no model classes any more) and on a deep copy, so a
failure leaves the original untouched: the caller keeps the old file and tells the user.

Versions:
    0: the prototype's flat file, no ``schema_version``: one provider (``provider``, ``model``,
       ``base_url``, ``max_tokens``), ``agent``/``agent_cmd``, ``theme``, ``font_size``,
       ``approval_mode``, ``recent``.
    1: ``profiles`` and ``agents`` as objects keyed by name, agents without ``kind``; approval
       mode and appearance still top-level.
    2: the current tree (``desktop.core.settings.models.Settings``).
"""

from __future__ import annotations

import copy
import shlex
from collections.abc import Callable
from typing import Any

from desktop.core.settings.models import DEFAULT_ANTHROPIC_MODEL, SCHEMA_VERSION

JsonDict = dict[str, Any]


class MigrationError(Exception):
    """A settings file could not be brought to the current version."""


def _v0_to_v1(doc: JsonDict) -> JsonDict:
    provider = doc.get("provider", "anthropic")
    profiles: JsonDict = {
        "anthropic": {"provider": "anthropic", "model": DEFAULT_ANTHROPIC_MODEL},
        "openai": {"provider": "openai", "model": "gpt-4.1"},
    }
    if "model" in doc:
        profiles[provider] = {
            "provider": provider,
            "model": doc["model"],
            "base_url": doc.get("base_url"),
            "max_tokens": doc.get("max_tokens"),
        }
    agents: JsonDict = {"builtin": {"profile": provider}, "aionrs": {}}
    default_agent = doc.get("agent") or "builtin"
    if doc.get("agent_cmd"):
        agents["custom"] = {"command": doc["agent_cmd"]}
        default_agent = "custom"
    return {
        "schema_version": 1,
        "profiles": profiles,
        "agents": agents,
        "default_agent": default_agent,
        "approval_mode": doc.get("approval_mode", "default"),
        "theme": doc.get("theme", "system"),
        "font_size": doc.get("font_size", 11),
        "recent_workspaces": list(doc.get("recent", [])),
    }


def _v1_agent(name: str, spec: JsonDict) -> JsonDict:
    if "profile" in spec:
        return {"kind": "builtin", "name": name, "profile": spec["profile"]}
    if "command" in spec:
        command = spec["command"]
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        return {"kind": "custom", "name": name, "command": argv, "env": spec.get("env", {})}
    if name == "aionrs":
        return {"kind": "aionrs", "name": name}
    raise MigrationError(f"agent {name!r} has neither a profile nor a command")


def _v1_to_v2(doc: JsonDict) -> JsonDict:
    profiles = [
        {"name": name, **{k: v for k, v in spec.items() if v is not None}}
        for name, spec in doc.get("profiles", {}).items()
    ]
    agents = [_v1_agent(name, spec) for name, spec in doc.get("agents", {}).items()]
    return {
        "schema_version": 2,
        "profiles": profiles,
        "agents": agents,
        "default_agent": doc.get("default_agent", "builtin"),
        "approvals": {"mode": doc.get("approval_mode", "default")},
        "appearance": {"theme": doc.get("theme", "system"), "font_size": doc.get("font_size", 11)},
        "recent_workspaces": doc.get("recent_workspaces", []),
    }


MIGRATIONS: tuple[Callable[[JsonDict], JsonDict], ...] = (_v0_to_v1, _v1_to_v2)
assert len(MIGRATIONS) == SCHEMA_VERSION, "one migration per earlier version"


def document_version(doc: JsonDict) -> int:
    """The schema version of a settings document (0 when it has none).

    Raises:
        MigrationError: the version is not a non-negative integer.
    """
    version = doc.get("schema_version", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise MigrationError(f"schema_version {version!r} is not a version number")
    return version


def migrate(doc: JsonDict) -> JsonDict:
    """Return ``doc`` brought to ``SCHEMA_VERSION`` (``doc`` itself is not modified).

    Raises:
        MigrationError: the document is from a newer Agent Desk, or a migration step failed.
    """
    version = document_version(doc)
    if version > SCHEMA_VERSION:
        raise MigrationError(
            f"the file is from a newer Agent Desk (schema {version}; this one knows "
            f"{SCHEMA_VERSION})"
        )
    data = copy.deepcopy(doc)
    for step in range(version, SCHEMA_VERSION):
        try:
            data = MIGRATIONS[step](data)
        except MigrationError:
            raise
        except Exception as exc:
            raise MigrationError(
                f"migrating from version {step} to {step + 1} failed: {exc!r}"
            ) from exc
    return data
