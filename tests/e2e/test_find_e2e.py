"""Find inside a conversation in the real ``agentdesk`` process under Xvfb (issue 19).

Real X key events (xdotool): Ctrl+F opens the find bar, the typed query is counted and the count
is announced (heard over the real AT-SPI bus, as in ``test_atspi_announce``), Enter and
Shift+Enter step through the hits, Esc closes the bar and the composer has the keyboard again:
the next typed line is sent as a prompt.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from tests.e2e.app_driver import FAKE, App
from tests.e2e.atspi import POLITE, Listener

pytestmark = pytest.mark.e2e

ANSWER = "\n\n".join(
    [f"Paragraph {n}: the retry loop waits twice as long each time." for n in range(40)]
    + ["A quokka smiles.", "Another quokka, further down."]
)


def test_ctrl_f_finds_steps_and_esc_gives_the_composer_back(
    display: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = tmp_path / "project"
    workspace.mkdir()
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps({"turns": [
        [{"text": ANSWER, "chunks": 6}], [{"text": "Second answer.", "chunks": 1}],
    ]}))  # fmt: skip
    command = shlex.join([sys.executable, str(FAKE), "--json-stream", "--profile", "spec",
                          "--scenario", str(scenario)])  # fmt: skip
    listener = Listener()
    monkeypatch.setenv("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1")
    app = App(display, tmp_path / "home", workspace, command)
    try:
        app.xdotool("windowfocus", "--sync", app.settle())
        app.type("tell me about quokkas")
        app.key("Return")
        answered = "SELECT text FROM items WHERE kind='assistant' AND complete=1"
        app.wait(lambda: any("further down" in t for (t,) in app.rows(answered)), "the answer")
        app.key("ctrl+f")
        app.type("quokka")
        # The prompt holds one, the answer two: the first from the top of the viewport.
        app.wait(lambda: listener.said("of 3", POLITE), "the count announced")
        heard = len(listener.heard)
        app.key("Return")
        app.wait(lambda: len(listener.heard) > heard, "the next hit announced")
        heard = len(listener.heard)
        app.key("shift+Return")
        app.wait(lambda: len(listener.heard) > heard, "the previous hit announced")
        app.key("Escape")
        app.type("after find")
        app.key("Return")
        app.wait(lambda: "after find" in app.prompts(), f"the composer's prompt: {app.prompts()}")
    finally:
        listener.close()
        status, stderr = app.stop() if app.proc.poll() is None else (app.proc.returncode, "")
    assert status == 0, stderr[-2000:]
