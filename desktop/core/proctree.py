"""Everything an agent started, found and ended for certain, even what tried to get away.

A tool call can start a program that calls ``setsid()``, double-forks and ignores SIGTERM; its
parent exits, so it is no longer a descendant of the agent and signalling the agent's process
group misses it. Agent Desk therefore tracks an agent's tree three ways (Linux; elsewhere only
the first, today's behaviour):

- the descendants of the agent, walked with psutil before each signal and remembered, whatever
  their session or process group;
- a tag in the environment (``AGENTDESK_PROCESS_TREE``) that every descendant inherits unless it
  scrubs its environment, so a process that escaped the tree is still found by its tag;
- Agent Desk is a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``): orphaned descendants are
  re-parented to it instead of init, so they stay findable (as its own children) and killable.

Being a subreaper means adopted orphans become Agent Desk's zombies when they exit. They are
reaped here, one pid at a time and only pids remembered as agent descendants (checked by
creation time): a blanket ``waitpid(-1)`` would steal the exits that asyncio's child watcher and
``subprocess`` wait for.

A cgroup v2 scope would contain the tree without any of this, but needs a systemd user session
or a delegated cgroup subtree; CI and many desktops have neither, so the tree is tracked here.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import sys
import uuid
import weakref

import psutil

log = logging.getLogger(__name__)

#: The environment variable that tags every process of one agent's tree.
TREE_ENV = "AGENTDESK_PROCESS_TREE"
#: Seconds between sweeps that reap adopted orphans which exited on their own.
REAP_INTERVAL = 5.0
_PR_SET_CHILD_SUBREAPER = 36
_LINUX = sys.platform.startswith("linux")

#: Agent descendants that may become (or are) our children: pid → psutil handle.
_adopted: dict[int, psutil.Process] = {}
_subreaper = False
_sweeping: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


def new_tag() -> str:
    """A fresh tag for one agent's tree (this host's pid first, so sweeps recognise ours)."""
    return f"{os.getpid()}-{uuid.uuid4().hex}"


def become_subreaper() -> bool:
    """Make this process the child subreaper of its descendants (Linux; once); True if it is."""
    global _subreaper
    if _subreaper or not _LINUX:
        return _subreaper
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
    except (OSError, AttributeError) as exc:
        log.warning("cannot become a child subreaper; escaped agent processes go to init: %s", exc)
        return False
    _subreaper = True
    return True


def start_sweeps(loop: asyncio.AbstractEventLoop) -> None:
    """Reap adopted orphans on ``loop`` every ``REAP_INTERVAL`` seconds (once per loop)."""
    if not _LINUX or loop in _sweeping:
        return
    _sweeping.add(loop)

    def sweep() -> None:
        if loop.is_closed():
            return
        try:
            adopt_tagged_children()
            reap()
        except Exception:  # a sweep must never break the loop it runs on
            log.exception("sweeping adopted agent processes failed")
        loop.call_later(REAP_INTERVAL, sweep)

    loop.call_later(REAP_INTERVAL, sweep)


def _tag_of(proc: psutil.Process) -> str | None:
    try:
        env: dict[str, str] = proc.environ()
    except (psutil.Error, OSError):
        return None
    return env.get(TREE_ENV)


def adopt_tagged_children() -> None:
    """Remember our own children that carry one of our tags (adopted orphans of an agent)."""
    prefix = f"{os.getpid()}-"
    with contextlib.suppress(psutil.Error):
        for child in psutil.Process().children():
            if child.pid not in _adopted and (_tag_of(child) or "").startswith(prefix):
                _adopted[child.pid] = child


def reap() -> int:
    """Reap remembered agent descendants that exited as our children; returns how many."""
    me = os.getpid()
    reaped = 0
    for pid, proc in list(_adopted.items()):
        try:
            if not proc.is_running():  # gone, or the pid now belongs to another process
                del _adopted[pid]
                continue
            if proc.ppid() != me or proc.status() != psutil.STATUS_ZOMBIE:
                continue
        except psutil.Error:
            _adopted.pop(pid, None)
            continue
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                reaped += 1
        _adopted.pop(pid, None)
    return reaped


class ProcessTree:
    """The processes of one agent: its descendants, remembered, and whatever carries its tag.

    Args:
        root: The agent's pid (not itself a member: asyncio waits for it).
        tag: The value of ``TREE_ENV`` in the agent's environment, or None.
    """

    def __init__(self, root: int, tag: str | None) -> None:
        self.root = root
        self.tag = tag
        self._members: dict[int, psutil.Process] = {}

    def collect(self, *, scan: bool = True) -> list[psutil.Process]:
        """Find the tree now (descendants, adopted children and, if ``scan``, every tagged
        process), remember it, and return every remembered member still running."""
        found: list[psutil.Process] = []
        with contextlib.suppress(psutil.Error):
            found.extend(psutil.Process(self.root).children(recursive=True))
        if self.tag is not None and _LINUX:
            candidates = psutil.process_iter() if scan else _own_children()
            found.extend(p for p in candidates if p.pid != self.root and _tag_of(p) == self.tag)
        me = os.getpid()
        for proc in found:
            if proc.pid != me:
                self._members.setdefault(proc.pid, proc)
                _adopted.setdefault(proc.pid, proc)
        return self.alive()

    def alive(self) -> list[psutil.Process]:
        """Remembered members still running (a reused pid is not a member)."""
        alive = []
        for pid, proc in list(self._members.items()):
            try:
                running = proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
            except psutil.Error:
                running = False
            if running:
                alive.append(proc)
            elif not proc.is_running():
                del self._members[pid]
        return alive

    def unreaped(self) -> bool:
        """Whether a remembered member that is our child still exists (alive or a zombie)."""
        me = os.getpid()
        for proc in list(self._members.values()):
            with contextlib.suppress(psutil.Error):
                if proc.is_running() and proc.ppid() == me:
                    return True
        return False

    def signal(self, sig: int) -> None:
        """Send ``sig`` to every remembered member still running."""
        for proc in self.alive():
            with contextlib.suppress(psutil.Error):
                proc.send_signal(sig)


def _own_children() -> list[psutil.Process]:
    try:
        return list(psutil.Process().children())
    except psutil.Error:
        return []
