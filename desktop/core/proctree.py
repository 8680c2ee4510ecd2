"""Everything an agent started, found and ended for certain, even what tried to get away.

A tool call can start a program that calls ``setsid()``, double-forks and ignores SIGTERM; its
parent exits, so it is no longer a descendant of the agent and signalling the agent's process
group misses it. Agent Desk therefore tracks an agent's tree three ways (Linux; elsewhere only
the first, today's behaviour):

- the descendants of the agent, walked with psutil before each signal and remembered, whatever
  their session or process group;
- a tag in the environment (``AGENTDESK_PROCESS_TREE``) that every descendant inherits unless it
  scrubs its environment, so a process that escaped the tree is still found by its tag;
- before the last signal, every process of the system is scanned for the tag (``collect``).

Agent Desk is not a child subreaper: that would make it the parent of every orphan of every
child (login shells, npm, tests' helpers), zombies it would have to reap without stealing the
exits asyncio's child watcher waits for. Escaped orphans go to init, which reaps them; the tag
finds them. ``reap`` only reaps remembered members that are Agent Desk's own zombie children.

Where the system lets Agent Desk make a cgroup v2 scope (``desktop.core.cgroup_scope``), the
scope is the fourth and surest way: its members are collected with the rest and it is killed as
a whole. Many desktops and CI machines offer none, so the three ways above stay.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import uuid

import psutil

from desktop.core.cgroup_scope import CgroupScope

log = logging.getLogger(__name__)

#: The environment variable that tags every process of one agent's tree.
TREE_ENV = "AGENTDESK_PROCESS_TREE"
_LINUX = sys.platform.startswith("linux")

#: Remembered agent descendants that may be our own (zombie) children: pid → psutil handle.
_adopted: dict[int, psutil.Process] = {}


def new_tag() -> str:
    """A fresh tag for one agent's tree (this host's pid first)."""
    return f"{os.getpid()}-{uuid.uuid4().hex}"


def _tag_of(proc: psutil.Process) -> str | None:
    try:
        env: dict[str, str] = proc.environ()
    except (psutil.Error, OSError):
        return None
    return env.get(TREE_ENV)


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
        scope: The agent's cgroup scope, where the system offers one (the agent is in it).
    """

    def __init__(self, root: int, tag: str | None, scope: CgroupScope | None = None) -> None:
        self.root = root
        self.tag = tag
        self.scope = scope
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
        if self.scope is not None:
            for pid in self.scope.pids():
                with contextlib.suppress(psutil.Error):
                    if pid != self.root:
                        found.append(psutil.Process(pid))
        me = os.getpid()
        for proc in found:
            if proc.pid != me:
                self._members.setdefault(proc.pid, proc)
                _adopted.setdefault(proc.pid, proc)
        return self.alive()

    def kill_escaped(self) -> int:
        """SIGKILL the members found now (by tag or scope) that are no longer descendants of the
        agent: a tool's child that left the tree, which the agent itself cannot reach. Returns
        how many were killed."""
        members = self.collect()
        try:
            inside = {child.pid for child in psutil.Process(self.root).children(recursive=True)}
        except psutil.Error:
            inside = set()  # the agent is gone: every member left its tree
        escaped = [proc for proc in members if proc.pid not in inside]
        for proc in escaped:
            with contextlib.suppress(psutil.Error):
                proc.kill()
        return len(escaped)

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
        """Send ``sig`` to every remembered member still running (SIGKILL also kills the whole
        scope, members started since the last ``collect`` included)."""
        if self.scope is not None and sig == getattr(signal, "SIGKILL", None):
            self.scope.kill()
        for proc in self.alive():
            with contextlib.suppress(psutil.Error):
                proc.send_signal(sig)

    def scope_busy(self) -> bool:
        """Whether processes other than the agent are still in its scope."""
        return self.scope is not None and any(p != self.root for p in self.scope.pids())

    def release(self) -> None:
        """Remove the scope if it is empty (a scope with processes left is kept, and removed by
        a later host once they are gone)."""
        if self.scope is not None and self.scope.remove():
            self.scope = None


def _own_children() -> list[psutil.Process]:
    try:
        return list(psutil.Process().children())
    except psutil.Error:
        return []
