"""Copy on answers and code blocks shows on hover and keyboard focus only (as in Zed).

Always drawn, two Copy buttons per answer made the transcript noisy. Now an answer's Copy is
drawn while the pointer is over the answer or the button has the keyboard, and a code block's
Copy link while the pointer is over that block or Tab has moved onto it. Hidden, each keeps its
place (showing it never moves anything), its accessible name and its place in the Tab order.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QRect, Qt
from PySide6.QtGui import QImage, QTextCursor
from PySide6.QtWidgets import QApplication, QTextBrowser
from pytestqt.qtbot import QtBot

from desktop.core.events import TextDelta, TurnEnded, TurnEndReason, TurnStarted
from desktop.ui import theme
from desktop.ui.conversation.stream_view import AssistantView
from desktop.ui.conversation.view import ConversationView
from tests.ui.conftest import shown_view

ANSWER = (
    "First the parser:\n\n```python\nparse = 1\n```\n\n"
    "Then the printer:\n\n```python\nprinter = 2\n```\n\nThat is all."
)


def _answer(qtbot: QtBot) -> tuple[ConversationView, AssistantView]:
    transcript, view = shown_view(qtbot, (800, 900))
    transcript.apply(TurnStarted(turn_id="t1", prompt="go"))
    transcript.apply(TextDelta(turn_id="t1", text=ANSWER))
    transcript.apply(TurnEnded(turn_id="t1", reason=TurnEndReason.COMPLETED))
    answer = next(w for w in view.widgets.values() if isinstance(w, AssistantView))
    qtbot.waitUntil(lambda: view.rendered() and not answer.busy, timeout=15_000)
    qtbot.waitUntil(lambda: _document(answer).isVisible(), timeout=15_000)  # shown, not only added

    def placed() -> bool:  # laid out where it shows: the pointer sent there reaches it
        under = QApplication.widgetAt(answer.mapToGlobal(answer.rect().center()))
        return under is not None and (under is answer or answer.isAncestorOf(under))

    qtbot.waitUntil(placed, timeout=15_000)
    return view, answer


def _colours(image: QImage, rect: QRect) -> set[int]:
    xs, ys = range(rect.left(), rect.right()), range(rect.top(), rect.bottom())
    return {image.pixel(x, y) for x in xs for y in ys}


def _drawn(answer: AssistantView) -> bool:
    """Whether anything of the Copy button is painted (more than one colour where it is)."""
    button = answer.copy_button
    image = answer.grab().toImage()
    return len(_colours(image, button.geometry())) > 1


def test_answer_copy_is_drawn_on_hover_and_focus_only(qtbot: QtBot) -> None:
    view, answer = _answer(qtbot)
    button = answer.copy_button
    assert button.isVisible()  # in the layout, the Tab order and the accessibility tree
    assert button.accessibleName() == "Copy the answer"
    assert button.focusPolicy() & Qt.FocusPolicy.TabFocus
    place = button.geometry()
    assert not _drawn(answer)
    qtbot.mouseMove(answer, answer.rect().center())  # the pointer over the answer
    qtbot.waitUntil(lambda: _drawn(answer), timeout=15_000)
    assert button.geometry() == place  # nothing moved
    qtbot.mouseMove(view, QPoint(view.width() - 5, view.height() - 5))  # away from it
    qtbot.waitUntil(lambda: not _drawn(answer), timeout=15_000)
    button.setFocus(Qt.FocusReason.TabFocusReason)  # reached by Tab: drawn while it is there
    qtbot.waitUntil(lambda: button.hasFocus() and _drawn(answer), timeout=15_000)
    assert button.geometry() == place


def _document(answer: AssistantView) -> QTextBrowser:
    """The answer's first document of finished blocks (not the open block's)."""
    browsers = answer.findChildren(QTextBrowser)
    return next(d for d in browsers if d.objectName() == "markdown" and not d.property("live"))


def _link_colour(browser: QTextBrowser, link: tuple[int, int]) -> str:
    cursor = QTextCursor(browser.document())
    cursor.setPosition(link[0] + 1)
    return cursor.charFormat().foreground().color().name()


def _point_at(browser: QTextBrowser, text: str) -> QPoint:
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # placed where it will stay
    found = browser.document().find(text)
    assert not found.isNull()
    found.setPosition(found.selectionStart() + 1)
    return browser.cursorRect(found).center()


def _hover(qtbot: QtBot, browser: QTextBrowser, text: str) -> None:
    """Move the pointer onto ``text``, once the browser is laid out where that text shows."""
    viewport = browser.viewport()

    def there() -> bool:
        spot = viewport.mapToGlobal(_point_at(browser, text))
        return QApplication.widgetAt(spot) is viewport

    qtbot.waitUntil(there, timeout=15_000)
    qtbot.mouseMove(viewport, _point_at(browser, text))


def test_a_code_blocks_copy_shows_for_the_hovered_block_only(qtbot: QtBot) -> None:
    _view, answer = _answer(qtbot)
    browser = _document(answer)
    links = browser.copies.links  # type: ignore[attr-defined]
    assert len(links) == 2
    palette = theme.current()
    hidden, shown = palette.surface, palette.accent
    assert [_link_colour(browser, k) for k in links] == [hidden, hidden]
    height = browser.height()
    _hover(qtbot, browser, "parse = 1")
    qtbot.waitUntil(lambda: _link_colour(browser, links[0]) == shown, timeout=15_000)
    assert _link_colour(browser, links[1]) == hidden
    _hover(qtbot, browser, "printer = 2")
    qtbot.waitUntil(lambda: _link_colour(browser, links[1]) == shown, timeout=15_000)
    assert _link_colour(browser, links[0]) == hidden
    _hover(qtbot, browser, "That is all")  # prose: none
    qtbot.waitUntil(lambda: _link_colour(browser, links[1]) == hidden, timeout=15_000)
    assert browser.height() == height  # a colour change, never a relayout


def test_tab_onto_a_code_blocks_copy_shows_it(qtbot: QtBot) -> None:
    _view, answer = _answer(qtbot)
    browser = _document(answer)
    links = browser.copies.links  # type: ignore[attr-defined]
    palette = theme.current()
    browser.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(browser.hasFocus, timeout=15_000)
    qtbot.keyClick(browser, Qt.Key.Key_Tab)  # the browser moves its cursor to the next link
    qtbot.waitUntil(lambda: _link_colour(browser, links[0]) == palette.accent, timeout=15_000)
    cursor = browser.textCursor()
    assert cursor.selectedText() == "Copy"  # what a screen reader reads out
    qtbot.keyClick(browser, Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: _link_colour(browser, links[1]) == palette.accent, timeout=15_000)
    assert _link_colour(browser, links[0]) == palette.surface
    answer.copy_button.setFocus(Qt.FocusReason.TabFocusReason)  # keyboard elsewhere: hidden
    qtbot.waitUntil(lambda: _link_colour(browser, links[1]) == palette.surface, timeout=15_000)
