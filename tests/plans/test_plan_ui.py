"""The window with a real ACP agent process (the scripted peer): the live plan checklist above
the composer, a client terminal's output streaming into its card, the model picker in the status
bar, and the cost estimate beside the tokens."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from desktop.core.events import SessionState
from desktop.core.paths import app_paths
from desktop.core.protocols.acp.adapter import AcpBackend, AcpLaunch
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.conversation.view import ConversationView
from desktop.ui.pane import ConversationPane
from desktop.ui.usage_view import TurnUsage
from tests.ui.conftest import Driver, _shutdown
from tests.ui_history.test_sidebar_history import _stored, _window
from tests.waiting import until

PEER = Path(__file__).parents[1] / "fakes" / "fake_acp_peer.py"


def _card(pane: ConversationPane, name: str) -> ToolCard | None:
    cards = [w for w in pane.view.widgets.values() if isinstance(w, ToolCard)]
    return next((c for c in cards if c.item.request.name == name), None)


def _live(pane: ConversationPane) -> str | None:
    card = _card(pane, "terminal")
    return card.live.toPlainText() if card is not None and card.live is not None else None


def usage_lines(view: ConversationView) -> list[str]:
    """The usage lines below the turns, as the view shows them when their rows are built (a
    line is made each time its row is)."""
    made = [extra if isinstance(extra, QWidget) else extra() for _key, extra in view.extras]
    return [widget.text() for widget in made if isinstance(widget, TurnUsage)]


def _idle(pane: ConversationPane) -> bool:
    return pane.session.state == SessionState.IDLE and pane.session.active_turn is None


def test_plan_terminal_output_model_picker_and_cost(driver: Driver, qtbot: QtBot) -> None:
    prices = app_paths().config / "prices.json"
    prices.parent.mkdir(parents=True, exist_ok=True)
    prices.write_text(json.dumps({"models": {"fake-small": {"input": 1e6, "output": 1e6}}}))
    log = driver.tmp / "peer.log"

    async def body() -> None:
        workspace = driver.workspace()
        context = await driver.acontext({})
        window = context.open_workspace(workspace)
        window.show()
        env = {
            "PATH": "/usr/bin:/bin",
            "FAKE_PEER_LOG": str(log),
            "FAKE_PEER_PLAN": "1",
            "FAKE_PEER_CHOICES": "1",
            # Prints, then waits until the test lets it go on: its output is seen while it runs.
            "FAKE_PEER_TERMINAL": "printf 'one\\n'; until [ -e go-on ]; do sleep 0.05; done; "
            "printf 'two\\n' >&2",
        }
        spec = AcpLaunch([sys.executable, str(PEER)], workspace, env)
        pane = window.add_pane("ACP", "fake-acp", lambda rid: AcpBackend(spec, resume_id=rid))
        window.history.track(pane, "fake-acp")  # recorded, as the window's own conversations
        window.show_pane(pane)
        plan = pane.plan_view
        assert not plan.isVisible()  # no plan yet: nothing above the composer
        pane.composer.editor.setPlainText("go")
        qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)
        # The plan arrives before the edit asks: open, 1 of 3 done, above the composer.
        await until(lambda: pane.pending_cards(), timeout=20, what="the edit asks")
        assert plan.isVisible() and plan.is_open()
        assert plan.header.text() == "Plan · 1 of 3 done"
        assert plan.header.accessibleName() == "Plan: 1 of 3 steps done"
        assert plan.y() < pane.composer.y()
        qtbot.keyClick(plan.header, Qt.Key.Key_Space)  # the keyboard closes it ...
        assert not plan.is_open() and plan.header.text() == "Plan · 1 of 3 done · edit"
        qtbot.keyClick(plan.header, Qt.Key.Key_Space)  # ... and opens it again
        assert plan.is_open()
        pane.decide(pane.pending_cards()[0].item.request.call_id, "once", "")
        await until(lambda: _card(pane, "write_file") is not None, timeout=20, what="fs write")
        write = _card(pane, "write_file")
        assert write is not None
        pane.decide(write.item.request.call_id, "once", "")
        # The terminal asks like an exec tool; approved, its output streams into its card.
        await until(lambda: _card(pane, "terminal") is not None, timeout=20, what="terminal")
        terminal = _card(pane, "terminal")
        assert terminal is not None and terminal.approval is not None
        assert terminal.item.request.category == "exec"
        pane.decide(terminal.item.request.call_id, "once", "")
        await until(lambda: _live(pane) == "one\n", timeout=20, what="the first line, live")
        terminal = _card(pane, "terminal")
        assert terminal is not None and terminal.is_expanded() and terminal.item.result is None
        assert terminal.live is not None and QFontInfo(terminal.live.font()).fixedPitch()
        (workspace / "go-on").touch()
        await until(lambda: _idle(pane), timeout=20, what="the first turn ends")
        await until(lambda: _live(pane) == "one\ntwo\n", what="the rest, then the result")
        terminal = _card(pane, "terminal")
        assert terminal is not None and terminal.output is terminal.live
        # The turn ended: the last plan stays, closed to its header (a turn of the loop later).
        await until(lambda: not plan.is_open(), what="the plan closed")
        assert plan.isVisible()
        assert plan.header.text() == "Plan · 1 of 1 done"

        # The model picker: what the agent offers; choosing one goes to the agent.
        pickers = window.status.pickers
        assert pickers is not None
        model, mode = pickers["model"], pickers["mode"]
        await until(model.isVisible, what="the model picker")
        assert model.text() == "Fake Large ▾" and mode.text() == "Ask ▾"
        assert model.accessibleName() == "Model: Fake Large"
        # ``/model`` is offered now that the agent offers models, and opens this picker.
        opened: list[bool] = []
        window.status.open_model_menu = lambda: opened.append(True) or True  # type: ignore[method-assign]
        editor, popup = pane.composer.editor, pane.context.popup
        editor.setFocus()
        qtbot.keyClicks(editor, "/mod")
        assert popup.keys() == ["desk:mode", "desk:model"]
        qtbot.keyClicks(editor, "el")
        assert popup.keys() == ["desk:model"]
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        assert opened == [True] and editor.toPlainText() == ""
        actions = model.menu_.actions()
        assert [(a.text(), a.isChecked()) for a in actions] == [
            ("Fake Large", True),
            ("Fake Small", False),
        ]
        tokens = window.status_labels["tokens"]
        assert "≈" not in tokens.text()  # fake-large is not in the price table
        assert "price table does not know" in tokens.toolTip()
        actions[1].trigger()
        await until(lambda: model.text() == "Fake Small ▾", what="the switch")
        sent = [json.loads(line) for line in log.read_text().splitlines()]
        option = next(m for m in sent if m.get("method") == "session/set_config_option")
        assert option["params"]["value"] == "fake-small"

        # A second turn with the priced model: the estimate shows, "at least" (turn 1 unpriced).
        pane.composer.editor.setPlainText("again")
        qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)
        for name in ("Write a.txt", "write_file", "terminal"):
            await until(
                lambda name=name: any(c.item.request.description.startswith(name[:5]) or
                                      c.item.request.name == name for c in pane.pending_cards()),
                timeout=20,
                what=f"{name} asks again",
            )  # fmt: skip
            card = pane.pending_cards()[0]
            pane.decide(card.item.request.call_id, "once", "")
        await until(lambda: pane.spend.turns == 2, timeout=20, what="the second turn ends")
        assert "≈ at least $15.00" in tokens.text()
        assert tokens.text().startswith("Tokens in 22 · out 8")
        # Each turn says what it used below it (a turn of the loop later); the priced one with
        # its estimate.
        lines = ["11 in · 4 out · fake-large", "11 in · 4 out · ≈ $15.00 · fake-small"]
        await until(lambda: usage_lines(pane.view) == lines, what="the usage lines")

        # Reopened from history: its cost so far, its usage lines, its last plan (closed).
        def recorded() -> bool:
            stored = _stored(workspace)
            ends = [i for c in stored for i in c.items if i.kind == "turn_end"]
            return len(ends) == 2

        await until(recorded, timeout=20, what="both turns recorded")
        await _shutdown(context)
        context, _, engine = await _window(driver, {})
        await until(lambda: any(e.stored for e in engine.entries), what="listed")
        again = await engine.open_stored(next(e for e in engine.entries if e.stored))
        assert again is not None
        assert again.spend.turns == 2 and again.spend.cost == 15.0 and again.spend.partial
        assert again.plan_view.isVisibleTo(again) and not again.plan_view.is_open()
        assert again.plan_view.header.text() == "Plan · 1 of 1 done"
        again_lines = usage_lines(again.view)
        assert sorted(again_lines) == sorted(lines)

    driver.run(body(), 90)
