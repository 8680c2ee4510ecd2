"""``agentdesk extensions list|trust PATH``: see what loads, and trust workspace extensions.

``trust`` is the scripted equivalent of the window's trust dialog: it prints the manifest and
records the folder with its current content hash, so changed code must be trusted again.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from desktop.core.extensions.manifest import (
    MANIFEST_NAME,
    ManifestError,
    content_hash,
    read_manifest,
)
from desktop.core.extensions.runtime import create_runtime
from desktop.core.extensions.trust import TRUST_FILE, TrustStore
from desktop.core.paths import app_paths


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``list`` and ``trust``."""
    sub = parser.add_subparsers(dest="action", required=True)
    listing = sub.add_parser("list", help="list extensions: loaded, disabled, failed")
    listing.add_argument("--workspace", type=Path, default=None)
    listing.add_argument("--enable", action="append", default=[], metavar="BUILTIN")
    listing.add_argument("--json", action="store_true")
    trust = sub.add_parser("trust", help="trust a workspace extension folder as it is now")
    trust.add_argument("path", type=Path)
    trust.add_argument("--revoke", action="store_true", help="forget the trust decision")


async def _list(options: argparse.Namespace) -> int:
    workspace = (options.workspace or Path.cwd()).expanduser().resolve()
    runtime = create_runtime(workspace, enabled_builtins=options.enable)
    report = runtime.loader.load()
    rows = [
        {
            "name": m.name,
            "status": "loaded",
            "origin": m.origin,
            "path": str(m.path),
            "events": list(dict.fromkeys(h.event_type for h in handlers)),
            "warnings": list(m.warnings),
        }
        for m, handlers in report.loaded
    ]
    rows += [
        {"name": c.folder.name, "status": "disabled", "origin": c.origin, "path": str(c.folder)}
        for c in report.disabled
    ]
    rows += [
        {
            "name": f.extension,
            "status": "failed",
            "origin": f.origin,
            "path": str(f.path),
            "code": f.code,
            "reason": f.message,
        }
        for f in report.failures
    ]
    if options.json:
        print(json.dumps(rows, indent=2))
        return 0
    for row in rows:
        line = f"{row['name']:<28} {row['status']:<9} {row['origin']:<9} {row['path']}"
        if row["status"] == "failed":
            line += f"\n    {row['code']}: {row['reason']}"
        print(line)
    if not rows:
        print("no extensions found")
    return 0


def _trust(options: argparse.Namespace) -> int:
    folder = options.path.expanduser().resolve()
    store = TrustStore(app_paths().config / TRUST_FILE)
    if options.revoke:
        store.revoke(folder)
        print(f"trust revoked for {folder}")
        return 0
    if not folder.is_dir():
        print(f"agentdesk: {folder} is not a folder", file=sys.stderr)
        return 2
    try:
        manifest, found = read_manifest(folder)
    except ManifestError as exc:
        print(f"agentdesk: {exc}", file=sys.stderr)
        return 1
    if found:
        print((folder / MANIFEST_NAME).read_text(encoding="utf-8").rstrip())
    store.trust(folder, content_hash(folder), manifest.name)
    print(f"trusted {manifest.display_name} ({manifest.name} {manifest.version}) at {folder}")
    return 0


def run(options: argparse.Namespace) -> int:
    """Run ``agentdesk extensions`` and return its exit code."""
    if options.action == "list":
        return asyncio.run(_list(options))
    return _trust(options)
