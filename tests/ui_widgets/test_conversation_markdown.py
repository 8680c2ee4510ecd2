"""The conversation reads like a product: markdown styled the same while streaming and after,
links that open only web and mail addresses, copy buttons, live thinking, snug tool output,
prompts as wide as their text, answers re-coloured by a theme change, Review on finished edits.

Real widgets offscreen, real clicks on the rendered text, the real clipboard and the real
``QDesktopServices`` (its URL handlers stand in for the browser).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QObject, QPoint, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication, QTextCursor, QTextTable
from PySide6.QtWidgets import QApplication, QTextBrowser
from pytestqt.qtbot import QtBot

from desktop.core.events import (
    TextDelta,
    ThinkingDelta,
    ToolFinished,
    ToolPreview,
    ToolRequested,
    ToolStarted,
    TurnEnded,
    TurnEndReason,
    TurnStarted,
)
from desktop.ui import theme
from desktop.ui.conversation.items import UserBubble
from desktop.ui.conversation.links import is_safe
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.stream_view import AssistantView
from desktop.ui.conversation.thinking import ThinkingView
from desktop.ui.conversation.tool_card import OUTPUT_LINES, ToolCard
from desktop.ui.conversation.view import ConversationView

CODE = 'def main():\n    print("hi")\n'
ANSWER = f"""## Plan

