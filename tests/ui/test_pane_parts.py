"""A conversation pane is built in steps (issue 19): what is hidden comes later, and still works.

A stored conversation opened from the sidebar builds no empty state and no rules panel (it may
never show them); its composer's context features (``@`` files) and its plan view come a turn
of the loop after the pane. Used later, each part is there: ``@`` opens the file finder, the
mode button opens the rules panel with the mode the session has now, a finished tool call's
output is made when its card is opened. A new conversation still shows its empty state.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from benchmarks.long_conversation import store_entries, turn_entries
from desktop.core.events import ApprovalMode
from desktop.ui.approvals.rules import RulesPanel
from desktop.ui.composer_context.popup import ChoicePopup
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.open_conversation import open_in
from desktop.ui.pane import ConversationPane
from desktop.ui.plan_view import PlanView
from desktop.ui.welcome.empty import EmptyState
from tests.ui.conftest import KNOWN_QT_MESSAGES, Driver
from tests.waiting import until

#: The offscreen platform cannot grab the keyboard for a popup, and says so when one opens.
POPUP_MESSAGES = pytest.mark.qt_log_ignore(
    *KNOWN_QT_MESSAGES, r"This plugin does not support grabbing the keyboard"
)


@POPUP_MESSAGES
def test_a_stored_conversation_builds_hidden_parts_later_and_they_work(
    driver: Driver, qtbot: QtBot
) -> None:
    folder = driver.workspace()
    (folder / "notes.md").write_text("# notes\n", encoding="utf-8")
    conv_id = store_entries(folder, turn_entries(20), title="Twenty", agent="fake_aionrs")

    async def body() -> None:
        context = await driver.acontext({"turns": []}, "aionrs-0.2")
        window = context.open_workspace(folder)
        window.show()
        new = window.current
        assert new is not None
        await until(lambda: new.body.currentWidget() is new.empty, 15, "the new one's empty state")
        # The price table (a turn's end counts its cost with it) is read before any turn ends.
        await until(lambda: new.prices is not None, 15, "the price table, read off the loop")

        pane = await open_in(window, conv_id)
        assert pane is not None and window.current is pane
        assert pane.findChildren(EmptyState) == [] and pane.body.currentWidget() is pane.view
        assert pane.findChildren(RulesPanel) == []  # not opened yet
        # The context features and the plan view: made in the pane's second step.
        assert len(pane.findChildren(ChoicePopup)) == 1 and len(pane.findChildren(PlanView)) == 1
        assert not pane.plan_view.isVisible()  # no plan in these turns

        editor = pane.composer.editor
        editor.setFocus()
        qtbot.keyClicks(editor, "read @notes")
        popup = pane.context.popup
        await until(lambda: popup.isVisible() and popup.keys(), 15, "the file finder")
        assert popup.keys()[0] == "notes.md"
        qtbot.keyClick(editor, Qt.Key.Key_Escape)

        # The mode changes before the panel exists; the panel, made when opened, shows it.
        pane.set_mode(ApprovalMode.AUTO_EDIT.value)
        await until(lambda: pane.composer.mode.text().startswith("Auto"), 15, "the new mode")
        assert pane.findChildren(RulesPanel) == []
        pane.composer.mode.click()
        panel = pane.rules_panel
        await until(panel.isVisible, 15, "the rules panel")
        assert panel.modes["auto_edit"].isChecked() and not panel.modes["default"].isChecked()
        assert pane.findChildren(RulesPanel) == [panel]
        panel.hide()

        # A finished call's output is made when its card is first opened, not with the card.
        await until(lambda: _last_card(pane) is not None, 15, "the last tool card")
        card = _last_card(pane)
        assert card is not None and card.output is None
        assert card.line.toggle.isVisible()  # it can be opened
        qtbot.mouseClick(card.line.toggle, Qt.MouseButton.LeftButton)
        output = card.output
        assert isinstance(output, QPlainTextEdit)
        assert output.toPlainText() == "Wrote src/module_19.py"
        await until(output.isVisible, 15, "the output shown")

    driver.run(body(), 60)


def _last_card(pane: ConversationPane) -> ToolCard | None:
    cards = [w for w in pane.view.widgets.values() if isinstance(w, ToolCard)]
    return max(cards, key=lambda c: c.item.request.call_id) if cards else None
