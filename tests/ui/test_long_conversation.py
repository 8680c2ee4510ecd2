"""A long conversation in the window (issue 19): the transcript is virtualized.

A 1,000-turn conversation written through the real history store and opened through the real
window builds only the widgets near the viewport, shows its last item, builds the first items
when scrolled to the top and keeps what the user looks at in place while heights are corrected;
a search hit far up is reached and highlighted. In a bare view: a pending card far up stays
built and Tab reaches it, and streaming into a long conversation keeps following the bottom.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPlainTextEdit, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from benchmarks.long_conversation import store_entries, turn_entries
from desktop.core.entries import Item, ToolItem, UserItem
from desktop.core.events import (
    TextDelta,
    ToolCategory,
    ToolRequested,
    TurnStarted,
)
from desktop.ui.approvals.navigator import ApprovalNavigator
from desktop.ui.conversation.highlight import HitMark
from desktop.ui.conversation.items import MessageRow, UserBubble
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.rows import shows
from desktop.ui.conversation.stream_view import AssistantView
from desktop.ui.conversation.thinking import ThinkingView
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.conversation.view import ConversationView
from desktop.ui.open_conversation import open_in
from tests.ui.conftest import Driver, shown_view
from tests.waiting import until

TURNS = 1_000
#: More item widgets than this for one window-high screen and its margins means not virtualized.
BOUND = 80


def _turns(count: int, *, marked: int = -1) -> list[Item]:
    """The benchmark's turns (prompt, markdown answer, a ``Write``); turn ``marked`` asks for
    a quokka (a search finds it)."""
    return [
        item.model_copy(update={"text": "Find the quokka"})
        if isinstance(item, UserItem) and item.turn_id == f"turn{marked}"
        else item
        for item in turn_entries(count)
    ]


def _store(folder: Path, entries: list[Item]) -> str:
    return store_entries(folder, entries, title="Long", agent="fake_aionrs")


def _item_widgets(view: ConversationView) -> list[QWidget]:
    kinds = (UserBubble, AssistantView, ToolCard, MessageRow, ThinkingView)
    return [w for kind in kinds for w in view.findChildren(kind)]


def _in_view(view: ConversationView, widget: QWidget) -> bool:
    if not widget.isVisible():
        return False
    top_left = widget.mapTo(view.viewport(), QPoint(0, 0))
    return QRect(top_left, widget.size()).intersects(view.viewport().rect())


def _settled(view: ConversationView) -> bool:
    return not view.rows.due() and view.rendered()


def _first_in_view(view: ConversationView) -> tuple[int, int]:
    """The key of the first row in view and its distance from the viewport's top."""
    for row in view.rows.rows:
        if row.widget is not None and _in_view(view, row.widget):
            return row.key, row.widget.mapTo(view.viewport(), QPoint(0, 0)).y()
    raise AssertionError("no row in view")


def _shown_view(qtbot: QtBot, turns: int) -> tuple[TranscriptModel, ConversationView]:
    """A bare view, shown, and its model loaded with ``turns`` stored turns."""
    transcript, view = shown_view(qtbot)
    transcript.load(_turns(turns))
    return transcript, view


