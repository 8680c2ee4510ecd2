"""Stop and processes (issue 14, items 11 and 12): through real `agentdesk exec` processes and a
real session, both driving the scripted fake aionrs agent.

11. An agent that stops reading its input must not hang Stop, ``--timeout`` or the host: writes
    have a time limit, and Stop never waits behind a blocked write.
12. A tool's child that calls ``setsid()``, leaves the agent's tree and ignores SIGTERM is still
    ended by Stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from desktop.core.backend import AgentBackend, Prompt
from desktop.core.events import (
    AgentExited,
    ApprovalMode,
    ErrorEvent,
    ToolFinished,
    ToolRequested,
    TurnEnded,
    TurnEndReason,
    parse_event,
)
from desktop.core.protocols.process_backend import ProcessBackend
from desktop.core.session import Session
from tests.core.support import Recorder, fake_command, fake_factory
from tests.waiting import until, wait_until

#: Larger than a pipe's buffer (64 KiB) and below the kernel's limit for one argument (128 KiB).
BIG_PROMPT = "x" * 120_000

#: Double-forks; the grandchild leaves the session, ignores SIGTERM, writes its pid and sleeps.
DAEMON = (
    "import os, signal, sys, time\n"
    "if os.fork():\n"
    "    sys.exit(0)\n"
    "os.setsid()\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "null = os.open(os.devnull, os.O_RDWR)\n"
    "for fd in (0, 1, 2):\n"
    "    os.dup2(null, fd)\n"
    "open('daemon.pid.tmp', 'w').write(str(os.getpid()))\n"
    "os.replace('daemon.pid.tmp', 'daemon.pid')\n"
    "time.sleep(600)\n"
)


def _daemon_tool() -> dict[str, Any]:
    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(DAEMON)}"
    return {"tool": {"name": "Bash", "args": {"command": command}}}


def _processes_running(marker: str) -> list[psutil.Process]:
    """Processes (not zombies) whose command line mentions ``marker``."""
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        with_marker = any(marker in part for part in proc.info["cmdline"] or [])
        if with_marker and proc.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(proc)
    return found


def _dead(pid: int) -> bool:
    """Whether ``pid`` no longer runs: gone, or a zombie left to its parent (an escaped
    orphan's parent is init, and a container's pid 1 may never reap it)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def _kill(pid: int) -> None:
    with contextlib.suppress(psutil.Error):
        psutil.Process(pid).kill()


_EXEC = [sys.executable, "-m", "desktop", "exec", "--no-history", "--json"]


