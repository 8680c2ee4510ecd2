"""Tools run without a request (issue 14, item 5): a warning card, unless the agent's own
read-only allow-list ran a read; through a real session and the fake aionrs agent."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from desktop.core.backend import Prompt
from desktop.core.entries import ToolItem
from desktop.core.transcript import Transcript
from desktop.ui.conversation.tool_card import ToolCard
from tests.core.support import make_session


@pytest.mark.asyncio
async def test_a_tool_run_without_asking_is_a_warning_card(
    qtbot: QtBot, host: QWidget, workspace: Path
) -> None:
    (workspace / "a.txt").write_text("hello\n")
    sneaky = {"type": "tool_running", "msg_id": "m", "call_id": "sneaky", "tool_name": "Bash"}
    read = {"tool": {"name": "Read", "args": {"file_path": "a.txt"}, "call_id": "r1"}}
    session, _rec = make_session(workspace, "aionrs-0.2", {"turns": [[read, {"event": sneaky}]]})
    transcript = Transcript()
    session.subscribe(transcript.apply)
    await session.start()
    session.submit(Prompt("go"))
    await session.wait_idle()
    await session.close()
    cards: dict[str, ToolCard] = {}
    for item in transcript.items:
        if isinstance(item, ToolItem):
            cards[item.request.call_id] = card = ToolCard(item)
            host.layout().addWidget(card)
            card.show()
    qtbot.waitUntil(lambda: all(c.isVisible() for c in cards.values()))
    read_card, warned = cards["r1"], cards["sneaky"]
    assert read_card.line.outcome.text() == "Run by the agent (read-only)"
    assert read_card.property("tone") == "" and read_card.line.outcome.property("tone") in (
        "",
        None,
    )
    assert warned.line.outcome.text() == "The agent ran this without asking"
    assert warned.property("tone") == "warning"
    assert warned.line.outcome.property("tone") == "warning"
    assert warned.line.title.accessibleName().startswith("Use tool `Bash`")
