"""Tool cards say what happened: pending → submitted → resolved in one line, auto-approved
calls, titles that name the file once, toggles that never take focus, and the always-rule
regression ("Bash info {}") through a real session and the fake aionrs agent."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from desktop.core.backend import Prompt
from desktop.core.entries import ToolItem
from desktop.core.events import (
    Decision,
    DecisionSource,
    Notice,
    SessionEvent,
    ToolCategory,
    ToolDecided,
    ToolFinished,
    ToolRequested,
    ToolStarted,
)
from desktop.ui.approvals import CardState
from desktop.ui.approvals.summary import clock, tool_sentence
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.conversation.view import ConversationView
from tests.core.support import make_session

MakeRequest = Callable[..., ToolRequested]
EDIT_ARGS = {"file_path": "app.py", "old_string": "'hello '", "new_string": "'hi '"}


def _show(qtbot: QtBot, host: QWidget, card: QWidget) -> None:
    host.layout().addWidget(card)
    card.show()
    qtbot.waitUntil(card.isVisible)


def _visible_texts(card: QWidget) -> list[str]:
    widgets = card.findChildren(QLabel) + card.findChildren(QAbstractButton)
    return [w.text() for w in widgets if w.isVisible()]


def _tool_card(
    qtbot: QtBot, host: QWidget, transcript: TranscriptModel, request: ToolRequested
) -> ToolCard:
    transcript.apply(request)
    item = transcript.tool(request.call_id)
    assert item is not None
    card = ToolCard(item)
    _show(qtbot, host, card)
    return card


def _apply(card: ToolCard, transcript: TranscriptModel, event: SessionEvent) -> None:
    """``event`` happened to the card's call: the card gets the call's new entry."""
    transcript.apply(event)
    item = transcript.tool(card.item.request.call_id)
    assert item is not None
    card.item = item


def test_pending_submitted_resolved_collapses_to_one_line(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    transcript = TranscriptModel()
    request = make_request("Edit", ToolCategory.EDIT, EDIT_ARGS)
    card = _tool_card(qtbot, host, transcript, request)
    approval = card.approval
    assert approval is not None and approval.is_pending()
    assert approval.title.accessibleName() == "Edit `app.py` (+1 −1)"
    assert approval.approve_button.isVisible()
    assert approval.body.isVisible()
    assert not card.line.toggle.isVisible()
    assert "wants to run" not in " ".join(_visible_texts(card))

    with qtbot.waitSignal(card.decided) as blocker:
        approval.approve_button.click()
    assert blocker.args == ["c1", "once", ""]
    assert approval.state == CardState.SUBMITTED
    assert card.line.outcome.text() == "Approving…"
    assert not approval.approve_button.isVisible()

    _apply(
        card,
        transcript,
        ToolDecided(call_id="c1", decision=Decision.ONCE, source=DecisionSource.USER),
    )
    card.refresh()
    assert approval.state == CardState.RESOLVED
    assert card.line.outcome.text() == "Approved by you"
    assert card.line.when.text() == f"· {clock(time.time())}"
    buttons = (approval.approve_button, approval.always_button, approval.deny_button)
    assert not any(b.isVisible() for b in buttons)  # gone, not disabled
    assert not approval.body.isVisible()
    assert approval.property("state") == "resolved"  # no accent border
    # One line: the card is no taller than its line plus the frame.
    assert card.sizeHint().height() < card.line.sizeHint().height() + 40
    qtbot.mouseClick(card.line.toggle, Qt.MouseButton.LeftButton)
    assert approval.body.isVisible()  # the diff is one click away

    _apply(card, transcript, ToolStarted(call_id="c1", name="Edit"))
    card.refresh()
    assert card.line.run_status.text() == "running…"
    _apply(
        card, transcript, ToolFinished(call_id="c1", name="Edit", status="success", output="edited")
    )
    card.refresh()
    assert card.line.run_status.text() == "succeeded"
    output = card.output
    assert output is not None
    qtbot.waitUntil(output.isVisible)  # the card was open: its output shows with the diff


def test_denied_with_reason_says_so_in_one_line(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    transcript = TranscriptModel()
    card = _tool_card(
        qtbot, host, transcript, make_request("Bash", ToolCategory.EXEC, {"command": "rm -rf /"})
    )
    assert card.approval is not None
    card.approval.deny()
    assert card.line.outcome.text() == "Denying…"
    _apply(
        card,
        transcript,
        ToolDecided(call_id="c1", decision=Decision.DENY, source=DecisionSource.USER, reason="no"),
    )
    card.refresh()
    assert card.line.outcome.text() == "Denied by you: no"
    assert card.approval.property("tone") == "bad"


@pytest.mark.parametrize(
    ("source", "name", "expected"),
    [
        (DecisionSource.ALWAYS_RULE, "exec", "Allowed by your always-rule for shell commands"),
        (DecisionSource.MODE, "yolo", "Allowed by mode Approve everything"),
        (DecisionSource.POLICY, "safe_commands", "Allowed by policy safe_commands"),
        (DecisionSource.EXTENSION, "guard", "Allowed by extension guard"),
    ],
)
def test_auto_approved_card_shows_the_command_and_who_allowed_it(
    qtbot: QtBot,
    host: QWidget,
    make_request: MakeRequest,
    source: DecisionSource,
    name: str,
    expected: str,
) -> None:
    transcript = TranscriptModel()
    request = make_request("Bash", ToolCategory.EXEC, {"command": "make all"})
    card = _tool_card(qtbot, host, transcript, request.model_copy(update={"pending": False}))
    assert card.approval is None
    _apply(
        card,
        transcript,
        ToolDecided(call_id="c1", decision=Decision.ONCE, source=source, source_name=name),
    )
    card.refresh()
    assert card.line.title.accessibleName().startswith("Run `make all` in ")
    assert card.line.outcome.text() == expected
    assert card.line.when.isVisible()
    assert card.line.toggle.isVisible() and not card.is_expanded()
    qtbot.mouseClick(card.line.toggle, Qt.MouseButton.LeftButton)
    assert card.body is not None and card.body.text_box is not None
    assert card.body.text_box.toPlainText() == "make all"


def test_file_name_appears_once(qtbot: QtBot, host: QWidget, make_request: MakeRequest) -> None:
    transcript = TranscriptModel()
    args = {"file_path": "notes.md", "content": "a\nb\n"}
    request = make_request("Write", ToolCategory.EDIT, args).model_copy(
        update={"description": "Write to notes.md"}
    )
    card = _tool_card(qtbot, host, transcript, request)
    texts = _visible_texts(card)
    assert sum(t.count("notes.md") for t in texts) == 1, texts
    assert card.approval is not None and not card.approval.description.isVisible()


def test_description_shown_only_when_it_says_more(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    transcript = TranscriptModel()
    raw = make_request("Bash", ToolCategory.EXEC, {"cmd": "ls"}).model_copy(
        update={"description": 'ExecCommand: {"cmd": "ls"}'}
    )
    card = _tool_card(qtbot, host, transcript, raw)
    assert card.approval is not None and not card.approval.description.isVisible()
    telling = make_request("Bash", ToolCategory.EXEC, {"cmd": "ls"}, "c2").model_copy(
        update={"description": "Check which build files exist before cleaning"}
    )
    other = _tool_card(qtbot, host, transcript, telling)
    assert other.approval is not None and other.approval.description.isVisible()


@pytest.mark.parametrize(
    ("name", "category", "args", "expected"),
    [
        ("Read", ToolCategory.INFO, {"file_path": "src/a.py"}, "Read `src/a.py`"),
        ("Grep", ToolCategory.INFO, {"pattern": "TODO"}, "Search for `TODO`"),
        ("mcp__db__query", ToolCategory.MCP, {"sql": "select 1"}, "Use tool `mcp__db__query`"),
        (
            "Bash",
            ToolCategory.EXEC,
            {"command": "make all", "cwd": str(Path.home() / "proj")},
            "Run `make all` in ~/proj",
        ),
    ],
)
def test_titles_are_sentences(
    make_request: MakeRequest, name: str, category: ToolCategory, args: dict[str, object],
    expected: str,
) -> None:  # fmt: skip
    assert tool_sentence(make_request(name, category, args)).plain() == expected


def test_toggles_never_take_focus(qtbot: QtBot, host: QWidget, make_request: MakeRequest) -> None:
    edit = QLineEdit(host)  # stands in for the composer
    host.layout().addWidget(edit)
    transcript = TranscriptModel()
    request = make_request("Edit", ToolCategory.EDIT, EDIT_ARGS).model_copy(
        update={"pending": False}
    )
    card = _tool_card(qtbot, host, transcript, request)
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus)
    qtbot.mouseClick(card.line.toggle, Qt.MouseButton.LeftButton)
    assert card.body is not None and card.body.diff_view is not None
    toggles = [card.line.toggle, card.body.diff_view.toggle_button]
    for toggle in toggles:
        assert toggle.focusPolicy() == Qt.FocusPolicy.NoFocus
        qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)
        assert edit.hasFocus()


def test_tool_echo_notices_are_not_rows() -> None:
    transcript = TranscriptModel()
    view = ConversationView(transcript)
    transcript.apply(Notice(message="Tool call: Write"))
    transcript.apply(
        ToolRequested(call_id="w", name="Write", category=ToolCategory.EDIT, pending=False)
    )
    transcript.apply(Notice(message="[Write success] wrote 2 lines"))
    transcript.apply(Notice(message="[Deploy success] not a card of ours"))
    transcript.apply(Notice(message="Context compacted"))
    texts = [getattr(w.item, "text", None) for w in view.widgets.values()]
    assert texts == [None, "[Deploy success] not a card of ours", "Context compacted"]


@pytest.mark.asyncio
async def test_always_rule_call_shows_what_ran_not_bash_info(
    qtbot: QtBot, host: QWidget, workspace: Path
) -> None:
    """Regression: with an agent that honours ``scope: always`` (protocol 0.1.0, the built-in
    agent) the second call arrived as a bare ``tool_running`` and the card said "Bash info {}"."""
    bash = {"tool": {"name": "Bash", "args": {"command": "echo one"}}}
    again = {"tool": {"name": "Bash", "args": {"command": "echo two"}}}
    session, rec = make_session(workspace, "spec", {"turns": [[bash], [again]]})
    transcript = TranscriptModel()
    session.subscribe(transcript.apply)
    await session.start()
    session.submit(Prompt("one"))
    first = await rec.wait_for(ToolRequested, lambda e: e.pending)
    session.decide(first.call_id, Decision.ALWAYS)
    await session.wait_idle()
    session.submit(Prompt("two"))
    await session.wait_idle()
    await session.close()
    items = [i for i in transcript.items if isinstance(i, ToolItem)]
    assert len(items) == 2
    second = items[1]
    assert second.request.args == {"command": "echo two"}
    assert second.decision is not None and second.decision.source == DecisionSource.ALWAYS_RULE
    card = ToolCard(second)
    _show(qtbot, host, card)
    assert card.line.title.accessibleName().startswith("Run `echo two`")
    assert card.line.outcome.text() == "Allowed by your always-rule for shell commands"
    assert card.line.run_status.text() == "succeeded"


def test_title_shows_the_whole_target_when_it_fits_and_elides_its_middle_when_not(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    command = "rm -rf build; make all; echo finished-the-whole-build"
    transcript = TranscriptModel()
    request = make_request("Bash", ToolCategory.EXEC, {"command": command}, "long")
    card = _tool_card(qtbot, host, transcript, request)
    _apply(
        card,
        transcript,
        ToolDecided(call_id="long", decision=Decision.ONCE, source=DecisionSource.USER),
    )
    card.refresh()
    title = card.line.title
    host.resize(1800, 700)  # the title also says "in <the test's long workspace path>"
    qtbot.waitUntil(lambda: command in title.text())  # the whole command fits
    assert title.width() >= title.sizeHint().width()
    host.resize(700, 700)
    qtbot.waitUntil(lambda: card.width() < 700)
    qtbot.waitUntil(lambda: "…" in title.text())
    assert command not in title.text()
    assert "rm -rf" in title.text() and "whole-build" in title.text(), "the target's ends stay"
    host.resize(1800, 700)
    qtbot.waitUntil(lambda: command in title.text())


def _full_line_width(line: QWidget) -> int:
    """What ``line`` needs to show all it shows whole: its parts' widths and the gaps."""
    parts = [
        widget
        for widget in line.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
        if widget.isVisible()
    ]
    layout = line.layout()
    assert layout is not None
    return sum(part.sizeHint().width() for part in parts) + layout.spacing() * (len(parts) - 1)


