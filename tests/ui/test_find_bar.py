"""Find inside a conversation (Ctrl+F, issue 19) on the virtualized transcript.

A 1,000-turn conversation written through the real history store, opened in a real window:
Ctrl+F on the composer opens the find bar; typing counts the hits in the model's entries (rows
never built included) and goes to the first; Enter, Shift+Enter, F3 and Shift+F3 step through
them, building far rows, scrolling to them and painting the occurrence in the row's text; the
count follows an answer that streams in; Esc closes the bar and gives the composer the keyboard;
Ctrl+Shift+F is the sidebar's search of every conversation. The matcher is checked on plain
entries.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QTextBrowser, QWidget
from pytestqt.qtbot import QtBot
from shiboken6 import isValid

from benchmarks.long_conversation import store_entries, turn_entries
from desktop.core.entries import Item, MessageItem, StreamItem, UserItem
from desktop.core.events import TextDelta, TurnStarted
from desktop.ui.announce import Announcement, listen
from desktop.ui.conversation.find import Hit, Matcher
from desktop.ui.conversation.find_bar import FindBar
from desktop.ui.conversation.items import UserBubble
from desktop.ui.conversation.stream_view import AssistantView
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.conversation.view import ConversationView
from desktop.ui.open_conversation import open_in
from tests.ui.conftest import Driver
from tests.waiting import until

TURNS = 1_000
#: Item widgets for one screen and its margins (more: the view is not virtualized).
BOUND = 80
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _turns() -> list[Item]:
    """The benchmark's turns; turn 3's prompt and the answers of turns 7 and 900 mention a
    quokka (three hits, the first two far above the end)."""
    items: list[Item] = []
    for item in turn_entries(TURNS):
        if isinstance(item, UserItem) and item.turn_id == "turn3":
            item = item.model_copy(update={"text": "Find the Quokka"})
        elif isinstance(item, StreamItem) and item.turn_id in ("turn7", "turn900"):
            item = item.model_copy(update={"text": item.text + "\nA quokka smiles.\n"})
        items.append(item)
    return items


async def _focus(widget: QWidget) -> None:
    """Give ``widget`` the keyboard in an active window (window shortcuts need one)."""
    widget.window().activateWindow()
    widget.setFocus()
    await until(widget.hasFocus, 15, f"{type(widget).__name__} focused")


def _in_view(view: ConversationView, widget: QWidget) -> bool:
    if not widget.isVisible():
        return False
    top_left = widget.mapTo(view.viewport(), QPoint(0, 0))
    return QRect(top_left, widget.size()).intersects(view.viewport().rect())


def _built(view: ConversationView) -> int:
    kinds = (UserBubble, AssistantView, ToolCard)
    return sum(len(view.findChildren(kind)) for kind in kinds)


def _shown(bar: FindBar, view: ConversationView, turn: str) -> QWidget | None:
    """The widget of hit ``turn`` if it is in view with the occurrence painted."""
    hit = bar.matches.at(bar.current) if bar.current is not None else None
    widget = view.widgets.get(hit.key) if hit is not None else None
    if widget is None or getattr(widget, "item", None) is None:
        return None
    if widget.item.turn_id != turn or not _in_view(view, widget):  # type: ignore[attr-defined]
        return None
    return widget


def _painted(widget: QWidget) -> list[str]:
    """The text of the strongest painted occurrence in ``widget`` (an answer's documents) or
    the selection of its label (a prompt); nothing once it is gone (its row dropped)."""
    if not isValid(widget):
        return []
    if isinstance(widget, UserBubble):
        return [widget.text.selectedText()] if widget.text.hasSelectedText() else []
    return [
        selection.cursor.selectedText()
        for browser in widget.findChildren(QTextBrowser)
        for selection in browser.extraSelections()
    ]


def test_find_reaches_hits_far_up_a_long_conversation(driver: Driver, qtbot: QtBot) -> None:
    folder = driver.workspace()
    conv_id = store_entries(folder, _turns(), title="Long", agent="fake_aionrs")
    spoken: list[Announcement] = []
    stop_listening = listen(spoken.append)

    async def body() -> None:
        context = await driver.acontext({"turns": []})
        window = context.open_workspace(folder)
        window.resize(1000, 760)
        window.show()
        window.activateWindow()
        pane = await open_in(window, conv_id)
        assert pane is not None
        view, bar = pane.view, pane.find_bar
        await pane.transcript.whole()
        await until(lambda: view.at_bottom() and bool(view.widgets), 30, "the end shown")
        editor = pane.composer.editor
        await _focus(editor)
        assert bar.isHidden()

        qtbot.keyClick(editor, Qt.Key.Key_F, CTRL)  # Edit ▸ Find…
        await until(lambda: bar.isVisible() and bar.field.hasFocus(), 15, "the bar open")
        assert bar.field.accessibleName()
        qtbot.keyClicks(bar.field, "quokka")
        # Counted in the entries (turn 3 has no widget yet), the first from the top shown.
        await until(lambda: bar.count.text() == "1 of 3", 15, "counted")
        await until(lambda: _shown(bar, view, "turn3") is not None, 30, "turn 3 in view")
        prompt = _shown(bar, view, "turn3")
        assert prompt is not None
        await until(lambda: _painted(prompt) == ["Quokka"], 15, "the prompt's word selected")
        assert any(a.message == "1 of 3" for a in spoken)

        qtbot.keyClick(bar.field, Qt.Key.Key_Return)  # next: turn 7's answer
        await until(lambda: bar.count.text() == "2 of 3", 15, "the second")
        await until(lambda: _shown(bar, view, "turn7") is not None, 30, "turn 7 in view")
        answer = _shown(bar, view, "turn7")
        assert answer is not None
        await until(lambda: "quokka" in _painted(answer), 15, "the answer's word painted")
        qtbot.keyClick(bar.field, Qt.Key.Key_Return, SHIFT)  # previous
        await until(lambda: _shown(bar, view, "turn3") is not None, 30, "back to turn 3")
        assert bar.count.text() == "1 of 3"
        assert not _painted(answer)  # only the current row is painted
        qtbot.keyClick(bar.field, Qt.Key.Key_Return, SHIFT)  # wraps to the last
        await until(lambda: _shown(bar, view, "turn900") is not None, 30, "turn 900")
        assert bar.count.text() == "3 of 3"
        await _focus(bar.field)  # (the offscreen platform may have deactivated the window)
        qtbot.keyClick(bar.field, Qt.Key.Key_F3)  # Find Next wraps to the first
        await until(lambda: _shown(bar, view, "turn3") is not None, 30, "F3: turn 3")
        await _focus(bar.field)
        qtbot.keyClick(bar.field, Qt.Key.Key_F3, SHIFT)
        await until(lambda: bar.count.text() == "3 of 3", 15, "Shift+F3: the last")
        assert _built(view) <= BOUND

        # The count follows an answer streaming in (the hit shown stays the current one).
        transcript = pane.transcript
        transcript.apply(TurnStarted(turn_id="live", prompt="more"))
        transcript.apply(TextDelta(turn_id="live", text="Another quokka, and a QUOKKA."))
        await until(lambda: bar.count.text() == "3 of 5", 15, "the streamed hits counted")
        qtbot.keyClick(bar.case, Qt.Key.Key_Space)  # match case
        await until(lambda: bar.count.text().endswith(" of 3"), 15, "case counted")

        qtbot.keyClick(bar.field, Qt.Key.Key_Escape)
        closed = "closed, the composer focused"
        await until(lambda: bar.isHidden() and window.focusWidget() is editor, 15, closed)
        assert all(not _painted(w) for w in view.widgets.values() if isinstance(w, QWidget))

        await _focus(editor)
        qtbot.keyClick(editor, Qt.Key.Key_F, CTRL | SHIFT)  # every conversation: the sidebar
        search = window.history.sidebar.search
        await until(lambda: search.isVisible() and search.hasFocus(), 15, "the sidebar search")

    try:
        driver.run(body(), 120)
    finally:
        stop_listening()


def test_the_matcher_counts_entries_and_forgets_changed_ones() -> None:
    items: list[Item] = [
        UserItem(key=1, text="Alpha beta ALPHA"),
        StreamItem(key=2, text="alphabet"),
        MessageItem(key=3, text="alpha (an echo)", echo=True),
        StreamItem(key=4, text="nothing here"),
    ]
    matcher = Matcher()
    matches = matcher.search(items, "alpha", shown=lambda i: not getattr(i, "echo", False))
    assert (matches.keys, matches.starts, matches.total) == ((1, 2), (0, 2), 3)
    assert [matches.at(i) for i in range(3)] == [Hit(1, 0), Hit(1, 1), Hit(2, 0)]
    assert matches.index(Hit(2, 0)) == 2 and matches.index(Hit(2, 1)) is None
    assert matches.index(Hit(4, 0)) is None
    assert matches.first_from(2) == 2 and matches.first_from(3) == 0  # none after: the first
    assert matcher.search(items, "ALPHA", match_case=True).total == 1
    assert matcher.search(items, "").total == 0
    grown = StreamItem(key=4, text="nothing here, alpha now")
    items[3] = grown
    assert matcher.search(items, "alpha").total == 4  # the echo counts when shown
    matcher.forget(4)
    assert matcher.search(items, "alpha").total == 5
