"""The window and ``agentdesk exec`` build a conversation the same way, so they record it the same.

Both go through ``desktop.core.conversation.Conversation`` with a ``HistoryRecording`` attached
(``Conversation.record``) and an ``ExtensionLink`` (``Conversation.extend``). The same scripted
agent answers the same prompt once in a window and once through ``exec``; the two stored
conversations have the same title, agent and entries (ids and times aside).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from desktop.core.history import StoredConversation
from tests.ui.conftest import Driver, _shutdown, agent_cmd
from tests.ui_history.test_sidebar_history import _converse, _stored, _window
from tests.waiting import until

SCENARIO: dict[str, Any] = {
    "turns": [
        [
            {"thinking": "Let me look at the file first.", "chunks": 3},
            {"tool": {"name": "Read", "args": {"file_path": "notes.txt"}, "category": "info"}},
            {"text": "# Notes\n\nThe file says *some notes*.", "chunks": 5},
        ],
        [{"text": "Second answer.", "chunks": 2}],
    ]
}
PROMPTS = ("what is in notes.txt", "and then?")
#: Differ between any two runs: ids the host or the agent makes up, and times.
VOLATILE = {"turn_id", "call_id", "id", "key", "created_at", "at", "started_at", "ended_at"}


def _comparable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _comparable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_comparable(v) for v in value]
    return value


def entries(conversation: StoredConversation) -> list[tuple[str, str, Any]]:
    """Each stored item as (kind, search text, entry without ids and times)."""
    return [
        (item.kind, item.text, _comparable(json.loads(item.entry.model_dump_json())))
        for item in conversation.items
    ]


def exec_conversation(driver: Driver, workspace: Path) -> StoredConversation:
    """Run the scenario through ``agentdesk exec`` (same home, its own workspace)."""
    command = agent_cmd(SCENARIO, driver.tmp, "aionrs-0.2")
    args = ["exec", "--json", "--workspace", str(workspace), "--agent-cmd", command]
    for prompt in PROMPTS:
        args += ["-p", prompt]
    done = subprocess.run(
        [sys.executable, "-m", "desktop", *args],
        cwd=driver.tmp,
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (stored,) = _stored(workspace)
    return stored


def test_window_and_exec_record_the_same_conversation(driver: Driver) -> None:
    for folder in (driver.workspace(), driver.workspace("exec")):
        (folder / "notes.txt").write_text("some notes\n")
    by_exec = exec_conversation(driver, driver.workspace("exec"))

    async def body() -> StoredConversation:
        context, window, _ = await _window(driver, SCENARIO, "aionrs-0.2")  # Read runs unasked
        await _converse(window, *PROMPTS)

        def recorded() -> bool:
            stored = _stored(driver.workspace())
            return bool(stored) and [i.kind for i in stored[0].items].count("turn_end") == 2

        await until(recorded, what="both turns recorded")
        await _shutdown(context)  # what is open is written
        (stored,) = _stored(driver.workspace())
        return stored

    by_window: StoredConversation = driver.run(body(), 90)
    assert (by_window.title, by_window.agent) == (by_exec.title, by_exec.agent)
    window_entries, exec_entries = entries(by_window), entries(by_exec)
    kinds = [kind for kind, _, _ in exec_entries]
    assert kinds.count("user") == 2 and kinds.count("turn_end") == 2, kinds
    assert {"thinking", "tool", "assistant"} <= set(kinds), kinds
    assert window_entries == exec_entries