def test_transcript_card_title_gets_the_room_before_the_outcome(qtbot: QtBot) -> None:
    """A finished call in the conversation ("Create src/app/retry_policy.py … Run by the agent
    without asking · succeeded · Details"): the muted who-decided text gives way first (its end
    elided), so the title is whole wherever the line has room for it; the title's middle is
    elided only when the line is narrower still, nothing spills past the card, and widening the
    window shows everything whole again."""
    path = "src/app/retry_policy.py"
    transcript = TranscriptModel()
    view = ConversationView(transcript)
    qtbot.addWidget(view)
    view.resize(1400, 500)
    view.show()
    args = {"file_path": path, "content": "x = 1\n"}
    transcript.apply(
        ToolRequested(
            call_id="w", name="Write", category=ToolCategory.EDIT, args=args, pending=False
        )
    )
    transcript.apply(ToolStarted(call_id="w", name="Write"))
    transcript.apply(ToolFinished(call_id="w", name="Write", status="success", output="Wrote"))
    qtbot.waitUntil(lambda: len(view.widgets) == 1)
    card = next(iter(view.widgets.values()))
    assert isinstance(card, ToolCard)
    line, title, outcome = card.line, card.line.title, card.line.outcome
    qtbot.waitUntil(lambda: line.run_status.text() == "succeeded" and line.isVisible())
    assert outcome.text() == "Run by the agent without asking"

    def whole() -> bool:
        return path in title.text() and outcome.width() >= outcome.sizeHint().width()

    qtbot.waitUntil(whole)
    assert outcome.shown() == outcome.text()
    need = _full_line_width(line)
    around = view.width() - line.width()  # the card's and the column's margins

    def fits() -> bool:  # nothing overlaps or spills past the line
        parts = [title, outcome, line.run_status, line.toggle]
        edges = [(part.x(), part.x() + part.width()) for part in parts]
        return all(a[1] <= b[0] for a, b in itertools.pairwise(edges)) and (
            edges[-1][1] <= line.width()
        )

    # Room for the whole title and half the outcome: the outcome gives way, not the title.
    view.resize(need - outcome.sizeHint().width() // 2 + around, 500)
    qtbot.waitUntil(lambda: line.width() == need - outcome.sizeHint().width() // 2)
    qtbot.waitUntil(lambda: outcome.width() < outcome.sizeHint().width() or "…" in title.text())
    assert path in title.text(), f"the title was elided with room for it: {title.text()}"
    assert outcome.width() < outcome.sizeHint().width()
    assert title.width() >= title.sizeHint().width()
    assert outcome.shown().endswith("…") and outcome.shown().startswith("Run by")
    assert fits()
    # Too narrow for the whole title even beside the outcome's first word: the middle of its
    # target gives way, its ends stay.
    narrow = need - outcome.sizeHint().width() - title.sizeHint().width() // 5
    view.resize(narrow + around, 500)
    qtbot.waitUntil(lambda: line.width() == narrow)
    qtbot.waitUntil(lambda: "…" in title.text())
    assert path not in title.text()
    assert "src/" in title.text() and ".py" in title.text(), "the target's ends stay"
    assert fits()
    # Wide again: everything whole.
    view.resize(1400, 500)
    qtbot.waitUntil(whole)
    assert outcome.shown() == outcome.text()
    assert fits()
