"""Platform and input guards of ``packaging/build.py``: a clear stop instead of a traceback.

Every step that can only be built or smoke-tested on one OS says so (``BUILD_OS``,
``SMOKE_OS``) before it starts: on Linux, ``build.py windows`` would otherwise wrap the Linux
ELF bundle in a ``setup.exe`` whose shortcut points at a missing ``agentdesk.exe``, and
``smoke windows`` would fail with ``KeyError: 'LOCALAPPDATA'``. A missing input (the onedir,
the AppImage runtime, an artifact to smoke-test) is named with the step that makes it.
Each stop is one ``error: ...`` line and an exit code: ``EXIT_WRONG_OS`` or ``EXIT_MISSING``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

EXIT_WRONG_OS = 3
EXIT_MISSING = 4
OS_NAMES = {"linux": "Linux", "win32": "Windows", "darwin": "macOS"}
#: step → (the OS it needs, why).
BUILD_OS = {
    "deb": ("linux", "it packages the Linux onedir with dpkg-deb"),
    "appdir": ("linux", "it packages the Linux onedir"),
    "appimage": ("linux", "it packages the Linux AppDir"),
    "windows": (
        "win32",
        "the installer wraps the Windows onedir (agentdesk.exe); "
        "`build.py windows --check` compiles the script against a stand-in on any OS",
    ),
    "sign": ("win32", "Authenticode signing uses signtool"),
    "macos-keychain": ("darwin", "it uses the macOS security tool"),
    "dmg": ("darwin", "it needs codesign, hdiutil and notarytool"),
}
#: smoke target → the OS it runs on.
SMOKE_OS = {
    "onedir": None,
    "deb": "linux",
    "appdir": "linux",
    "appimage": "linux",
    "windows": "win32",
    "dmg": "darwin",
}


class GuardError(Exception):
    """A step that cannot run here: the message is the one line the user reads."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(f"error: {message}")
        self.exit_code = exit_code


def host_os() -> str:
    return "linux" if sys.platform.startswith("linux") else sys.platform


def check_os(step: str, smoke_target: str | None = None, check_only: bool = False) -> None:
    """Stop unless ``step`` (and its smoke target) can run on this OS."""
    here = host_os()
    if step == "smoke" and smoke_target is not None:
        needed = SMOKE_OS[smoke_target]
        if needed is not None and needed != here:
            raise GuardError(
                f"`smoke {smoke_target}` runs only on {OS_NAMES[needed]} (this is "
                f"{OS_NAMES.get(here, here)}): the {smoke_target} artifact is installed and "
                "started there",
                EXIT_WRONG_OS,
            )
        return
    if step not in BUILD_OS or (step == "windows" and check_only):
        return
    needed, why = BUILD_OS[step]
    if needed != here:
        raise GuardError(
            f"`{step}` runs only on {OS_NAMES[needed]} (this is {OS_NAMES.get(here, here)}): {why}",
            EXIT_WRONG_OS,
        )


def require_file(path: Path, what: str) -> Path:
    """``path`` when it exists; else stop naming what it should be."""
    if not path.exists():
        raise GuardError(f"{path} does not exist: {what}", EXIT_MISSING)
    return path


def artifact(build: Path, pattern: str, target: str) -> Path:
    """The newest artifact matching ``pattern`` under ``build``, or a stop naming the step."""
    found = sorted(build.glob(pattern), key=lambda p: p.stat().st_mtime)
    if not found:
        raise GuardError(
            f"no {pattern} in {build}: build it first (build.py {target}) or pass its path",
            EXIT_MISSING,
        )
    return found[-1]


def require_env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise GuardError(f"the environment variable {name} is not set", EXIT_MISSING)
    return value
