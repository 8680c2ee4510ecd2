"""History storage faults through real ``agentdesk`` subprocesses (issue 14, items 13 and 14).

A full disk is a real 256 KiB tmpfs mounted as AGENTDESK_HOME (the tests run as root, which may
mount); a read-only data folder is a real tmpfs remounted read-only. A damaged database is a file
of garbage, a real database cut to a tenth of its size, or a folder where the file should be
(root ignores file permissions, so a chmod-000 file would still be readable here).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop.core.history import HistoryStore
from tests.core.support import fake_command

TURNS = [f"turn {i} " + f"word{i} " * 9000 for i in range(5)]  # ~60 KB each: beyond 256 KiB


def agentdesk(*args: str, home: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=90,
        env={**os.environ, "AGENTDESK_HOME": str(home)},
        check=False,
    )


def exec_args(tmp_path: Path, *prompts: str) -> list[str]:
    scenario = {"turns": [[{"text": t, "chunks": 4}] for t in TURNS]}
    command = " ".join(fake_command("spec", scenario, tmp_path))
    workspace = tmp_path / "ws"
    workspace.mkdir(exist_ok=True)
    args = ["exec", "--json", "--workspace", str(workspace), "--agent-cmd", command]
    for prompt in prompts:
        args += ["-p", prompt]
    return args


def events(stdout: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


@contextlib.contextmanager
def mounted(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` at ``folder`` (unmounted afterwards)."""
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs, as in the issue."""
    with mounted(tmp_path / "tmpfs", "256k") as folder:
        yield folder


def test_full_disk_is_an_error_event_and_exit_1(tmp_path: Path, tmpfs: Path) -> None:
    """Before: exit 0, no error event, five turns silently lost."""
    done = agentdesk(*exec_args(tmp_path, *"abcde"), home=tmpfs, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    seen = events(done.stdout)
    errors = [e for e in seen if e["type"] == "error"]
    assert errors, done.stdout[-2000:]
    assert all(e["code"] == "history_write_failed" for e in errors)
    assert "full" in str(errors[-1]["message"])
    assert "could not be saved" in str(errors[-1]["message"])
    # Every turn still ran and its text was delivered.
    assert sum(e["type"] == "turn_ended" for e in seen) == 5
    text = "".join(str(e["text"]) for e in seen if e["type"] == "text_delta")
    assert text == "".join(TURNS)
    assert "no transaction is active" not in done.stderr


def test_writing_resumes_when_space_returns(tmp_path: Path) -> None:
    """The disk is full while exec runs; space is freed mid-run: every turn ends up saved.
    (A 1 MiB tmpfs: all five turns together would not fit in 256 KiB even when empty.)"""
    with mounted(tmp_path / "tmpfs", "1m") as tmpfs:
        _resume_after_full(tmp_path, tmpfs)


def _resume_after_full(tmp_path: Path, tmpfs: Path) -> None:
    filler = tmpfs / "filler"
    (tmpfs / "data").mkdir()
    # Create the database first, then fill the disk but for 96 KiB: the database opens (its WAL
    # fits) and the first ~60 KB turn is saved, the second fills the disk.
    HistoryStore(tmpfs / "data" / "history.sqlite3").close()
    free = os.statvfs(tmpfs).f_bavail * os.statvfs(tmpfs).f_frsize
    filler.write_bytes(b"\0" * (free - 96 * 1024))
    scenario_turns = [[{"text": t, "chunks": 4}] for t in TURNS[:2]]
    scenario_turns.append([{"sleep": 3.0}, {"text": "after the space came back"}])
    command = " ".join(fake_command("spec", {"turns": scenario_turns}, tmp_path))
    (tmp_path / "ws").mkdir()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "desktop",
            "exec",
            "--json",
            "--workspace",
            str(tmp_path / "ws"),
            "--agent-cmd",
            command,
            "-p",
            "one",
            "-p",
            "two",
            "-p",
            "three",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "AGENTDESK_HOME": str(tmpfs)},
    )
    assert proc.stdout is not None
    lines: list[dict[str, object]] = []
    for line in proc.stdout:  # read until the failure is reported
        lines.append(json.loads(line))
        if lines[-1]["type"] == "error":
            break
    assert lines[-1].get("code") == "history_write_failed", [e["type"] for e in lines]
    filler.unlink()  # space returns
    rest, _err = proc.communicate(timeout=60)
    lines += events(rest)
    assert any(e["type"] == "notice" and "written again" in str(e["message"]) for e in lines), (
        proc.returncode,
        _err,
        [(e["type"], e.get("message")) for e in lines if "message" in e],
    )
    assert proc.returncode == 0, _err
    store = HistoryStore(tmpfs / "data" / "history.sqlite3")
    (summary,) = store.list_conversations()
    items = store.get(summary.id).items
    store.close()
    assert [i.text for i in items if i.kind == "user"] == ["one", "two", "three"]
    assert [i.text for i in items if i.kind == "assistant"] == [
        *TURNS[:2],
        "after the space came back",
    ]


def _real_database(home: Path, tmp_path: Path) -> Path:
    done = agentdesk(*exec_args(tmp_path, "first"), home=home, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return home / "data" / "history.sqlite3"


def _garbage(path: Path) -> None:
    path.write_bytes(os.urandom(1000) + b"not a database" * 100)


def _truncated(path: Path) -> None:
    data = path.read_bytes()
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)
    path.write_bytes(data[: len(data) // 10])


def _folder(path: Path) -> None:
    path.unlink()
    for side in ("-wal", "-shm"):
        path.with_name(path.name + side).unlink(missing_ok=True)
    path.mkdir()


@pytest.mark.parametrize("damage", [_garbage, _truncated, _folder])
@pytest.mark.parametrize("command", ["exec", "list"])
def test_damaged_database_is_moved_aside(tmp_path: Path, damage: object, command: str) -> None:
    """Before: a raw DatabaseError traceback from both commands."""
    home = tmp_path / "home"
    path = _real_database(home, tmp_path)
    assert callable(damage)
    damage(path)
    if command == "exec":
        done = agentdesk(*exec_args(tmp_path, "again"), home=home, cwd=tmp_path)
    else:
        done = agentdesk("history", "list", home=home, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    (aside,) = path.parent.glob("history.sqlite3.damaged-*")
    assert f"it was moved to {aside}" in done.stderr
    assert len([ln for ln in done.stderr.splitlines() if "moved to" in ln]) == 1
    # A fresh database works from now on.
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    listed = agentdesk("history", "list", home=home, cwd=tmp_path)
    assert listed.returncode == 0 and listed.stderr == "", listed.stderr
    assert ("again" in listed.stdout) == (command == "exec")


def test_read_only_data_folder_runs_without_history(tmp_path: Path) -> None:
    """A real tmpfs remounted read-only: exec works and says the run is not saved."""
    home = tmp_path / "ro"
    home.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(home)], check=True)
    try:
        (home / "data").mkdir()
        subprocess.run(["mount", "-o", "remount,ro", str(home)], check=True)
        done = agentdesk(*exec_args(tmp_path, "hello"), home=home, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert f"the data folder {home / 'data'} is read-only" in done.stderr
        assert "goes on without it" in done.stderr
        assert any(e["type"] == "turn_ended" for e in events(done.stdout))
        listed = agentdesk("history", "list", home=home, cwd=tmp_path)
        assert listed.returncode == 1
        assert "read-only" in listed.stderr and "Traceback" not in listed.stderr
    finally:
        subprocess.run(["umount", "-l", str(home)], check=False)
