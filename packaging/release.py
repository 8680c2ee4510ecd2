"""The release's own steps around the builds: tag check, locked inputs, checksums, notes.

Called through ``packaging/build.py`` by ``.github/workflows/release.yml`` so that everything
the workflow decides is Python that the test suite runs on any machine:

- ``check_tag``: a tag ``vX.Y.Z`` must name the version in ``desktop/__init__.py``;
- ``install_locked``: the app and its build tools from ``packaging/requirements.lock`` (every
  package pinned with its hashes, ``pip --require-hashes``), then the app itself without deps;
- ``checksums``: ``SHA256SUMS`` of the artifacts, signed with minisign when a key is given;
- ``release_notes``: what was signed and what was not. An unsigned artifact carries
  ``-unsigned`` in its name (``UNSIGNED_MARK``), and the notes list it: never silent.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bundle_config import HOMEPAGE, ROOT, version

LOCK_FILE = ROOT / "packaging" / "requirements.lock"
UNSIGNED_MARK = "-unsigned"
SUMS = "SHA256SUMS"


class ReleaseError(SystemExit):
    """A release step that cannot go on: its message is for the person reading the CI log."""

    def __init__(self, message: str) -> None:
        super().__init__(f"error: {message}")


def check_tag(tag: str) -> str:
    """The version when ``tag`` is ``v`` + the app's version; else a clear error."""
    expected = f"v{version()}"
    if tag != expected:
        raise ReleaseError(
            f"the tag {tag!r} does not match the app's version: desktop/__init__.py says "
            f"{version()!r}, so the tag must be {expected!r}"
        )
    return version()


def locked_install_command(python: str = sys.executable) -> list[list[str]]:
    """The pip commands that install exactly the locked inputs (hash-checked), then the app."""
    if not LOCK_FILE.exists():
        raise ReleaseError(f"no lock file at {LOCK_FILE} (see packaging/lock.sh)")
    return [
        [python, "-m", "pip", "install", "-q", "--require-hashes", "-r", str(LOCK_FILE)],
        [python, "-m", "pip", "install", "-q", "--no-deps", "-e", str(ROOT)],
    ]


def install_locked() -> None:
    for argv in locked_install_command():
        print("+", " ".join(argv), flush=True)
        subprocess.run(argv, check=True)


def is_unsigned(path: Path) -> bool:
    return UNSIGNED_MARK in path.name


def mark_unsigned(path: Path) -> Path:
    """Rename ``AgentDesk-1.0-setup.exe`` to ``AgentDesk-1.0-unsigned-setup.exe`` (and a dmg to
    ``...-unsigned.dmg``): the name says it before anyone runs it."""
    if is_unsigned(path):
        return path
    stem, dot, ext = path.name.rpartition(".")
    if stem.endswith("-setup"):
        name = f"{stem[: -len('-setup')]}{UNSIGNED_MARK}-setup{dot}{ext}"
    else:
        name = f"{stem}{UNSIGNED_MARK}{dot}{ext}"
    target = path.with_name(name)
    path.replace(target)
    print(f"UNSIGNED: {target.name} (no signing secrets in this build)")
    return target


def _artifacts(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(SUMS))


def checksums(folder: Path, key_b64: str | None, password: str | None) -> Path:
    """``SHA256SUMS`` over every artifact in ``folder``; ``SHA256SUMS.minisig`` when a key is
    given (the minisign secret key file, base64 in the CI secret)."""
    files = _artifacts(folder)
    if not files:
        raise ReleaseError(f"no artifacts in {folder}")
    lines = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}\n" for p in files]
    sums = folder / SUMS
    sums.write_text("".join(lines))
    if not key_b64:
        print(f"UNSIGNED: {SUMS} (no MINISIGN_KEY secret in this build)")
        return sums
    with tempfile.TemporaryDirectory() as tmp:
        key = Path(tmp) / "minisign.key"
        key.write_bytes(base64.b64decode(key_b64))
        argv = ["minisign", "-S", "-s", str(key), "-m", str(sums), "-t", f"Agent Desk {version()}"]
        subprocess.run(argv, input=f"{password or ''}\n", text=True, check=True)
    return sums


def release_notes(folder: Path) -> str:
    """Markdown for the draft release: the downloads, what is signed, how to verify."""
    if not folder.is_dir():
        raise ReleaseError(f"{folder} is not a folder of artifacts")
    files = _artifacts(folder)
    unsigned = [p.name for p in files if is_unsigned(p)]
    sums_signed = (folder / f"{SUMS}.minisig").exists()
    lines = [f"# Agent Desk {version()}", "", "## Downloads", ""]
    lines += [f"- `{p.name}`" for p in files]
    lines += ["", "## Signatures", ""]
    if unsigned:
        lines += [
            "**Warning: these artifacts are NOT signed** (the signing secrets were not set for "
            "this build); Windows SmartScreen and macOS Gatekeeper will warn before they run:",
            "",
            *[f"- `{name}`" for name in unsigned],
            "",
        ]
    else:
        lines += ["The Windows installer is Authenticode-signed; the macOS apps are signed, "
                  "notarized and stapled.", ""]  # fmt: skip
    if sums_signed:
        lines.append(f"`{SUMS}` is signed with minisign: `minisign -Vm {SUMS} -P <key>`.")
    else:
        lines.append(f"**`{SUMS}` is NOT signed** (no minisign key was set for this build).")
    lines += [
        "",
        "Every artifact has a build provenance attestation: "
        f"`gh attestation verify FILE --repo {HOMEPAGE.removeprefix('https://github.com/')}`.",
        "",
    ]
    return "\n".join(lines)


def main_checksums(folder: Path) -> Path:
    if not folder.is_dir():
        raise ReleaseError(f"{folder} is not a folder of artifacts")
    return checksums(folder, os.environ.get("MINISIGN_KEY"), os.environ.get("MINISIGN_PASSWORD"))
