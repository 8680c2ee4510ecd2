"""`agentdesk exec` spawns its agent before it imports the session engine, and the session adopts
that process: one agent per run, the same events and errors, nothing left running."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import psutil
import pytest

from desktop.cli import exec_command, exec_session
from desktop.core.backend import AgentStartError, Prompt
from desktop.core.events import ApprovalMode, TextDelta
from desktop.core.history.schema import SCHEMA_VERSION, history_path
from desktop.core.launch.early import EarlyAgent
from desktop.core.launch.factory import make_backend_factory
from desktop.core.launch.spec import LaunchAionrs
from desktop.core.protocols.process_backend import ProcessBackend
from desktop.core.session import Session
from tests.cli.test_exec import agentdesk
from tests.core.support import fake_command

HEAVY = ("desktop.core.session", "desktop.core.events", "desktop.core.history", "pydantic")


def _counting_command(scenario: dict[str, object], folder: Path, pids: Path) -> str:
    """The fake agent behind ``sh``, which appends its pid to ``pids`` on every start."""
    fake = " ".join(fake_command("aionrs-0.2", scenario, folder))
    return f"sh -c 'echo $$ >> {pids}; exec {fake}'"


def _gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
            return True
        time.sleep(0.05)
    return False


def test_parser_choices_match_the_engine() -> None:
    assert tuple(m.value for m in ApprovalMode) == exec_command.APPROVAL_MODES
    assert tuple(exec_session.ON_REQUEST) == exec_command.ON_REQUEST_CHOICES


def test_the_exec_command_and_agent_resolution_do_not_load_the_engine() -> None:
    code = (
        "import sys, desktop.cli.main, desktop.cli.exec_command;"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == ""


def test_one_agent_process_per_run_and_the_reply_is_printed(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    pids = tmp_path / "pids"
    scenario = {"prompts": {"go": [{"text": "early bird"}]}}
    result = agentdesk(
        "exec",
        "--workspace",
        str(workspace),
        "--agent-cmd",
        _counting_command(scenario, tmp_path, pids),
        "-p",
        "go",
        cwd=workspace,
    )
    assert result.returncode == 0, result.stderr
    assert "early bird" in result.stdout
    assert len(pids.read_text().split()) == 1  # adopted, not spawned twice


def test_unusable_history_reports_and_ends_the_early_agent(
    tmp_path: Path, agentdesk_home: Path
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    db = history_path()
    db.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    pids = tmp_path / "pids"
    result = agentdesk(
        "exec",
        "--agent-cmd",
        _counting_command({}, tmp_path, pids),
        "-p",
        "go",
        cwd=workspace,
    )
    assert result.returncode == 3
    assert "agentdesk: the history database is unusable" in result.stderr
    assert result.stdout == ""
    (pid,) = (int(p) for p in pids.read_text().split())
    assert _gone(pid)


@pytest.mark.asyncio
async def test_session_adopts_the_early_process(tmp_path: Path, agentdesk_home: Path) -> None:
    choice = LaunchAionrs(
        "fake", fake_command("aionrs-0.2", {"turns": [[{"text": "hi"}]]}, tmp_path)
    )
    early = EarlyAgent()
    await early.spawn(choice, tmp_path)
    spawned = early.process
    assert spawned is not None and spawned.pid is not None
    session = Session(early.wrap(make_backend_factory(choice, tmp_path)), workspace=tmp_path)
    seen: list[object] = []
    session.subscribe(seen.append)
    try:
        await session.start()
        backend = session.backend
        assert isinstance(backend, ProcessBackend)
        assert backend.process is spawned and early.process is None
        session.submit(Prompt("x"))
        await session.wait_idle()
    finally:
        await session.close()
        await early.close()
    assert "hi" in "".join(e.text for e in seen if isinstance(e, TextDelta))


@pytest.mark.asyncio
async def test_a_process_launched_differently_is_ended_not_adopted(
    tmp_path: Path, agentdesk_home: Path
) -> None:
    choice = LaunchAionrs("fake", fake_command("aionrs-0.2", {}, tmp_path))
    early = EarlyAgent()
    await early.spawn(replace(choice, env={"EXTRA": "1"}), tmp_path)
    spawned = early.process
    assert spawned is not None and spawned.pid is not None
    session = Session(early.wrap(make_backend_factory(choice, tmp_path)), workspace=tmp_path)
    try:
        await session.start()
        backend = session.backend
        assert isinstance(backend, ProcessBackend)
        assert backend.process is not spawned
        await early.close()
        assert spawned.returncode is not None
    finally:
        await session.close()
        await early.close()


@pytest.mark.asyncio
async def test_unrunnable_program_is_left_to_the_session(tmp_path: Path) -> None:
    choice = LaunchAionrs("x", [str(tmp_path / "no-such-agent")])
    early = EarlyAgent()
    await early.spawn(choice, tmp_path)
    assert early.process is None
    session = Session(early.wrap(make_backend_factory(choice, tmp_path)), workspace=tmp_path)
    with pytest.raises(AgentStartError, match=r"Cannot run .*no-such-agent"):
        await session.start()
    await session.close()
    await early.close()
