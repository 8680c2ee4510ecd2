"""Announcements reach screen readers on Linux: the real window under a real AT-SPI bus.

``desktop.ui.announce`` sends a ``QAccessibleAnnouncementEvent`` when a request waits for
approval (assertive) and when a turn ends (polite). Qt's AT-SPI bridge (xcb platform, 6.8+)
turns it into the ``Announcement`` signal Orca speaks; this test is the screen reader: it
registers for ``object:announcement`` like Orca and hears both, with their politeness, from
the real ``agentdesk`` process (``QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1`` stands for a desktop
where accessibility is switched on).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from tests.e2e.app_driver import FAKE, App
from tests.e2e.atspi import ASSERTIVE, POLITE, Listener

pytestmark = pytest.mark.e2e


def test_requests_and_answers_are_announced_over_atspi(
    display: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "project"
    workspace.mkdir()
    scenario = tmp_path / "scenario.json"
    write = {"name": "Write", "call_id": "c-said",
             "args": {"file_path": "said.txt", "content": "spoken\n"}}  # fmt: skip
    scenario.write_text(json.dumps({"turns": [[
        {"tool": write}, {"text": "Wrote said.txt for the listener.", "chunks": 2},
    ]]}))  # fmt: skip
    command = shlex.join([sys.executable, str(FAKE), "--json-stream", "--profile", "spec",
                          "--scenario", str(scenario)])  # fmt: skip
    listener = Listener()  # registered before the window starts, as Orca is
    monkeypatch.setenv("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1")
    app = App(display, tmp_path / "home", workspace, command)
    try:
        app.xdotool("windowfocus", "--sync", app.settle())
        focused, armed = app.focused("c-said"), app.armed("c-said")
        app.type("write it")
        app.key("Return")
        app.wait(lambda: listener.said("Approval needed", ASSERTIVE), "the request announced")
        assert listener.said("said.txt", ASSERTIVE)  # what waits, in words
        app.wait(focused, "the request to take the keyboard")
        app.wait(armed, "its key guard to end")
        app.key("y")
        app.wait(
            lambda: listener.said("Agent answered: Wrote said.txt for the listener.", POLITE),
            "the answer announced",
        )
        senders = {h.sender for h in listener.heard if "said.txt" in h.text}
        assert len(senders) == 1  # both from the window's own connection to the bus
    finally:
        listener.close()
        status, stderr = app.stop() if app.proc.poll() is None else (app.proc.returncode, "")
    assert status == 0, stderr[-2000:]