Intro with a [link](https://example.com/docs) and `inline`.

> quoted words

| a | b |
|---|---|
| 1 | 2 |

```python
{CODE}```

[bad](myapp://run-me) and the end.
"""


class _Opened(QObject):
    """Receives what ``QDesktopServices.openUrl`` would have opened, by scheme."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url.toString())


@pytest.fixture
def opened() -> Iterator[_Opened]:
    receiver = _Opened()
    schemes = ("http", "https", "file", "myapp")
    for scheme in schemes:
        QDesktopServices.setUrlHandler(scheme, receiver, "open")
    yield receiver
    for scheme in schemes:
        QDesktopServices.unsetUrlHandler(scheme)


@pytest.fixture
def light() -> Iterator[None]:
    before = theme.chosen()
    theme.choose("light")
    theme.apply(QApplication.instance())  # type: ignore[arg-type]
    yield
    theme.choose(before.value)
    theme.apply(QApplication.instance())  # type: ignore[arg-type]


def _view(qtbot: QtBot, width: int = 800) -> tuple[TranscriptModel, ConversationView]:
    transcript = TranscriptModel()
    view = ConversationView(transcript)
    qtbot.addWidget(view)
    view.resize(width, 900)
    view.show()
    qtbot.waitExposed(view)
    return transcript, view


def _answer(
    qtbot: QtBot, text: str, *, done: bool = True
) -> tuple[ConversationView, AssistantView]:
    transcript, view = _view(qtbot)
    transcript.apply(TurnStarted(turn_id="t1", prompt="go"))
    transcript.apply(TextDelta(turn_id="t1", text=text))
    if done:
        transcript.apply(TurnEnded(turn_id="t1", reason=TurnEndReason.COMPLETED))
    answer = next(w for w in view.widgets.values() if isinstance(w, AssistantView))
    qtbot.waitUntil(lambda: view.rendered() and not answer.busy)
    return view, answer


def _documents(answer: AssistantView) -> list[QTextBrowser]:
    browsers = answer.findChildren(QTextBrowser)
    return [d for d in browsers if d.objectName() == "markdown" and not d.property("live")]


def _click_text(qtbot: QtBot, answer: AssistantView, text: str) -> None:
    """Click the middle of ``text`` where it is drawn in the answer."""
    for browser in _documents(answer):
        found = browser.document().find(text)
        if not found.isNull():
            found.setPosition(found.selectionStart() + len(text) // 2)

            def settled(browser: QTextBrowser = browser, found: QTextCursor = found) -> bool:
                before = browser.cursorRect(found).center()  # the layout may still move it
                QApplication.processEvents()
                return browser.cursorRect(found).center() == before

            qtbot.waitUntil(settled)
            spot: QPoint = browser.cursorRect(found).center()
            qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=spot)
            return
    raise AssertionError(f"{text!r} is not shown")


def test_blockquote_table_and_code_are_styled_from_the_palette(qtbot: QtBot, light: None) -> None:
    _v, answer = _answer(qtbot, ANSWER)
    colours = theme.LIGHT
    html = answer.shown_html()
    # the quote: a table whose narrow first cell is the bar, in the palette's border colour
    assert re.search(rf'<td width="3" bgcolor="{colours.border}"', html), html
    tables = [
        frame
        for document in _documents(answer)
        for frame in document.document().rootFrame().childFrames()
        if isinstance(frame, QTextTable)
    ]
    ruled = [t for t in tables if t.format().border() >= 1]
    assert ruled, "the markdown table has cell rules"
    assert ruled[0].format().borderBrush().color().name() == colours.border
    # the code block: the surface colour behind it, a Copy link, syntax colours readable on it
    assert f'bgcolor="{colours.surface}"' in html
    assert "agentdesk-copy:" in html


def test_streamed_text_is_styled_as_the_finished_one(qtbot: QtBot) -> None:
    _v, live = _answer(qtbot, "> quoted words\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", done=False)
    html = live.shown_html()  # the open block: the label, before the message is complete
    assert '<td width="3"' in html and 'border="1"' in html


def test_a_web_link_opens_in_the_browser(qtbot: QtBot, opened: _Opened) -> None:
    _v, answer = _answer(qtbot, ANSWER)
    _click_text(qtbot, answer, "link")
    qtbot.waitUntil(lambda: opened.urls == ["https://example.com/docs"])


def test_links_to_files_and_custom_schemes_are_refused(qtbot: QtBot, opened: _Opened) -> None:
    _v, answer = _answer(qtbot, ANSWER)
    _click_text(qtbot, answer, "bad")  # [bad](myapp://run-me): rendered, never opened
    document = _documents(answer)[0]
    document.anchorClicked.emit(QUrl("file:///etc/passwd"))  # what a click on it sends
    answer._live.anchorClicked.emit(QUrl("file:///etc/passwd"))
    _click_text(qtbot, answer, "link")  # a safe one after them, so the refusals had their turn
    qtbot.waitUntil(lambda: len(opened.urls) == 1)
    assert opened.urls == ["https://example.com/docs"]
    assert not is_safe(QUrl("file:///etc/passwd"))
    assert not is_safe(QUrl("myapp://run-me"))
    assert not is_safe(QUrl("example.com"))
    assert is_safe(QUrl("mailto:someone@example.com"))


def test_copy_puts_the_code_and_the_whole_answer_on_the_clipboard(qtbot: QtBot) -> None:
    _v, answer = _answer(qtbot, ANSWER)
    clipboard = QGuiApplication.clipboard()
    clipboard.setText("")
    _click_text(qtbot, answer, "Copy")
    qtbot.waitUntil(lambda: clipboard.text() == CODE)
    assert answer.copy_button.isVisible()
    assert answer.copy_button.accessibleName() == "Copy the answer"
    qtbot.mouseClick(answer.copy_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: clipboard.text() == ANSWER)


def test_thinking_shows_its_last_lines_while_it_streams(qtbot: QtBot) -> None:
    transcript, view = _view(qtbot)
    transcript.apply(TurnStarted(turn_id="t1", prompt="go"))
    words = " ".join(f"step{i}" for i in range(200))
    transcript.apply(ThinkingDelta(turn_id="t1", text=words + "\nnow checking config.py"))
    thinking = next(w for w in view.widgets.values() if isinstance(w, ThinkingView))
    qtbot.waitUntil(thinking.preview.isVisible)
    assert not thinking.body.isVisible()
    shown = thinking.preview.text()
    assert shown.endswith("now checking config.py") and "step0 " not in shown
    assert len(shown) < 260  # the last words, not the whole reasoning
    assert thinking.toggle.text().endswith("Thinking…")
    transcript.apply(TextDelta(turn_id="t1", text="Answer."))  # the reasoning is over
    qtbot.waitUntil(lambda: not thinking.preview.isVisible())
    assert thinking.toggle.text().endswith("Thought")
    thinking.toggle.click()  # expanded: the whole reasoning as text, as tall as it is
    assert thinking.body.isVisible() and "step0 step1" in thinking.body.toPlainText()
    qtbot.waitUntil(lambda: thinking.body.height() > 3 * thinking.body.fontMetrics().lineSpacing())
    assert thinking.body.verticalScrollBar().maximum() == 0


def _finished_tool(
    qtbot: QtBot, output: str, **request: object
) -> tuple[ConversationView, ToolCard]:
    transcript, view = _view(qtbot)
    transcript.apply(TurnStarted(turn_id="t1", prompt="go"))
    fields: dict[str, object] = {
        "call_id": "c1",
        "name": "Bash",
        "category": "exec",
        "args": {"command": "wc -l main.py"},
        "pending": False,
    }
    fields.update(request)
    transcript.apply(ToolRequested(turn_id="t1", **fields))  # type: ignore[arg-type]
    transcript.apply(ToolStarted(turn_id="t1", call_id="c1", name=str(fields["name"])))
    diff = request.get("preview")
    transcript.apply(
        ToolFinished(
            turn_id="t1",
            call_id="c1",
            name=str(fields["name"]),
            status="success",
            output=output,
            diff=diff.text if isinstance(diff, ToolPreview) else None,
        )
    )
    card = next(w for w in view.widgets.values() if isinstance(w, ToolCard))
    qtbot.waitUntil(lambda: view.rendered())
    return view, card


def test_tool_output_is_as_tall_as_its_content(qtbot: QtBot) -> None:
    _v, card = _finished_tool(qtbot, "120 main.py\n")
    card.set_expanded(True)
    assert card.output is not None
    line = card.output.fontMetrics().lineSpacing()
    qtbot.waitUntil(lambda: card.output is not None and card.output.isVisible())
    assert card.output.height() <= 2 * line + 16, (card.output.height(), line)
    _v, long = _finished_tool(qtbot, "".join(f"line {i}\n" for i in range(100)))
    long.set_expanded(True)
    assert long.output is not None
    line = long.output.fontMetrics().lineSpacing()
    assert OUTPUT_LINES * line <= long.output.height() <= (OUTPUT_LINES + 2) * line + 16


def test_a_finished_edit_offers_review(qtbot: QtBot) -> None:
    diff = "--- a/main.py\n+++ b/main.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n"
    view, card = _finished_tool(
        qtbot,
        "ok",
        name="Edit",
        category="edit",
        args={"file_path": "main.py", "old_string": "a = 1", "new_string": "a = 2"},
        preview=ToolPreview(kind="diff", text=diff, paths=["main.py"]),
    )
    qtbot.waitUntil(lambda: card.review is not None and card.review.isVisible())
    assert card.review is not None
    assert card.review.accessibleName() == "Review the change full-window"
    with qtbot.waitSignal(view.review_requested) as asked:
        qtbot.mouseClick(card.review, Qt.MouseButton.LeftButton)
    assert asked.args == [diff, card.line.sentence.plain()]
    _v, run = _finished_tool(qtbot, "120 main.py\n")
    assert run.review is None  # not an edit: nothing to review


def test_a_prompt_is_as_wide_as_its_text_up_to_most_of_the_column(qtbot: QtBot) -> None:
    transcript, view = _view(qtbot, width=900)
    transcript.add_prompt("a", "hi", [], queued=False)
    transcript.add_prompt("b", "please " * 60, [], queued=False)
    short, long = (w for w in view.widgets.values() if isinstance(w, UserBubble))
    qtbot.waitUntil(lambda: long.isVisible() and long.width() > 200)
    column = view.viewport().width() - 56
    assert short.width() < 120  # "hi" in a small bubble
    assert 0.6 * column <= long.width() <= 0.7 * column + 1  # wraps at 70 %, never at 130 px
    assert long.text.height() > 2 * long.text.fontMetrics().lineSpacing()  # and wraps
    view.resize(600, 900)
    qtbot.waitUntil(lambda: long.width() <= view.viewport().width() - 56)


def _code_colours(answer: AssistantView) -> set[str]:
    html = "".join(d.toHtml() for d in _documents(answer))
    if "def" not in html:
        return set()  # not rendered yet (a reply is rendered again over several turns)
    code = html[html.index("def") - 200 :]
    return set(re.findall(r"color:(#[0-9a-f]{6})", code))


def test_a_theme_change_renders_the_answers_again(qtbot: QtBot, light: None) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    _v, answer = _answer(qtbot, ANSWER)
    before = _code_colours(answer)
    theme.choose("dark")
    theme.apply(app)
    qtbot.waitUntil(lambda: not answer.busy and _code_colours(answer) != before)
    after = _code_colours(answer)
    assert after and after.isdisjoint(before)  # every colour of the code is the dark one
    assert f'bgcolor="{theme.DARK.surface}"' in answer.shown_html()
    assert answer.item.text == ANSWER and "print" in answer.shown_html()  # all of it, once
    shown = "".join(d.toPlainText() for d in _documents(answer))
    assert shown.count("def main():") == 1 and shown.count("Plan") == 1
