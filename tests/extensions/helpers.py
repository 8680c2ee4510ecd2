"""Write real extension folders for tests."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

from desktop.core.extensions.loader import ExtensionLoader, ExtensionSources
from desktop.core.extensions.policy import TrustMode
from desktop.core.extensions.runtime import ExtensionRuntime
from desktop.core.extensions.trust import TrustStore


def write_extension(
    root: Path,
    name: str,
    code: str,
    *,
    events: list[str] | None = None,
    actions: list[str] | None = None,
    manifest: dict[str, Any] | None = None,
) -> Path:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {
        "name": name,
        "version": "1.0.0",
        "agentId": f"test.{name}",
        "displayName": name.title(),
        "capabilities": {
            "events": ["*"] if events is None else events,
            "actions": ["*"] if actions is None else actions,
        },
    }
    data.update(manifest or {})
    (folder / "extension.manifest.json").write_text(json.dumps(data))
    (folder / "events.py").write_text(textwrap.dedent(code))
    return folder


def make_runtime(
    root: Path, tmp: Path, *, mode: TrustMode = TrustMode.ENFORCED, workspace: Path | None = None
) -> ExtensionRuntime:
    sources = ExtensionSources(user_root=root, workspace=workspace)
    loader = ExtensionLoader(sources, TrustStore(tmp / "trust.json"), trust_mode=mode)
    return ExtensionRuntime(loader, tmp / "history.sqlite3")
