"""ApprovalNavigator: focus among three pending cards, "i of N", hand-back to the composer."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from desktop.core.events import Decision, DecisionSource, ToolCategory, ToolDecided, ToolRequested
from desktop.ui.approvals import ApprovalCard, ApprovalNavigator

MakeRequest = Callable[..., ToolRequested]


@pytest.fixture
def composer(host: QWidget) -> QLineEdit:
    edit = QLineEdit(host)
    edit.setAccessibleName("Composer")
    host.layout().addWidget(edit)
    edit.show()
    return edit


@pytest.fixture
def cards(
    qtbot: QtBot, host: QWidget, composer: QLineEdit, make_request: MakeRequest
) -> tuple[ApprovalNavigator, list[ApprovalCard]]:
    composer.setFocus()
    qtbot.waitUntil(composer.hasFocus)
    navigator = ApprovalNavigator(composer, host)
    made: list[ApprovalCard] = []
    for n in range(3):
        request = make_request("Bash", ToolCategory.EXEC, {"command": f"echo {n}"}, f"call-{n}")
        card = ApprovalCard(request, host, key_guard_ms=0)
        host.layout().addWidget(card)
        card.show()
        navigator.add(card)
        made.append(card)
    return navigator, made


def _focused(cards: list[ApprovalCard]) -> int:
    focus = QApplication.focusWidget()
    return next(i for i, card in enumerate(cards) if focus is card or card.isAncestorOf(focus))


def test_first_card_takes_focus_and_positions_show(
    qtbot: QtBot, cards: tuple[ApprovalNavigator, list[ApprovalCard]]
) -> None:
    navigator, made = cards
    qtbot.waitUntil(made[0].hasFocus)
    assert [c.position.text() for c in made] == ["1 of 3", "2 of 3", "3 of 3"]
    assert navigator.current() is made[0]


def test_tab_and_arrows_move_between_pending_cards(
    qtbot: QtBot, cards: tuple[ApprovalNavigator, list[ApprovalCard]]
) -> None:
    _navigator, made = cards
    qtbot.waitUntil(made[0].hasFocus)
    steps = [
        (Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier, 1),
        (Qt.Key.Key_Down, Qt.KeyboardModifier.NoModifier, 2),
        (Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier, 0),  # wraps around
        (Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier, 2),
        (Qt.Key.Key_Up, Qt.KeyboardModifier.NoModifier, 1),
    ]
    for key, modifier, expected in steps:
        qtbot.keyClick(QApplication.focusWidget(), key, modifier)
        assert _focused(made) == expected, (key, expected)


def test_decision_moves_focus_to_next_then_to_composer(
    qtbot: QtBot,
    cards: tuple[ApprovalNavigator, list[ApprovalCard]],
    composer: QLineEdit,
) -> None:
    navigator, made = cards
    qtbot.waitUntil(made[0].hasFocus)
    qtbot.keyClick(made[0], Qt.Key.Key_Tab)  # on the second card
    decided: list[tuple[str, str, str]] = []
    for card in made:
        card.decided.connect(lambda *args: decided.append(args))
    qtbot.keyClick(made[1], Qt.Key.Key_Y)
    assert _focused(made) == 2, "the next pending card after the decided one"
    assert [made[0].position.text(), made[2].position.text()] == ["1 of 2", "2 of 2"]
    qtbot.keyClick(made[2], Qt.Key.Key_N)
    assert _focused(made) == 0
    assert made[0].position.text() == "1 of 1"
    qtbot.keyClick(made[0], Qt.Key.Key_A)
    assert composer.hasFocus()
    assert navigator.pending() == []
    assert decided == [("call-1", "once", ""), ("call-2", "deny", ""), ("call-0", "always", "")]


def test_resolution_elsewhere_keeps_focus_and_updates_count(
    qtbot: QtBot, cards: tuple[ApprovalNavigator, list[ApprovalCard]]
) -> None:
    navigator, made = cards
    qtbot.waitUntil(made[0].hasFocus)
    made[2].mark_resolved(
        ToolDecided(call_id="call-2", decision=Decision.ONCE, source=DecisionSource.ALWAYS_RULE)
    )
    assert made[0].hasFocus()
    assert navigator.pending() == made[:2]
    assert made[1].position.text() == "2 of 2"


def test_new_request_does_not_steal_focus_from_a_pending_card(
    qtbot: QtBot,
    host: QWidget,
    cards: tuple[ApprovalNavigator, list[ApprovalCard]],
    make_request: MakeRequest,
) -> None:
    navigator, made = cards
    qtbot.keyClick(made[0], Qt.Key.Key_Down)
    assert made[1].hasFocus()
    late = ApprovalCard(make_request("Edit", ToolCategory.EDIT, {}, "call-9"), host)
    host.layout().addWidget(late)
    late.show()
    navigator.add(late)
    assert made[1].hasFocus()
    assert late.position.text() == "4 of 4"


def test_deleted_card_is_forgotten(
    qtbot: QtBot, cards: tuple[ApprovalNavigator, list[ApprovalCard]]
) -> None:
    navigator, made = cards
    qtbot.waitUntil(made[0].hasFocus)
    made[1].setParent(None)
    made[1].deleteLater()
    qtbot.waitUntil(lambda: len(navigator.pending()) == 2)
    assert made[2].position.text() == "2 of 2"
