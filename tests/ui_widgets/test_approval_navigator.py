"""ApprovalNavigator: the keyboard contract between the composer and the pending cards.

A request takes focus only from an empty, idle composer; otherwise the first card says "Tab to
review". Tab/Shift+Tab/Up/Down move between the composer and the cards, the focused card is
scrolled into view, and clicking a card's toggles leaves the keyboard in the composer.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from desktop.core.events import Decision, DecisionSource, ToolCategory, ToolDecided, ToolRequested
from desktop.ui.approvals import ApprovalCard, ApprovalNavigator
from desktop.ui.approvals.navigator import REVEAL_MARGIN
from desktop.ui.composer import TYPING_IDLE_S, PromptEdit

MakeRequest = Callable[..., ToolRequested]
Cards = tuple[ApprovalNavigator, list[ApprovalCard]]


@pytest.fixture
def composer(host: QWidget) -> PromptEdit:
    edit = PromptEdit(host)
    host.layout().addWidget(edit)
    edit.show()
    return edit


def _card(host: QWidget, make_request: MakeRequest, n: int, guard_ms: int = 0) -> ApprovalCard:
    request = make_request("Bash", ToolCategory.EXEC, {"command": f"echo {n}"}, f"call-{n}")
    card = ApprovalCard(request, host, key_guard_ms=guard_ms)
    host.layout().addWidget(card)
    card.show()
    return card


@pytest.fixture
def cards(qtbot: QtBot, host: QWidget, composer: PromptEdit, make_request: MakeRequest) -> Cards:
    composer.setFocus()
    qtbot.waitUntil(composer.hasFocus)
    navigator = ApprovalNavigator(composer, host)
    made: list[ApprovalCard] = []
    for n in range(3):
        made.append(_card(host, make_request, n))
        navigator.add(made[-1])
    return navigator, made


def _focused(cards: list[ApprovalCard]) -> int:
    focus = QApplication.focusWidget()
    return next(i for i, card in enumerate(cards) if focus is card or card.isAncestorOf(focus))


def _hints(cards: list[ApprovalCard]) -> list[bool]:
    return [card.review_hint.isVisible() for card in cards]


def test_first_card_takes_focus_from_an_idle_empty_composer(qtbot: QtBot, cards: Cards) -> None:
    navigator, made = cards
    qtbot.waitUntil(made[0].hasFocus)
    assert [c.position.text() for c in made] == ["1 of 3", "2 of 3", "3 of 3"]
    assert navigator.current() is made[0]
    assert _hints(made) == [False, False, False]


def test_typing_in_the_composer_is_never_a_decision(
    qtbot: QtBot, host: QWidget, composer: PromptEdit, make_request: MakeRequest
) -> None:
    composer.setFocus()
    qtbot.waitUntil(composer.hasFocus)
    navigator = ApprovalNavigator(composer, host)
    decided: list[tuple[str, str, str]] = []
    qtbot.keyClicks(composer, "hmm maybe ")
    card = _card(host, make_request, 0)
    card.decided.connect(lambda *args: decided.append(args))
    navigator.add(card)
    assert composer.hasFocus(), "a request must not take focus while the user writes"
    assert card.review_hint.isVisible() and card.review_hint.text() == "Tab to review"
    qtbot.keyClicks(composer, "try yarn, Yes And No")
    assert composer.toPlainText() == "hmm maybe try yarn, Yes And No"
    assert decided == [] and card.is_pending()
    # Even an emptied composer keeps the keyboard while the user has just typed.
    composer.selectAll()
    qtbot.keyClick(composer, Qt.Key.Key_Backspace)
    late = _card(host, make_request, 1)
    navigator.add(late)
    assert composer.hasFocus() and late.is_pending()
    assert _hints([card, late]) == [True, False], "the hint marks where Tab goes"


def test_sending_counts_as_typing_then_the_card_takes_focus_when_idle(
    qtbot: QtBot, host: QWidget, composer: PromptEdit, make_request: MakeRequest
) -> None:
    composer.setFocus()
    qtbot.waitUntil(composer.hasFocus)
    navigator = ApprovalNavigator(composer, host)
    composer.setPlainText("please build")
    sent = time.monotonic()  # the composer times its idleness from the key press itself
    with qtbot.waitSignal(composer.send):
        qtbot.keyClick(composer, Qt.Key.Key_Return)
    composer.clear()  # as the Composer does after sending
    first, second = _card(host, make_request, 0), _card(host, make_request, 1)
    navigator.add(first)
    navigator.add(second)
    assert composer.hasFocus() and first.review_hint.isVisible()
    # Send, wait, press Y: once the composer is empty and idle the first card takes focus.
    qtbot.waitUntil(first.hasFocus, timeout=int(TYPING_IDLE_S * 1000) + 3000)
    assert time.monotonic() - sent >= TYPING_IDLE_S
    assert _hints([first, second]) == [False, False]
    decided: list[tuple[str, str, str]] = []
    first.decided.connect(lambda *args: decided.append(args))
    qtbot.keyClick(first, Qt.Key.Key_Y)
    assert decided == [("call-0", "once", "")] and second.hasFocus()


def test_tab_from_composer_shift_tab_back_and_arrows(
    qtbot: QtBot, cards: Cards, composer: PromptEdit
) -> None:
    _navigator, made = cards
    qtbot.waitUntil(made[0].hasFocus)
    steps = [
        (Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier, 1),
        (Qt.Key.Key_Down, Qt.KeyboardModifier.NoModifier, 2),
        (Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier, 0),  # wraps around
        (Qt.Key.Key_Up, Qt.KeyboardModifier.NoModifier, 2),
        (Qt.Key.Key_Up, Qt.KeyboardModifier.NoModifier, 1),
    ]
    for key, modifier, expected in steps:
        qtbot.keyClick(QApplication.focusWidget(), key, modifier)
        assert _focused(made) == expected, (key, expected)
    qtbot.keyClick(made[1], Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert composer.hasFocus()
    assert _hints(made) == [True, False, False]
    qtbot.keyClick(composer, Qt.Key.Key_Tab)
    assert _focused(made) == 0, "Tab from the composer: the first pending card"
    assert _hints(made) == [False, False, False]


def test_tab_in_composer_without_pending_cards_moves_on(
    qtbot: QtBot, host: QWidget, composer: PromptEdit
) -> None:
    after = PromptEdit(host)
    host.layout().addWidget(after)
    after.show()
    ApprovalNavigator(composer, host)
    composer.setFocus()
    qtbot.waitUntil(composer.hasFocus)
    qtbot.keyClick(composer, Qt.Key.Key_Tab)
    assert after.hasFocus(), "the usual focus chain"


def test_decision_moves_focus_to_next_then_to_composer(
    qtbot: QtBot, cards: Cards, composer: PromptEdit
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
    assert made[0].position.isHidden(), "a lone request shows no position"
    qtbot.keyClick(made[0], Qt.Key.Key_A)
    assert composer.hasFocus()
    assert navigator.pending() == []
    assert decided == [("call-1", "once", ""), ("call-2", "deny", ""), ("call-0", "always", "")]


def test_key_typed_as_a_card_takes_focus_goes_to_the_composer(
    qtbot: QtBot, host: QWidget, composer: PromptEdit, make_request: MakeRequest
) -> None:
    composer.setFocus()
    qtbot.waitUntil(composer.hasFocus)
    navigator = ApprovalNavigator(composer, host)
    card = _card(host, make_request, 0, guard_ms=60_000)  # the guard lasts the whole test
    navigator.add(card)
    assert card.hasFocus()
    qtbot.keyClicks(card, "yay")
    assert composer.hasFocus() and composer.toPlainText() == "yay"
    assert card.is_pending() and card.review_hint.isVisible()


def test_resolution_elsewhere_keeps_focus_and_updates_count(qtbot: QtBot, cards: Cards) -> None:
    navigator, made = cards
    qtbot.waitUntil(made[0].hasFocus)
    made[2].mark_resolved(
        ToolDecided(call_id="call-2", decision=Decision.ONCE, source=DecisionSource.ALWAYS_RULE)
    )
    assert made[0].hasFocus()
    assert navigator.pending() == made[:2]
    assert made[1].position.text() == "2 of 2"


def test_new_request_does_not_steal_focus_from_a_pending_card(
    qtbot: QtBot, host: QWidget, cards: Cards, make_request: MakeRequest
) -> None:
    navigator, made = cards
    qtbot.keyClick(made[0], Qt.Key.Key_Down)
    assert made[1].hasFocus()
    late = _card(host, make_request, 9)
    navigator.add(late)
    assert made[1].hasFocus()
    assert late.position.text() == "4 of 4"


def test_deleted_card_is_forgotten(qtbot: QtBot, cards: Cards) -> None:
    navigator, made = cards
    qtbot.waitUntil(made[0].hasFocus)
    made[1].setParent(None)
    made[1].deleteLater()
    qtbot.waitUntil(lambda: len(navigator.pending()) == 2)
    assert made[2].position.text() == "2 of 2"


def _visible_in(area: QScrollArea, card: QWidget) -> bool:
    top_left = card.mapTo(area.viewport(), QPoint(0, 0))
    shown = area.viewport().rect()
    return shown.contains(QRect(top_left, card.size()).adjusted(0, 0, -1, -1))


def test_focused_card_is_scrolled_into_view(
    qtbot: QtBot, host: QWidget, composer: PromptEdit, make_request: MakeRequest
) -> None:
    area = QScrollArea(host)
    area.setWidgetResizable(True)
    body = QWidget()
    column = QVBoxLayout(body)
    area.setWidget(body)
    host.layout().addWidget(area, 1)
    area.show()
    composer.setFocus()
    qtbot.waitUntil(composer.hasFocus)
    navigator = ApprovalNavigator(composer, host)
    made = []
    for n in range(3):
        spacer = QWidget()
        spacer.setFixedHeight(900)  # each card a screen apart
        column.addWidget(spacer)
        card = ApprovalCard(
            make_request("Bash", ToolCategory.EXEC, {"command": f"echo {n}"}, f"call-{n}"),
            key_guard_ms=0,
        )
        column.addWidget(card)
        spacer.show()
        card.show()
        made.append(card)
    qtbot.keyClicks(composer, "busy")  # no card takes focus by itself
    for card in made:
        navigator.add(card)
    area.verticalScrollBar().setValue(0)
    qtbot.keyClick(composer, Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: _visible_in(area, made[0]))
    qtbot.keyClick(made[0], Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: _visible_in(area, made[1]))
    top = made[1].mapTo(area.viewport(), QPoint(0, 0)).y()
    assert top >= REVEAL_MARGIN or top + made[1].height() <= area.viewport().height()
    qtbot.keyClick(made[1], Qt.Key.Key_N)  # the next card after a decision
    assert made[2].hasFocus()
    qtbot.waitUntil(lambda: _visible_in(area, made[2]))


def test_clicking_a_cards_toggles_keeps_the_composer_focused(
    qtbot: QtBot, host: QWidget, composer: PromptEdit, make_request: MakeRequest
) -> None:
    composer.setFocus()
    qtbot.waitUntil(composer.hasFocus)
    navigator = ApprovalNavigator(composer, host)
    qtbot.keyClicks(composer, "draft")
    request = make_request("Mcp", ToolCategory.MCP, {"query": "x", "limit": 3}, "call-t")
    card = ApprovalCard(request, host, key_guard_ms=0)
    host.layout().addWidget(card)
    card.show()
    navigator.add(card)
    toggles = [b for b in card.findChildren(QAbstractButton) if b.isCheckable() and b.isVisible()]
    assert toggles, "a card with arguments has a disclosure toggle"
    for toggle in toggles:
        qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton)
        assert composer.hasFocus(), toggle.text()
    assert card.is_pending() and composer.toPlainText() == "draft"
