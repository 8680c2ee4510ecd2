"""The real ``agentdesk`` process under Xvfb, driven by real X key events (xdotool)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.app_driver import FAKE, ROOT, App

OUTPUT = ROOT / "test-output"

pytestmark = pytest.mark.e2e


def test_type_prompt_and_approve_with_y(display: str, tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    workspace.mkdir()
    scenario = tmp_path / "scenario.json"
    write = {"name": "Write", "call_id": "c-hello",
             "args": {"file_path": "hello.txt", "content": "hello from e2e\n"}}  # fmt: skip
    scenario.write_text(json.dumps({"turns": [[
        {"text": "I will create **hello.txt** with a greeting:\n\n```python\nprint('hi')\n```\n",
         "chunks": 8},
        {"tool": write},
        {"text": "Done: `hello.txt` was written.", "chunks": 3},
    ]]}))  # fmt: skip
    command = shlex.join([sys.executable, str(FAKE), "--json-stream", "--profile", "spec",
                          "--scenario", str(scenario)])  # fmt: skip
    app = App(display, tmp_path / "home", workspace, command)
    try:
        app.settle()
        focused, armed = app.focused("c-hello"), app.armed("c-hello")
        app.type("please write hello")
        app.key("Return")
        # The card takes the keyboard once the composer has been idle for 1.5 s (the Enter
        # counts as typing); a person reads it before pressing Y (its key guard).
        app.wait(focused, "the request to take the keyboard")
        app.wait(armed, "its key guard to end")
        app.key("y")
        target = workspace / "hello.txt"
        app.wait(target.exists, "hello.txt")
        assert target.read_text() == "hello from e2e\n"
        answer = "SELECT text FROM items WHERE kind='assistant' AND complete=1"
        app.wait(lambda: any("was written" in t for (t,) in app.rows(answer)), "the answer")
        OUTPUT.mkdir(exist_ok=True)
        shot = OUTPUT / "e2e-window.png"
        grab = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("grab_screen.py")), str(shot)],
            env={**os.environ, "DISPLAY": display},
            timeout=30,
            check=False,
        )
        assert grab.returncode == 0 and shot.stat().st_size > 10_000
    finally:
        status, stderr = app.stop() if app.proc.poll() is None else (app.proc.returncode, "")
    assert status == 0, stderr[-2000:]
    assert "Fatal Python error" not in stderr
