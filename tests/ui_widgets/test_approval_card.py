"""ApprovalCard: keys, buttons, previews (diff / command / JSON), outside-workspace flag."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from desktop.core.events import (
    Decision,
    DecisionSource,
    ToolCategory,
    ToolDecided,
    ToolRequested,
)
from desktop.ui.approvals import ApprovalCard, CardState
from desktop.ui.diff.model import RowKind

MakeRequest = Callable[..., ToolRequested]
EDIT_ARGS = {"file_path": "app.py", "old_string": "'hello '", "new_string": "'hi '"}


def _card(qtbot: QtBot, host: QWidget, request: ToolRequested, guard_ms: int = 0) -> ApprovalCard:
    card = ApprovalCard(request, host, key_guard_ms=guard_ms)
    host.layout().addWidget(card)
    card.show()
    card.take_focus(guard=True)
    qtbot.waitUntil(card.hasFocus)
    return card


@pytest.mark.parametrize(
    ("key", "modifier", "decision"),
    [
        (Qt.Key.Key_Y, Qt.KeyboardModifier.NoModifier, "once"),
        (Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier, "once"),
        (Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier, "once"),
        (Qt.Key.Key_A, Qt.KeyboardModifier.NoModifier, "always"),
        (Qt.Key.Key_N, Qt.KeyboardModifier.NoModifier, "deny"),
        (Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier, "deny"),
    ],
)
def test_keys_decide(
    qtbot: QtBot,
    host: QWidget,
    make_request: MakeRequest,
    key: Qt.Key,
    modifier: Qt.KeyboardModifier,
    decision: str,
) -> None:
    card = _card(qtbot, host, make_request("Edit", ToolCategory.EDIT, EDIT_ARGS, "call-7"))
    with qtbot.waitSignal(card.decided) as blocker:
        qtbot.keyClick(card, key, modifier)
    assert blocker.args == ["call-7", decision, ""]
    assert card.state == CardState.SUBMITTED
    assert not card.approve_button.isVisible()  # gone, not merely disabled
    assert card.status.text() == ("Denying…" if decision == "deny" else "Approving…")
    with qtbot.assertNotEmitted(card.decided):
        qtbot.keyClick(card, Qt.Key.Key_Y)


def test_deny_with_reason_inline(qtbot: QtBot, host: QWidget, make_request: MakeRequest) -> None:
    card = _card(qtbot, host, make_request("Bash", ToolCategory.EXEC, {"command": "rm -rf build"}))
    qtbot.keyClick(card, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)
    assert card.reason_edit.isVisible()
    assert card.reason_edit.hasFocus()
    with qtbot.assertNotEmitted(card.decided):
        qtbot.keyClick(card.reason_edit, Qt.Key.Key_Escape)  # back, not deny
    assert not card.reason_edit.isVisible()
    assert card.hasFocus()
    assert card.is_pending()
    qtbot.keyClick(card, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(card.reason_edit, "not yet")
    with qtbot.waitSignal(card.decided) as blocker:
        qtbot.keyClick(card.reason_edit, Qt.Key.Key_Return)
    assert blocker.args == ["c1", "deny", "not yet"]
    assert not card.reason_edit.isVisible()


def test_buttons_have_accessible_names_and_shortcut_hints(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    card = _card(qtbot, host, make_request("Edit", ToolCategory.EDIT, EDIT_ARGS))
    names = {
        button.accessibleName(): (button.text(), button.toolTip())
        for button in (
            card.approve_button,
            card.always_button,
            card.deny_button,
            card.reason_button,
        )
    }
    # Short visible labels (the row fits a narrow column); the full wording is the name.
    assert names == {
        "Approve once": ("Approve  Y", "Approve once (Y / Enter)"),
        "Approve always: edit tools in this conversation": (
            "Always  A",
            "Approve always: edit tools in this conversation (A)",
        ),
        "Deny": ("Deny  N", "Deny (N / Esc)"),
        "Deny with reason": ("Reason…  ⇧N", "Deny with reason (Shift+N)"),
    }
    with qtbot.waitSignal(card.decided) as blocker:
        qtbot.mouseClick(card.always_button, Qt.MouseButton.LeftButton)
    assert blocker.args == ["c1", "always", ""]


def test_edit_shows_diff_before_approval(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    card = _card(qtbot, host, make_request("Edit", ToolCategory.EDIT, EDIT_ARGS))
    view = card.body.diff_view
    assert view is not None
    rows = view.model.unified
    assert [r.text for r in rows if r.kind == RowKind.REMOVED] == ["    return 'hello ' + name"]
    assert [r.text for r in rows if r.kind == RowKind.ADDED] == ["    return 'hi ' + name"]
    assert not card.body.warning.isVisible()
    qtbot.keyClick(
        card, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert view.is_side_by_side()
    assert card.is_pending()


def test_new_file_shows_all_added_lines(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    args = {"file_path": "pkg/new.py", "content": "A = 1\nB = 2\n"}
    card = _card(qtbot, host, make_request("Write", ToolCategory.EDIT, args))
    assert card.body.preview.new_file
    assert card.sentence.plain() == "Create `pkg/new.py` (+2)"
    view = card.body.diff_view
    assert view is not None
    body = [r for r in view.model.unified if r.kind not in (RowKind.FILE, RowKind.HUNK)]
    assert [(r.kind, r.text) for r in body] == [(RowKind.ADDED, "A = 1"), (RowKind.ADDED, "B = 2")]


def test_outside_workspace_is_flagged_in_red(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    args = {"file_path": "../elsewhere.txt", "content": "x\n"}
    card = _card(qtbot, host, make_request("Write", ToolCategory.EDIT, args))
    warning = card.body.warning
    assert warning.isVisible()
    assert "Outside the workspace" in warning.text()
    assert "elsewhere.txt" in card.title.text()  # the path is in the title, once
    assert "elsewhere.txt" in warning.toolTip()
    assert warning.property("role") == "outsideWarning"  # red in both palettes (theme)
    assert warning.accessibleName() == "Warning: outside the workspace"


def test_command_shows_full_command_line_and_directory(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    command = "git clean -fdx && rm -rf ~/.cache/thing --no-preserve-root"
    card = _card(
        qtbot, host, make_request("Bash", ToolCategory.EXEC, {"command": command, "cwd": "/tmp"})
    )
    assert card.body.text_box is not None
    assert card.body.text_box.toPlainText() == command
    assert card.sentence.where == "in /tmp"
    assert card.body.warning.isVisible()
    assert card.body.warning.text() == "⚠ Runs outside the workspace"


def test_other_tools_show_pretty_json(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    card = _card(qtbot, host, make_request("lookup", ToolCategory.MCP, {"url": "http://x", "n": 2}))
    assert card.sentence.plain() == "Use tool `lookup`"
    box, toggle = card.body.text_box, card.body.args_toggle
    assert box is not None and toggle is not None
    assert box.toPlainText() == '{\n  "n": 2,\n  "url": "http://x"\n}'
    assert not box.isVisible()  # collapsed by default
    assert toggle.text() == "Arguments ▸"
    assert toggle.focusPolicy() == Qt.FocusPolicy.NoFocus
    qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)
    assert box.isVisible()
    assert toggle.text() == "Arguments ▾"
    assert card.hasFocus()  # clicking the toggle did not take focus


@pytest.mark.parametrize(
    ("decision", "source", "name", "reason", "expected"),
    [
        (Decision.ONCE, DecisionSource.USER, None, None, "Approved by you"),
        (
            Decision.ALWAYS,
            DecisionSource.USER,
            None,
            None,
            "Approved by you, always for file edits",
        ),
        (
            Decision.ONCE,
            DecisionSource.MODE,
            "auto_edit",
            None,
            "Allowed by mode Auto-approve edits",
        ),
        (
            Decision.DENY,
            DecisionSource.EXTENSION,
            "deny-list",
            None,
            "Denied by extension deny-list",
        ),
        (Decision.DENY, DecisionSource.USER, None, "too risky", "Denied by you: too risky"),
        (
            Decision.ONCE,
            DecisionSource.ALWAYS_RULE,
            "exec",
            None,
            "Allowed by your always-rule for shell commands",
        ),
        (
            Decision.DENY,
            DecisionSource.POLICY,
            "shell_deny_list",
            None,
            "Denied by policy shell_deny_list",
        ),
        (Decision.DENY, DecisionSource.SHUTDOWN, None, None, "Not run: the session was closed"),
    ],
)
def test_mark_resolved_says_who_decided(
    qtbot: QtBot,
    host: QWidget,
    make_request: MakeRequest,
    decision: Decision,
    source: DecisionSource,
    name: str | None,
    reason: str | None,
    expected: str,
) -> None:
    card = _card(qtbot, host, make_request("Edit", ToolCategory.EDIT, EDIT_ARGS))
    event = ToolDecided(
        call_id="c1", decision=decision, source=source, source_name=name, reason=reason
    )
    with qtbot.waitSignal(card.settled):
        card.mark_resolved(event)
    assert card.status.text() == expected
    assert card.state == CardState.RESOLVED
    assert all(
        not b.isVisible()
        for b in (card.approve_button, card.always_button, card.deny_button, card.reason_button)
    )
    with qtbot.assertNotEmitted(card.decided):
        qtbot.keyClick(card, Qt.Key.Key_Y)


def test_keys_are_ignored_right_after_focus_is_taken_and_on_auto_repeat(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    card = _card(qtbot, host, make_request("Edit", ToolCategory.EDIT, EDIT_ARGS), guard_ms=400)
    with qtbot.assertNotEmitted(card.decided):
        qtbot.keyClick(card, Qt.Key.Key_Y)  # typed just as the card appeared
    qtbot.waitUntil(lambda: not card._guarded())  # the key guard is over
    with qtbot.assertNotEmitted(card.decided):
        repeat = QKeyEvent(
            QEvent.Type.KeyPress, Qt.Key.Key_Y, Qt.KeyboardModifier.NoModifier, "y", True
        )
        QApplication.sendEvent(card, repeat)
    with qtbot.waitSignal(card.decided) as blocker:
        qtbot.keyClick(card, Qt.Key.Key_Y)
    assert blocker.args == ["c1", "once", ""]


def test_review_hint_shows_only_while_pending(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    card = _card(qtbot, host, make_request("Edit", ToolCategory.EDIT, EDIT_ARGS))
    assert not card.review_hint.isVisible()
    card.set_review_hint(True)
    assert card.review_hint.isVisible()
    assert card.review_hint.text() == "Tab to review"
    card.set_review_hint(False)
    assert not card.review_hint.isVisible()
    card.set_review_hint(True)
    card.approve_once()
    assert not card.review_hint.isVisible()
    card.set_review_hint(True)
    assert not card.review_hint.isVisible()


def test_deny_always_is_offered_only_where_the_protocol_has_it(
    qtbot: QtBot, host: QWidget, make_request: MakeRequest
) -> None:
    ctrl_shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    plain = _card(qtbot, host, make_request("Edit", ToolCategory.EDIT, EDIT_ARGS, "aionrs-1"))
    assert not plain.never_button.isVisible()
    with qtbot.assertNotEmitted(plain.decided):
        qtbot.keyClick(plain, Qt.Key.Key_N, ctrl_shift)
    assert plain.is_pending()
    acp = make_request("Edit", ToolCategory.EDIT, EDIT_ARGS, "acp-1")
    card = _card(qtbot, host, acp.model_copy(update={"offers_reject_always": True}))
    assert card.never_button.isVisible()
    assert card.never_button.accessibleName() == "Deny always: edit tools in this conversation"
    assert card.never_button.toolTip().endswith("(Ctrl+Shift+N)")
    with qtbot.assertNotEmitted(card.decided):  # Shift+N alone asks for a reason instead
        qtbot.keyClick(card, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)
    card.cancel_reason()
    with qtbot.waitSignal(card.decided) as blocker:
        qtbot.keyClick(card, Qt.Key.Key_N, ctrl_shift)
    assert blocker.args == ["acp-1", "reject_always", ""]
    assert card.status.text() == "Denying…"
    card.mark_resolved(
        ToolDecided(call_id="acp-1", decision=Decision.REJECT_ALWAYS, source=DecisionSource.USER)
    )
    assert card.status.text() == "Denied by you, always for file edits"
    later = ToolDecided(
        call_id="acp-2",
        decision=Decision.DENY,
        source=DecisionSource.ALWAYS_RULE,
        source_name="deny:edit",
    )
    second = _card(qtbot, host, acp.model_copy(update={"call_id": "acp-2"}))
    second.mark_resolved(later)
    assert second.status.text() == "Denied by your always-rule for file edits"