def _exec(workspace: Path, scenario: dict[str, Any], *args: str) -> subprocess.Popen[str]:
    argv = fake_command("spec", scenario, workspace.parent)
    return subprocess.Popen(
        [*_EXEC, "--agent-cmd", " ".join(argv), *args],
        cwd=workspace,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def test_exec_timeout_ends_an_agent_that_stopped_reading(workspace: Path) -> None:
    """Item 11: a prompt larger than the pipe to an agent that never reads; --timeout 2."""
    exec_proc = _exec(workspace, {"stop_reading": True}, "--timeout", "2", "-p", BIG_PROMPT)
    started = time.monotonic()
    hung = False
    try:
        out, err = exec_proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        hung, out, err = True, "", ""
    if hung:
        exec_proc.kill()
        for proc in _processes_running(str(workspace.parent)):
            _kill(proc.pid)
        pytest.fail("agentdesk exec hung on an agent that stopped reading its input")
    assert time.monotonic() - started < 20
    assert exec_proc.returncode == 0, err  # stopped by --timeout (README: exit codes)
    ends = [e for e in map(parse_event, out.splitlines()) if isinstance(e, TurnEnded)]
    assert [e.reason for e in ends] == [TurnEndReason.STOPPED]
    assert _processes_running(str(workspace.parent)) == []


@pytest.mark.asyncio
async def test_a_write_the_agent_never_reads_is_an_error_and_ends_it(workspace: Path) -> None:
    """Item 11: the write's time limit; the agent is treated as hung and ended."""
    inner = fake_factory(workspace, "spec", {"stop_reading": True})
    started: list[ProcessBackend[Any]] = []

    def factory(resume: str | None) -> AgentBackend:
        backend = inner(resume)
        assert isinstance(backend, ProcessBackend)
        backend.process.write_timeout = 1.0
        started.append(backend)
        return backend

    session = Session(factory, workspace=workspace)
    recorder = Recorder()
    session.subscribe(recorder)
    try:
        await session.start()
        pid = started[0].process.pid
        assert pid is not None
        session.submit(Prompt(BIG_PROMPT))
        error = await recorder.wait_for(ErrorEvent, lambda e: e.code == "agent_hung")
        assert "stopped reading its input" in error.message
        ended = await recorder.wait_for(TurnEnded, timeout=15)
        assert ended.reason == TurnEndReason.AGENT_EXITED
        await asyncio.wait_for(session.wait_idle(), 10)
        assert not psutil.pid_exists(pid)
    finally:
        await asyncio.wait_for(session.close(), 20)


def test_exec_timeout_kills_a_daemon_that_left_the_tree(workspace: Path) -> None:
    """Item 12: setsid() + SIGTERM ignored + parent gone; Stop via exec --timeout."""
    scenario = {"turns": [[_daemon_tool(), {"hang": True}]]}
    exec_proc = _exec(workspace, scenario, "--mode", "yolo", "--timeout", "2", "-p", "go")
    try:
        _out, err = exec_proc.communicate(timeout=40)
    except subprocess.TimeoutExpired:
        exec_proc.kill()
        _out, err = exec_proc.communicate()
    pid = int((workspace / "daemon.pid").read_text())
    try:
        assert exec_proc.returncode == 0, err
        wait_until(lambda: _dead(pid), 10, f"the daemon {pid} to end (it survived Stop)")
    finally:
        _kill(pid)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("last_step", "grace", "confirms"),
    [({"hang": True}, 1.0, False), ({"sleep": 60}, 10.0, True)],
    ids=["agent-ignores-stop", "agent-confirms-stop"],
)
async def test_session_stop_kills_a_daemon_that_left_the_tree(
    workspace: Path, last_step: dict[str, Any], grace: float, confirms: bool
) -> None:
    """Item 12 in the host process itself: the orphan that left the tree is found by its tag
    and killed, whether the agent ignores the stop (it is ended with its tree) or honours it
    (it ends its own tools' process groups and the turn, but cannot reach the daemon; the agent
    itself stays for the next prompt)."""
    scenario = {"turns": [[_daemon_tool(), last_step]]}
    factory = fake_factory(workspace, "spec", scenario)
    session = Session(factory, workspace=workspace, mode=ApprovalMode.YOLO, stop_grace=grace)
    recorder = Recorder()
    session.subscribe(recorder)
    pid_file = workspace / "daemon.pid"
    try:
        await session.start()
        session.submit(Prompt("go"))
        await until(pid_file.exists, 15, "the daemon's pid file")
        pid = int(pid_file.read_text())
        await recorder.wait_for(ToolFinished, timeout=15)  # the agent is in its last step
        await asyncio.wait_for(session.stop(), 15)
        if confirms:
            ended = await recorder.wait_for(TurnEnded, timeout=5)
            assert ended.message is None, "the agent confirmed the stop itself"
        await until(lambda: _dead(pid), 20, f"the daemon {pid} to end")
        if confirms:
            assert not recorder.of(AgentExited), "the agent stays for the next prompt"
    finally:
        if pid_file.exists():
            _kill(int(pid_file.read_text()))
        await asyncio.wait_for(session.close(), 20)


@pytest.mark.asyncio
async def test_stop_ends_an_agent_that_never_takes_the_stop_request(tmp_path: Path) -> None:
    """Stop escalates regardless: a Codex app-server that never answers ``turn/interrupt``
    (before: ``Session.stop`` awaited the answer forever) is ended after the grace period."""
    from desktop.core.protocols.codex.adapter import CodexAppServerBackend, CodexLaunch

    peer = Path(__file__).parents[1] / "fakes" / "fake_codex_peer.py"
    env = {"PATH": "/usr/bin:/bin", "FAKE_PEER_IGNORE_INTERRUPT": "1"}
    backend = CodexAppServerBackend(
        CodexLaunch([sys.executable, str(peer)], tmp_path, env, name="hung-codex")
    )
    session = Session(lambda _rid: backend, workspace=tmp_path, stop_grace=1.0)
    recorder = Recorder()
    session.subscribe(recorder)
    try:
        await session.start()
        session.submit(Prompt("go"))
        await recorder.wait_for(ToolRequested, lambda e: e.pending, timeout=15)
        pid = backend.process.pid
        await asyncio.wait_for(session.stop(), 15)
        ended = await recorder.wait_for(TurnEnded, timeout=5)
        assert ended.reason == TurnEndReason.STOPPED
        assert pid is not None
        wait_until(lambda: _dead(pid), 10, f"the agent {pid} to end")
    finally:
        await asyncio.wait_for(session.close(), 20)
