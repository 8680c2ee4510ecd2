"""The composer's mode button and its panel: modes and always-rules, through the real window.

An "approve always" makes a rule the button counts and the panel lists; the rule approves the
next call of its kind; revoking it from the panel makes the following call ask again.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.core.entries import ToolStatus
from desktop.core.events import ApprovalMode, SessionState
from desktop.ui.approvals.rules import EMPTY_TEXT
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.pane import ConversationPane
from tests.ui.conftest import KNOWN_QT_MESSAGES, Driver
from tests.waiting import until

#: The offscreen platform cannot grab the keyboard for a popup, and says so when one opens
#: (on the function: pytest-qt reads the closest ``qt_log_ignore`` only).
POPUP_MESSAGES = pytest.mark.qt_log_ignore(
    *KNOWN_QT_MESSAGES, r"This plugin does not support grabbing the keyboard"
)


def _bash(command: str) -> dict[str, object]:
    return {"tool": {"name": "Bash", "args": {"command": command}}}


def _idle(pane: ConversationPane) -> bool:
    return pane.session.state == SessionState.IDLE and pane.session.active_turn is None


def _cards(pane: ConversationPane) -> list[ToolCard]:
    return [w for w in pane.view.widgets.values() if isinstance(w, ToolCard)]


async def _open(driver: Driver, scenario: dict[str, object]) -> ConversationPane:
    # aionrs 0.2 ignores "scope: always": every call reaches the host, which applies the rules
    context = await driver.acontext(scenario, "aionrs-0.2")
    window = context.open_workspace(driver.workspace())
    pane = window.current
    assert pane is not None
    window.show()
    return pane


def _send(qtbot: QtBot, pane: ConversationPane, text: str) -> None:
    pane.composer.editor.setPlainText(text)
    qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)


@POPUP_MESSAGES
def test_always_rule_is_shown_applies_and_revoking_it_asks_again(
    driver: Driver, qtbot: QtBot
) -> None:
    async def body() -> None:
        turns = [[_bash("touch one")], [_bash("touch two")], [_bash("touch three")]]
        pane = await _open(driver, {"turns": turns})
        button, panel = pane.composer.mode, pane.rules_panel
        assert button.text().startswith("Ask every time") and "rule" not in button.text()

        button.click()
        await until(panel.isVisible, what="panel open")
        assert panel.empty.isVisible() and panel.empty.text() == EMPTY_TEXT
        assert panel.modes["default"].isChecked() and panel.rows == []
        qtbot.keyClick(panel.focusWidget(), Qt.Key.Key_Escape)
        assert not panel.isVisible()

        _send(qtbot, pane, "one")
        await until(lambda: pane.pending_cards(), what="first request")
        card = pane.pending_cards()[0]
        pane.view.decided.emit(card.item.request.call_id, "always", "")  # what A on the card sends
        await until(lambda: _idle(pane), what="first turn")
        assert button.text().startswith("Ask every time · 1 rule")
        assert "1 rule" in button.accessibleName()

        button.click()
        await until(panel.isVisible, what="panel open")
        [row] = panel.rows
        assert row.title.text() == "Shell commands"
        assert (
            row.detail.text().startswith("since ") and "<code>touch one</code>" in row.detail.text()
        )
        assert row.revoke.accessibleName() == "Revoke the always-rule for shell commands"
        assert row.accessibleName().endswith("from ExecCommand touch one")  # aionrs 0.2's name
        assert not panel.empty.isVisible()
        qtbot.keyClick(panel.focusWidget(), Qt.Key.Key_Escape)

        _send(qtbot, pane, "two")
        await until(lambda: _idle(pane) and len(_cards(pane)) == 2, what="second turn")
        second = _cards(pane)[1]
        assert second.approval is None or second.item.status != ToolStatus.WAITING  # never asked
        assert second.item.decision is not None
        assert (second.item.decision.source, second.item.decision.source_name) == (
            "always_rule",
            "exec",
        )
        assert (driver.workspace() / "two").exists()

        button.click()
        await until(panel.isVisible, what="panel open")
        panel.rows[0].revoke.click()
        await until(lambda: "rule" not in button.text(), what="rule revoked")
        assert panel.rows == [] and panel.empty.isVisible() and panel.isVisible()
        panel.close()

        _send(qtbot, pane, "three")
        await until(lambda: pane.pending_cards(), what="third call asks again")
        assert pane.session.state == SessionState.AWAITING_APPROVAL
        assert not (driver.workspace() / "three").exists()
        pane.view.decided.emit(pane.pending_cards()[0].item.request.call_id, "deny", "")
        await until(lambda: _idle(pane), what="third turn")

    driver.run(body(), 90)


@POPUP_MESSAGES
def test_modes_from_the_keyboard_and_from_the_session_show_on_the_button(
    driver: Driver, qtbot: QtBot
) -> None:
    async def body() -> None:
        pane = await _open(driver, {})
        button, panel = pane.composer.mode, pane.rules_panel
        button.click()
        await until(panel.isVisible, what="panel open")
        assert panel.focusWidget() is panel.modes["default"]
        qtbot.keyClick(panel.focusWidget(), Qt.Key.Key_Down)
        assert panel.focusWidget() is panel.modes["auto_edit"]
        assert pane.session.mode == ApprovalMode.DEFAULT  # moving the focus chooses nothing
        qtbot.keyClick(panel.focusWidget(), Qt.Key.Key_Down)
        assert panel.focusWidget() is panel.modes["yolo"]
        qtbot.keyClick(panel.focusWidget(), Qt.Key.Key_Return)
        await until(lambda: pane.session.mode == ApprovalMode.YOLO, what="yolo")
        await until(lambda: button.text().startswith("Approve everything (yolo)"), what="text")
        assert not panel.isVisible()
        assert panel.modes["yolo"].isChecked() and not panel.modes["default"].isChecked()

        await pane.session.set_mode(ApprovalMode.AUTO_EDIT)  # changed elsewhere: shown too
        await until(lambda: button.text().startswith("Auto-approve edits"), what="text")
        assert panel.modes["auto_edit"].isChecked() and not panel.modes["yolo"].isChecked()
        assert QApplication.activePopupWidget() is None

    driver.run(body(), 90)
