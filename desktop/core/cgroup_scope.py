"""A cgroup v2 scope per agent, where the system lets us make one: the kernel's own record of
every process the agent started, which no ``setsid()``, double fork or scrubbed environment
escapes.

A process can leave its parent's tree and its session, and a tool can run ``env -i`` so the tree
tag (``desktop.core.proctree``) is gone; it cannot leave its cgroup without write access to
a cgroup outside it. When this process's own cgroup v2 folder is writable (a systemd user
session delegates ``user@UID.service`` to the user; a root container's hierarchy is writable),
each agent gets a child cgroup ``agentdesk-<host pid>-<n>``: the agent is moved into it as soon
as it is spawned, everything it starts is born inside, and ending the agent writes
``cgroup.kill`` (Linux 5.14+; on older kernels each member is killed until none is left).

A cgroup that a systemd unit owns is used only when systemd delegated it (the
``user.delegate`` mark): systemd's delegation rules forbid sub-cgroups anywhere else. Where the
folder is not writable or not ours to divide (cgroup v1 only, a login session owned by root, an
app scope systemd made without delegation, macOS, Windows) ``create`` returns None and the tree
is tracked by ``proctree`` alone. (Asking systemd for a transient scope per agent over D-Bus
would cover undelegated desktop sessions too; it needs a systemd user manager to test against.)

The agent is moved right after it is spawned (Python cannot spawn straight into a cgroup: no
``CLONE_INTO_CGROUP``); a process it forked in its first microseconds would stay outside, and is
still found by its tag.

Scopes left by a host that died are removed by the next host that creates one (they are
empty once their processes are gone; a non-empty one is left alone).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import signal
import sys
from pathlib import Path

import psutil

log = logging.getLogger(__name__)

_PREFIX = "agentdesk-"
#: Folder suffixes of cgroups that systemd units own.
_SYSTEMD_UNITS = (".scope", ".service", ".slice")
_counter = itertools.count(1)
#: The folder new scopes are made in, found once (``False``: none is usable here).
_parent: Path | bool | None = None
#: Scopes of this host that still had (dying) processes when removed: retried at each create.
_retired: set[Path] = set()


def _cgroup2_mount() -> Path | None:
    """Where the cgroup v2 hierarchy is mounted (``/sys/fs/cgroup`` or, on hybrid systems,
    ``/sys/fs/cgroup/unified``)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            before, _, after = line.partition(" - ")
            if after.split(" ", 1)[0] == "cgroup2":
                return Path(before.split(" ")[4])
    return None


def _own_cgroup() -> str | None:
    """This process's cgroup v2 path (the ``0::`` line of ``/proc/self/cgroup``)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            if line.startswith("0::"):
                return line[3:].strip() or "/"
    return None


def _find_parent() -> Path | None:
    if not sys.platform.startswith("linux"):
        return None
    mount, own = _cgroup2_mount(), _own_cgroup()
    if mount is None or own is None:
        return None
    folder = mount / own.lstrip("/")
    if not (folder / "cgroup.procs").is_file() or not os.access(folder, os.W_OK):
        return None
    if folder.suffix in _SYSTEMD_UNITS and not _delegated(folder):
        return None  # systemd owns this unit's cgroup: sub-cgroups only where it delegates
    return folder


def _delegated(folder: Path) -> bool:
    """Whether systemd delegated ``folder`` (it marks such cgroups with an xattr, v251+)."""
    for name in ("user.delegate", "trusted.delegate"):
        with contextlib.suppress(OSError):
            if os.getxattr(folder, name) == b"1":
                return True
    return False


def scope_parent() -> Path | None:
    """The cgroup folder agent scopes are made in, or None where there is none to use."""
    global _parent
    if _parent is None:
        found = _find_parent()
        if found is not None:
            _remove_stale(found)
        _parent = found or False
    return _parent if isinstance(_parent, Path) else None


def _remove_stale(parent: Path) -> None:
    """Remove empty scopes of hosts that are no longer running."""
    with contextlib.suppress(OSError):
        for child in parent.iterdir():
            host = child.name.removeprefix(_PREFIX).split("-", 1)[0]
            alive = host.isdigit() and psutil.pid_exists(int(host))
            if child.name.startswith(_PREFIX) and host.isdigit() and not alive:
                with contextlib.suppress(OSError):
                    child.rmdir()  # fails (EBUSY) while processes are left in it


class CgroupScope:
    """One agent's cgroup: move the agent in, list, kill and remove.

    Made with ``create``; every method tolerates the cgroup vanishing or refusing (an error is
    logged once and the tree falls back to ``proctree``).
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls) -> CgroupScope | None:
        """A new empty scope, or None where cgroup v2 scopes cannot be made."""
        parent = scope_parent()
        if parent is None:
            return None
        for old in list(_retired):
            if _rmdir(old):
                _retired.discard(old)
        path = parent / f"{_PREFIX}{os.getpid()}-{next(_counter)}"
        try:
            path.mkdir()
        except OSError as exc:
            log.info("no cgroup scope for agents (%s): tracking process trees instead", exc)
            return None
        return cls(path)

    def add(self, pid: int) -> bool:
        """Move ``pid`` (and the threads of its process) into this scope."""
        try:
            (self.path / "cgroup.procs").write_text(str(pid))
        except OSError as exc:
            # Not movable (a parent cgroup with controllers, no write access to the common
            # ancestor): the scope is of no use; the process tree still is.
            log.info("cannot move agent %d into %s: %s", pid, self.path, exc)
            self.remove()
            return False
        return True

    def pids(self) -> list[int]:
        """The processes in this scope now."""
        try:
            text = (self.path / "cgroup.procs").read_text()
        except OSError:
            return []
        return [int(word) for word in text.split()]

    def kill(self) -> None:
        """SIGKILL every process in the scope, including ones started while it is killed."""
        try:
            (self.path / "cgroup.kill").write_text("1")
            return
        except FileNotFoundError:
            pass  # Linux before 5.14: signal each member
        except OSError as exc:
            log.info("cgroup.kill of %s failed: %s", self.path, exc)
        for _ in range(10):  # a member forking while it is killed adds a new member
            members = self.pids()
            if not members:
                return
            for pid in members:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)

    def remove(self) -> bool:
        """Remove the scope if it is empty; returns whether it is gone (if not, the next
        ``create`` of this host, or a later host, removes it)."""
        if _rmdir(self.path):
            return True
        _retired.add(self.path)
        return False


def _rmdir(path: Path) -> bool:
    try:
        path.rmdir()
    except FileNotFoundError:
        return True
    except OSError:
        return False  # processes are left in it (dying ones included)
    return True