def test_a_long_conversation_opens_with_few_widgets_and_scrolls_to_its_top(
    driver: Driver,
) -> None:
    folder = driver.workspace()
    entries = _turns(TURNS, marked=3)
    conv_id = _store(folder, entries)

    async def body() -> None:
        context = await driver.acontext({"turns": []})
        window = context.open_workspace(folder)
        window.resize(1000, 760)
        pane = await open_in(window, conv_id)
        assert pane is not None
        assert window.focusWidget() is pane.composer.editor  # typing continues it
        view = pane.view
        # Its end was read first and shown; its beginning, read after, came before it.
        await pane.transcript.whole()
        assert pane.transcript.entries.first_key < 0
        assert len(pane.transcript.items) == len(entries) + 1  # and the "Saved" notice
        first_prompt = pane.transcript.items[0]
        assert isinstance(first_prompt, UserItem) and first_prompt.text == entries[0].text
        await until(lambda: _settled(view), 30, "every row")
        shown = [i.key for i in pane.transcript.items if shows(i)]
        assert [row.key for row in view.rows.rows] == shown
        await until(lambda: _settled(view) and view.rows.rows[-1].widget is not None, 30, "open")
        built = _item_widgets(view)
        assert 0 < len(built) <= BOUND, len(built)
        last = view.widgets[max(view.widgets)]
        await until(lambda: _in_view(view, last) and view.at_bottom(), 30, "the last item shown")

        pane.ends.top()  # Ctrl+Home
        first = view.rows.rows[0]
        await until(lambda: first.key in view.widgets and _settled(view), 30, "the first rows")
        await until(lambda: _in_view(view, view.widgets[first.key]), 30, "the first in view")
        assert view.verticalScrollBar().value() == 0
        assert len(_item_widgets(view)) <= BOUND

        # Half-way: rows built there are measured (estimates corrected), the view holds still.
        bar = view.verticalScrollBar()
        bar.setValue(bar.maximum() // 2)
        await until(lambda: _settled(view), 30, "the middle built")
        anchor = _first_in_view(view)
        for _ in range(10):  # more passes and layout rounds: nothing moves
            view.rows.schedule()  # the pass timer starts now: settled means it has run
            await until(lambda: _settled(view), 30, "settled again")
            assert _first_in_view(view) == anchor
        bar.setValue(bar.value() - view.viewport().height() // 2)  # up into estimated rows
        await until(lambda: _settled(view), 30, "above built")
        anchor = _first_in_view(view)
        view.rows.schedule()  # one more pass over the rows just measured
        await until(lambda: _settled(view), 30, "settled")
        assert _first_in_view(view) == anchor
        assert len(_item_widgets(view)) <= BOUND

        # The sidebar's search hit far up: built, scrolled to and highlighted.
        engine = window.history.start()
        view.follow()
        await until(lambda: _settled(view) and view.at_bottom(), 30, "back at the bottom")
        hits = await engine.service.search("quokka", folder)
        assert hits, "the prompt of turn 3 is found"
        widget = await engine.show_hit(hits[0])
        assert isinstance(widget, UserBubble) and widget.item.text == "Find the quokka"
        await until(lambda: _settled(view) and _in_view(view, widget), 30, "the hit in view")
        assert widget.findChildren(HitMark)
        assert len(_item_widgets(view)) <= BOUND

    driver.run(body(), 120)


def test_a_pending_card_far_up_stays_built_and_tab_reaches_it(qtbot: QtBot) -> None:
    transcript = TranscriptModel()
    host = QWidget()
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    view = ConversationView(transcript)
    composer = QPlainTextEdit()
    layout.addWidget(view, 1)
    layout.addWidget(composer)
    navigator = ApprovalNavigator(composer, host)
    view.approval_shown.connect(lambda card: navigator.add(card.approval))
    host.resize(900, 700)
    host.show()
    qtbot.waitExposed(host)
    composer.setFocus()
    transcript.load(_turns(50))
    transcript.apply(TurnStarted(turn_id="live", prompt="write it"))
    transcript.apply(
        ToolRequested(turn_id="live", call_id="ask", name="Write", category=ToolCategory.EDIT,
                      args={"file_path": "a.py", "content": "x\n"}, pending=True)
    )  # fmt: skip
    card = next(w for w in view.widgets.values() if isinstance(w, ToolCard) and w.approval)
    for n in range(60):  # more output below the card than several screens
        transcript.apply(TextDelta(turn_id="live", text=f"\n\nline {n} " + "word " * 40))
    qtbot.waitUntil(lambda: _settled(view) and view.at_bottom(), timeout=15_000)
    qtbot.waitUntil(lambda: not _in_view(view, card), timeout=15_000)
    assert card in view.findChildren(ToolCard)  # built, though far above the viewport
    assert len(_item_widgets(view)) <= BOUND
    composer.setFocus()
    QTest.keyClick(composer, Qt.Key.Key_Tab)
    assert card.approval is not None
    qtbot.waitUntil(lambda: navigator.current() is card.approval, timeout=15_000)
    qtbot.waitUntil(lambda: _in_view(view, card), timeout=15_000)


def test_streaming_into_a_long_conversation_follows_the_bottom(qtbot: QtBot) -> None:
    transcript, view = _shown_view(qtbot, TURNS)
    qtbot.waitUntil(lambda: _settled(view) and view.at_bottom(), timeout=15_000)
    assert len(_item_widgets(view)) <= BOUND
    transcript.apply(TurnStarted(turn_id="live", prompt="more"))
    transcript.add_prompt("live", "more", [], queued=False)
    for n in range(40):
        transcript.apply(TextDelta(turn_id="live", text=f"\n\nParagraph {n}: " + "word " * 30))
        if n % 10 == 9:
            qtbot.waitUntil(lambda: _settled(view), timeout=15_000)
            qtbot.waitUntil(
                lambda: view.at_bottom() and _in_view(view, view.widgets[max(view.widgets)]),
                timeout=15_000,
            )
    assert isinstance(view.widgets[max(view.widgets)], AssistantView)
    prompt = next(row.item for row in reversed(view.rows.rows) if isinstance(row.item, UserItem))
    assert prompt.text == "more"  # the live prompt's row, above the answer (built or not)
    assert len(_item_widgets(view)) <= BOUND


def test_a_stored_conversation_paints_once_its_last_screen_is_built(qtbot: QtBot) -> None:
    """No paint per pass while the last screen's rows come (rows popping in from the bottom):
    the viewport paints nothing until it is covered, then the whole screen."""
    _, view = _shown_view(qtbot, TURNS)
    assert view.rows.veil.on and not view.viewport().updatesEnabled()
    qtbot.waitUntil(lambda: view.viewport().updatesEnabled(), timeout=15_000)
    assert view.rows.covered() and not view.rows.veil.on
    live = TranscriptModel()  # a live conversation paints as it comes
    other = ConversationView(live)
    qtbot.addWidget(other)
    live.apply(TurnStarted(turn_id="t", prompt="hi"))
    assert not other.rows.veil.on and other.viewport().updatesEnabled()


def test_a_stored_conversation_loaded_into_a_hidden_view_stays_veiled_until_shown(
    qtbot: QtBot,
) -> None:
    """A stored conversation is loaded before its pane shows: the veil (viewport and scroll bar
    strip) lifts once the shown view's last screen is built, not while it is hidden (where no
    spacer is laid out and every row would seem built)."""
    transcript = TranscriptModel()
    view = ConversationView(transcript)
    qtbot.addWidget(view)
    view.resize(900, 700)
    transcript.load(_turns(200))
    strip = view.verticalScrollBar().parentWidget()
    assert strip is not None
    qtbot.waitUntil(lambda: view.rows.built > 0 and not view.rows.due(), timeout=15_000)
    assert not view.rows.covered()
    assert view.rows.veil.on and not view.viewport().updatesEnabled()
    assert not strip.updatesEnabled()
    view.show()
    qtbot.waitUntil(lambda: not view.rows.veil.on, timeout=15_000)
    assert view.rows.covered() and view.at_bottom()
    assert view.viewport().updatesEnabled() and strip.updatesEnabled()


def test_an_entry_far_up_that_grows_makes_the_column_taller(qtbot: QtBot) -> None:
    """The column keeps its rows' heights between passes: an entry that changes while its row
    is not built (an extension's message, a restarted exit) is estimated again."""
    transcript, view = _shown_view(qtbot, TURNS)
    qtbot.waitUntil(lambda: _settled(view) and view.at_bottom(), timeout=15_000)
    far = next(row for row in view.rows.rows[10:] if isinstance(row.item, UserItem))
    assert far.widget is None
    before = view.verticalScrollBar().maximum()
    transcript.update(far.item, text="A much longer prompt\n" * 60)
    qtbot.waitUntil(lambda: view.verticalScrollBar().maximum() > before + 600, timeout=15_000)
    assert far.widget is None  # still not built: the estimate grew


def test_a_tool_card_opened_far_up_is_still_open_when_its_row_is_built_again(
    qtbot: QtBot,
) -> None:
    transcript, view = _shown_view(qtbot, 200)
    qtbot.waitUntil(lambda: _settled(view) and view.at_bottom(), timeout=15_000)
    key = next(i.key for i in transcript.items if isinstance(i, ToolItem))  # the first turn's
    card = view.bring(key)
    assert isinstance(card, ToolCard) and not card.is_expanded()
    qtbot.mouseClick(card.line.toggle, Qt.MouseButton.LeftButton)  # the user opens it
    assert card.is_expanded()
    view.rows.held = None
    view.follow()  # to the bottom: the card's row is dropped
    qtbot.waitUntil(lambda: _settled(view) and key not in view.widgets, timeout=15_000)
    again = view.bring(key)
    assert isinstance(again, ToolCard) and again is not card
    assert again.is_expanded()
