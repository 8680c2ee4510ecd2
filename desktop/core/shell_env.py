"""Find programs the way the user's shell would.

An app started from a desktop entry inherits the display manager's minimal PATH, so agents
installed by the user's shell profile (npm globals, ~/.cargo/bin, ~/.local/bin) are not found.
Agent Desk asks the login shell for its PATH once and searches both.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
import sys

log = logging.getLogger(__name__)

_MARK = "__AGENTDESK_PATH__"


@functools.cache
def login_shell_path() -> str:
    """PATH as the user's interactive login shell sets it ("" when it cannot be read)."""
    if sys.platform == "win32":
        return ""
    shell = os.environ.get("SHELL") or "/bin/sh"
    try:
        result = subprocess.run(
            [shell, "-l", "-i", "-c", f'printf "{_MARK}%s{_MARK}" "$PATH"'],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.info("could not read the login shell's PATH: %s", exc)
        return ""
    parts = result.stdout.split(_MARK)
    return parts[1] if len(parts) >= 3 else ""


def started_from_shell() -> bool:
    """Whether this process runs under a shell (every POSIX shell exports ``SHLVL``).

    Then PATH already is the user's and asking the login shell again (≈0.15 s) is skipped; an app
    started from a desktop entry or launcher has no ``SHLVL``.
    """
    return "SHLVL" in os.environ


def _merged(current: str) -> str:
    seen = current.split(os.pathsep)
    extra = [p for p in login_shell_path().split(os.pathsep) if p and p not in seen]
    return os.pathsep.join([current, *extra]) if extra else current


def search_path() -> str:
    """PATH for agents: the current one, plus the login shell's entries when this process was
    not started from a shell."""
    current = os.environ.get("PATH", "")
    return current if started_from_shell() else _merged(current)


def find_program(name: str) -> str | None:
    """Absolute path of ``name``: the current PATH first, then the login shell's."""
    return shutil.which(name) or shutil.which(name, path=_merged(os.environ.get("PATH", "")))
