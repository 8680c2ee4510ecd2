"""The real ``agentdesk`` process under Xvfb for the e2e tests: X keys in (xdotool), its INFO
log lines, history rows and files out."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAKE = ROOT / "tests" / "fakes" / "fake_aionrs.py"


class App:
    """The running app: X keys in, log lines, history rows and files out."""

    def __init__(self, display: str, home: Path, workspace: Path, command: str) -> None:
        self.display, self.home, self.workspace = display, home, workspace
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
               "AGENTDESK_HOME": str(home), "PYTHONPATH": str(ROOT),
               "AGENTDESK_LOG_LEVEL": "INFO"}  # fmt: skip
        argv = [sys.executable, "-m", "desktop", str(workspace), "--agent-cmd", command]
        self.proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    def xdotool(self, *args: str) -> str:
        done = subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": self.display},
                              capture_output=True, text=True, timeout=30, check=False)  # fmt: skip
        return done.stdout.strip()

    def type(self, text: str, delay_ms: int = 25) -> None:
        self.xdotool("type", "--delay", str(delay_ms), text)

    def key(self, *keys: str) -> None:
        self.xdotool("key", "--delay", "60", *keys)

    def wait(self, predicate: Callable[[], object], what: str, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if self.proc.poll() is not None:
                pytest.fail(f"the app exited while waiting for {what}:\n{self.log()}")
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}:\n{self.log()}")
            time.sleep(0.05)

    def settle(self) -> str:
        """Wait for the project's window and the end of start-up (the app logs it; no agent
        runs yet); the window's X id."""
        self.wait(lambda: self.xdotool("search", "--name", "project — Agent Desk"), "the window")
        self.wait(lambda: self.logged("started: 1 window(s)"), "the app to settle")
        return self.xdotool("search", "--name", "project — Agent Desk").split()[0]

    def log(self) -> str:
        return "".join(self.lines[-40:])

    def logged(self, text: str, after: int = 0) -> bool:
        return any(text in line for line in self.lines[after:])

    def focused(self, call_id: str) -> Callable[[], bool]:
        """Whether the card of ``call_id`` got the keyboard (and was in view) from now on."""
        mark = len(self.lines)
        return lambda: self.logged(f"approval {call_id} has the keyboard, in view", mark)

    def armed(self, call_id: str) -> Callable[[], bool]:
        """Whether the card of ``call_id`` took decision keys from now on (its key guard over:
        what a person who reads the card before pressing a key waits for)."""
        mark = len(self.lines)
        return lambda: self.logged(f"approval {call_id} takes decision keys", mark)

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        path = self.home / "data" / "history.sqlite3"
        if not path.exists():
            return []
        try:
            with contextlib.closing(
                sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2)
            ) as db:
                return db.execute(sql).fetchall()
        except sqlite3.Error:
            return []

    def prompts(self) -> list[str]:
        return [text for (text,) in self.rows("SELECT text FROM items WHERE kind='user'")]

    def tool(self, call_id: str) -> dict[str, Any]:
        found = self.rows(f"SELECT data FROM items WHERE call_id='{call_id}'")
        return json.loads(found[-1][0]) if found else {}

    def stop(self) -> tuple[int, str]:
        self.proc.send_signal(signal.SIGTERM)
        try:
            status = self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        self._reader.join(10)
        return status, "".join(self.lines)
