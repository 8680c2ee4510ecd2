"""Issue 14, item 12, where the system offers a cgroup v2 scope: a tool's child that leaves the
agent's tree, its session AND scrubs its environment (so the tree tag is gone too) is still
ended by Stop, because it cannot leave the agent's cgroup.

Needs a writable cgroup v2 hierarchy (a systemd user session, or root in a container with
cgroup2 mounted read-write). Where there is none the tests say so in pytest's skip summary:
the tree is then tracked by ``desktop.core.proctree`` alone (tests/core/test_stop_hardening.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import psutil
import pytest

from desktop.core.backend import Prompt
from desktop.core.cgroup_scope import CgroupScope, scope_parent
from desktop.core.events import ApprovalMode, ToolFinished
from desktop.core.session import Session
from tests.core.support import Recorder, fake_factory
from tests.waiting import until

pytestmark = pytest.mark.skipif(
    scope_parent() is None, reason="no writable cgroup v2 hierarchy on this machine"
)

#: Run as ``python -c ESCAPEE ESCAPEE``: double-forks, leaves the session, re-executes itself with
#: an EMPTY environment (no tree tag), ignores SIGTERM, writes its pid and sleeps.
ESCAPEE = (
    "import os, signal, sys, time\n"
    "if sys.argv[1] != 'inner':\n"
    "    if os.fork():\n"
    "        sys.exit(0)\n"
    "    os.setsid()\n"
    "    null = os.open(os.devnull, os.O_RDWR)\n"
    "    for fd in (0, 1, 2):\n"
    "        os.dup2(null, fd)\n"
    "    os.execve(sys.executable, [sys.executable, '-c', sys.argv[1], 'inner'], {})\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "open('escapee.pid.tmp', 'w').write(str(os.getpid()))\n"
    "os.replace('escapee.pid.tmp', 'escapee.pid')\n"
    "time.sleep(600)\n"
)


def _dead(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _own_scopes() -> set[str]:
    """This process's agent scopes (named after its pid): tests in other processes, e.g. the
    other pytest-xdist worker, make and remove theirs meanwhile."""
    parent = scope_parent()
    assert parent is not None
    return {p.name for p in parent.iterdir() if p.name.startswith(f"agentdesk-{os.getpid()}-")}


def _kill(pid: int) -> None:
    with contextlib.suppress(psutil.Error):
        psutil.Process(pid).kill()


def test_a_scope_holds_kills_and_removes_a_process_tree() -> None:
    scope = CgroupScope.create()
    assert scope is not None
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        assert scope.add(child.pid)
        assert scope.pids() == [child.pid]
        assert not scope.remove()  # not empty
        scope.kill()
        assert child.wait(timeout=10) == -9
        assert scope.pids() == []
        assert scope.remove()
        assert not scope.path.exists()
    finally:
        child.kill()
        child.wait()
        scope.remove()


@pytest.mark.asyncio
async def test_stop_kills_a_process_that_scrubbed_its_tag(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(ESCAPEE)} {shlex.quote(ESCAPEE)}"
    tool: dict[str, Any] = {"tool": {"name": "Bash", "args": {"command": command}}}
    factory = fake_factory(workspace, "spec", {"turns": [[tool, {"hang": True}]]})
    session = Session(factory, workspace=workspace, mode=ApprovalMode.YOLO, stop_grace=1.0)
    recorder = Recorder()
    session.subscribe(recorder)
    pid_file = workspace / "escapee.pid"
    before = _own_scopes()
    try:
        await session.start()
        session.submit(Prompt("go"))
        await until(pid_file.exists, 15)
        pid = int(pid_file.read_text())
        assert "AGENTDESK_PROCESS_TREE" not in psutil.Process(pid).environ()  # the tag is gone
        await recorder.wait_for(ToolFinished, timeout=15)
        await asyncio.wait_for(session.stop(), 15)
        await until(lambda: _dead(pid), 20)
    finally:
        if pid_file.exists():
            _kill(int(pid_file.read_text()))
        await asyncio.wait_for(session.close(), 20)
    # The agent's scope is gone with it (no empty cgroups pile up).
    await until(lambda: _own_scopes() <= before, 10)
