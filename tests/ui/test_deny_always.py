""" "Deny always" in the real window with a real ACP agent process (the scripted peer): the card
offers it (ACP has ``reject_always``), Ctrl+Shift+N makes a deny rule the rules panel lists and
the next matching request is denied by it without asking; revoking it from the panel drops it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.core.events import SessionState
from desktop.core.protocols.acp.adapter import AcpBackend, AcpLaunch
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.pane import ConversationPane
from tests.ui.conftest import KNOWN_QT_MESSAGES, Driver
from tests.waiting import until

PEER = Path(__file__).parents[1] / "fakes" / "fake_acp_peer.py"
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
#: The offscreen platform cannot grab the keyboard for the rules popup, and says so.
POPUP_MESSAGES = pytest.mark.qt_log_ignore(
    *KNOWN_QT_MESSAGES, r"This plugin does not support grabbing the keyboard"
)


def _cards(pane: ConversationPane) -> list[ToolCard]:
    return [w for w in pane.view.widgets.values() if isinstance(w, ToolCard)]


@POPUP_MESSAGES
def test_deny_always_makes_a_rule_that_denies_the_next_edit(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        workspace = driver.workspace()
        context = await driver.acontext({})
        window = context.open_workspace(workspace)
        window.show()
        spec = AcpLaunch([sys.executable, str(PEER)], workspace, {"PATH": "/usr/bin:/bin"})
        pane = window.add_pane("ACP", "fake-acp", lambda rid: AcpBackend(spec, resume_id=rid))
        window.show_pane(pane)
        pane.composer.editor.setPlainText("go")
        qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)
        await until(lambda: pane.pending_cards(), what="the edit asks")
        approval = pane.pending_cards()[0].approval
        assert approval is not None and approval.never_button.isVisible()
        approval.take_focus(guard=False)
        await until(approval.hasFocus, what="the card has the keyboard")
        qtbot.keyClick(approval, Qt.Key.Key_N, CTRL_SHIFT)
        await until(
            lambda: pane.session.state == SessionState.IDLE and pane.session.active_turn is None,
            what="the turn ends",
        )
        assert not (workspace / "written.txt").exists()
        write = next(c for c in _cards(pane) if c.item.request.name == "write_file")
        assert write.item.decision is not None
        assert (write.item.decision.source, write.item.decision.source_name) == (
            "always_rule",
            "deny:edit",
        )
        assert pane.composer.mode.text().startswith("Ask every time · 1 rule")

        button, panel = pane.composer.mode, pane.rules_panel
        button.click()
        await until(panel.isVisible, what="panel open")
        [row] = panel.rows
        assert row.title.text() == "Denied: file edits"
        assert row.revoke.accessibleName() == "Revoke the deny rule for file edits"
        row.revoke.click()
        await until(lambda: pane.session.approvals.rules == [], what="rule revoked")
        assert panel.rows == [] and panel.empty.isVisible()
        panel.close()

    driver.run(body(), 60)
