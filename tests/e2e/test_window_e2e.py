"""The real ``agentdesk`` process under Xvfb, driven by real X key events (xdotool)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAKE = ROOT / "tests" / "fakes" / "fake_aionrs.py"
OUTPUT = ROOT / "test-output"

pytestmark = pytest.mark.e2e


def _xdotool(display: str, *args: str) -> str:
    done = subprocess.run(["xdotool", *args], env={**os.environ, "DISPLAY": display},
                          capture_output=True, text=True, timeout=20, check=False)  # fmt: skip
    return done.stdout.strip()


def _wait(predicate: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.1)


def test_type_prompt_and_approve_with_y(display: str, tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    workspace.mkdir()
    scenario = tmp_path / "scenario.json"
    write = {"name": "Write", "args": {"file_path": "hello.txt", "content": "hello from e2e\n"}}
    scenario.write_text(json.dumps({"turns": [[
        {"text": "I will create **hello.txt** with a greeting:\n\n```python\nprint('hi')\n```\n",
         "chunks": 8},
        {"tool": write},
        {"text": "Done: `hello.txt` was written.", "chunks": 3},
    ]]}))  # fmt: skip
    command = shlex.join([sys.executable, str(FAKE), "--json-stream", "--profile", "spec",
                          "--scenario", str(scenario)])  # fmt: skip
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
           "AGENTDESK_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}  # fmt: skip
    argv = [sys.executable, "-m", "desktop", str(workspace), "--agent-cmd", command]
    app = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
    try:
        _wait(lambda: _xdotool(display, "search", "--name", "project — Agent Desk"), 20, "window")
        time.sleep(1.0)  # the agent starts and the composer takes focus
        _xdotool(display, "type", "--delay", "15", "please write hello")
        _xdotool(display, "key", "Return")
        # The approval card takes the keyboard once the composer has been idle for 1.5 s (the
        # Enter counts as typing), then ignores keys for its 300 ms key guard.
        time.sleep(2.5)
        _xdotool(display, "key", "y")
        target = workspace / "hello.txt"
        _wait(target.exists, 15, "hello.txt")
        assert target.read_text() == "hello from e2e\n"
        time.sleep(0.8)
        OUTPUT.mkdir(exist_ok=True)
        shot = OUTPUT / "e2e-window.png"
        grab = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("grab_screen.py")), str(shot)],
            env=env,
            timeout=30,
            check=False,
        )
        assert grab.returncode == 0 and shot.stat().st_size > 10_000
    finally:
        app.send_signal(signal.SIGTERM)
        try:
            status = app.wait(20)
        except subprocess.TimeoutExpired:
            app.kill()
            raise
    stderr = app.stderr.read() if app.stderr else ""
    assert status == 0, stderr[-2000:]
    assert "Fatal Python error" not in stderr
