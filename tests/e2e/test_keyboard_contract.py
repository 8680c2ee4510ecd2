"""The keyboard contract, with real X key events (xdotool) into the real ``agentdesk`` process.

A sentence full of y/a/n typed into the composer while a request is pending decides nothing
and arrives intact as the next prompt; Tab then Y approves; send, wait, Y still works; Shift+N
takes a reason that reaches the agent; Down/Up move between two pending cards and the focused
one is in view. What happened is read from the agent's side (files its tools create), from the
history database the app writes (prompts, decisions, the agent's ``tool_cancelled`` reason),
and from the app's INFO log lines "approval <id> has the keyboard, in view".
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.app_driver import FAKE, App

pytestmark = pytest.mark.e2e

#: Every letter a decision key, both cases (typed with no Enter).
SENTENCE = "hmm maybe try yarn instead of make. Yes And No, any notes? yay nay AYN"
REASON = "use git clean -n first"


def _bash(call_id: str, command: str) -> dict[str, Any]:
    return {"name": "Bash", "args": {"command": command}, "call_id": call_id}


def _scenario() -> dict[str, Any]:
    long_file = "".join(f"line {n}: a long file keeps the second card below the fold\n"
                        for n in range(80))  # fmt: skip
    return {
        "prompts": {
            "please write hello": [
                {
                    "tool": {
                        "name": "Write",
                        "call_id": "c-hello",
                        "args": {"file_path": "hello.txt", "content": "hello\n"},
                    }
                },
            ],
            "run the build": [
                {"sleep": 0.8},  # the user is still typing when the request arrives
                {"tool": _bash("c-build", "touch built.txt")},
            ],
            SENTENCE: [{"text": "Noted."}],
            "clean up": [{"tool": _bash("c-clean", "touch cleaned.txt")}],
            "two steps": [
                {
                    "tools": [
                        {
                            "name": "Write",
                            "call_id": "c-one",
                            "args": {"file_path": "one.txt", "content": long_file},
                        },
                        _bash("c-two", "touch two.txt"),
                    ]
                },
            ],
        }
    }


@pytest.fixture
def app(display: str, tmp_path: Path) -> Iterator[App]:
    workspace = tmp_path / "project"
    workspace.mkdir()
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps(_scenario()))
    command = shlex.join([sys.executable, str(FAKE), "--json-stream", "--profile", "spec",
                          "--scenario", str(scenario)])  # fmt: skip
    running = App(display, tmp_path / "home", workspace, command)
    try:
        # The composer has the keyboard from when the conversation is made; its agent starts
        # with the first prompt.
        running.settle()
        yield running
    finally:
        if running.proc.poll() is None:
            running.stop()


def test_keyboard_contract(app: App) -> None:
    ws = app.workspace

    # (c) The existing flow: send a prompt, wait, press Y.
    focused, armed = app.focused("c-hello"), app.armed("c-hello")
    app.type("please write hello")
    app.key("Return")
    app.wait(focused, "the request to take the keyboard once the composer is idle")
    app.wait(armed, "its key guard to end")  # a person reads the card before pressing Y
    app.key("y")
    app.wait((ws / "hello.txt").exists, "hello.txt (approved with Y)")

    # (a) A sentence full of y/a/n typed before the request arrives and while it is pending.
    app.type("run the build")
    app.key("Return")
    half = len(SENTENCE) // 2
    app.type(SENTENCE[:half], delay_ms=40)  # the request arrives while this is typed
    app.wait(lambda: app.tool("c-build"), "the request, while the user types")
    app.type(SENTENCE[half:])
    # The stored entry (desktop.core.entries.ToolItem, typed JSON since history schema 4).
    assert app.tool("c-build").get("status") == "waiting for approval", "the request is pending"
    assert app.tool("c-build").get("decision") is None
    assert not (ws / "built.txt").exists()

    # (b) Tab then Y approves (once); the composer gets the keyboard back, the sentence intact.
    focused = app.focused("c-build")
    app.key("Tab")
    app.wait(focused, "Tab to the pending card")
    app.key("y")
    app.wait((ws / "built.txt").exists, "built.txt (approved with Tab, Y)")
    assert app.tool("c-build")["decision"]["decision"] == "once"
    app.key("Return")
    app.wait(
        lambda: SENTENCE in app.prompts(), f"the sentence as the next prompt:\n{app.prompts()}"
    )

    # (d) Shift+N denies with a reason, and the reason reaches the agent.
    focused, armed = app.focused("c-clean"), app.armed("c-clean")
    app.type("clean up")
    app.key("Return")
    app.wait(focused, "the clean-up request to take the keyboard")
    app.wait(armed, "its key guard to end")
    app.key("shift+n")
    app.type(REASON)
    app.key("Return")
    app.wait(lambda: app.tool("c-clean").get("status") == "denied", "the denial")
    # Written when the user decided; the agent's ``tool_cancelled`` (with the reason) follows.
    app.wait(lambda: app.tool("c-clean").get("cancel_reason") == REASON, "the agent's reason")
    assert not (ws / "cleaned.txt").exists()

    # (e) Down/Up between two pending cards; the focused one is scrolled into view.
    first, armed = app.focused("c-one"), app.armed("c-one")
    app.type("two steps")
    app.key("Return")
    app.wait(first, "the first of two requests to take the keyboard")
    app.wait(armed, "its key guard to end")
    second = app.focused("c-two")
    app.key("Down")
    app.wait(second, "Down: the second card has the keyboard and is in view")
    first = app.focused("c-one")
    app.key("Up")
    app.wait(first, "Up: the first card again, in view")
    second = app.focused("c-two")
    app.key("Down")
    app.wait(second, "Down again")
    first, armed = app.focused("c-one"), app.armed("c-one")
    app.key("y")  # approves the second only; the keyboard moves on to the first
    app.wait(first, "after Y the remaining card has the keyboard, in view")
    assert app.tool("c-two")["decision"]["decision"] == "once"
    assert app.tool("c-one").get("decision") is None
    app.wait(armed, "the remaining card to take decision keys")
    app.key("n")
    app.wait((ws / "two.txt").exists, "two.txt (the agent runs its calls in order)")
    assert app.tool("c-one")["decision"]["decision"] == "deny"
    assert not (ws / "one.txt").exists()

    status, stderr = app.stop()
    assert status == 0, stderr[-2000:]
    assert "Fatal Python error" not in stderr
    assert app.prompts()[:3] == ["please write hello", "run the build", SENTENCE]
