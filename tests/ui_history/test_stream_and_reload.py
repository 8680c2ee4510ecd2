"""A streamed conversation and the same conversation reopened from history render the same.

The conversation (thinking, headings, lists, code, a tool call) streams from the fake agent in
small pieces into one window; a second window opens it from the history database. Every
rendered item is compared: the HTML of each markdown block, the thinking text, the tool line.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QWidget

from desktop.ui.app import AppContext
from desktop.ui.conversation.items import MessageRow, UserBubble
from desktop.ui.conversation.stream_view import AssistantView
from desktop.ui.conversation.thinking import ThinkingView
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.pane import ConversationPane
from tests.ui.conftest import Driver, _shutdown
from tests.ui_history.test_sidebar_history import _converse, _stored, _window
from tests.waiting import until

ANSWER = """# Plan

First a paragraph right under the heading.
It goes on for a second line.

## Steps
- one item
- two items
  with a continuation

1. first
2. second

```python
def greet(name: str) -> str:
    return f"hello {name}"
```
Text right after the code.

### Done
The end.
"""

SCENARIO: dict[str, Any] = {
    "turns": [
        [
            {"thinking": "Let me look at the file first.", "chunks": 5},
            {"tool": {"name": "Read", "args": {"file_path": "notes.txt"}, "category": "info"}},
            {"text": ANSWER, "chunks": 97},
        ]
    ]
}


def rendered(widget: QWidget) -> tuple[str, str]:
    """What one item widget shows, as comparable text."""
    for part in (widget, *widget.findChildren(QWidget)):
        part.ensurePolished()  # the style sheet's font, however soon after it was made
    if isinstance(widget, AssistantView):
        return "assistant", widget.shown_html()
    if isinstance(widget, ThinkingView):
        return "thinking", f"{widget.toggle.text()}\n{widget.body.toPlainText()}"
    if isinstance(widget, ToolCard):
        line = widget.line
        return "tool", " | ".join(
            (line.sentence.plain(), line.outcome.text(), line.run_status.text(), line.when.text())
        )
    if isinstance(widget, UserBubble):
        return "user", widget.text.text()
    assert isinstance(widget, MessageRow)
    return "message", widget.text()


def shown(pane: ConversationPane) -> list[tuple[str, str]]:
    """Every rendered item of ``pane``, top to bottom."""
    pane.view.flush()
    widgets = sorted(pane.view.widgets.items())
    return [rendered(w) for _, w in widgets]


async def stream(driver: Driver) -> tuple[AppContext, ConversationPane]:
    """Stream ``SCENARIO`` into a window until it is rendered and recorded."""
    (driver.workspace() / "notes.txt").write_text("some notes\n")
    context, window, _ = await _window(driver, SCENARIO, "aionrs-0.2")  # Read runs unasked
    pane = await _converse(window, "make a plan")
    await until(lambda: not any(w.busy for w in _assistants(pane)), what="rendered")
    await until(
        lambda: (
            bool(_stored(driver.workspace()))
            and _stored(driver.workspace())[0].items[-1].kind == "turn_end"
        ),
        what="recorded",
    )
    return context, pane


async def reopen(driver: Driver) -> tuple[AppContext, ConversationPane]:
    """Open the recorded conversation from history in a new app context."""
    context, _, engine = await _window(driver, {})
    await until(lambda: any(e.stored for e in engine.entries), what="listed")
    pane = await engine.open_stored(next(e for e in engine.entries if e.stored))
    assert pane is not None
    await until(  # every row built (a pass builds a few, nearest first) and rendered
        lambda: (
            all(row.widget is not None for row in pane.view.rows.rows)
            and not any(w.busy for w in _assistants(pane))
        ),
        what="reloaded",
    )
    return context, pane


def _assistants(pane: ConversationPane) -> list[AssistantView]:
    pane.view.flush()
    return [w for w in pane.view.widgets.values() if isinstance(w, AssistantView)]


def test_streamed_and_reloaded_conversations_render_identically(driver: Driver) -> None:
    async def body() -> None:
        context, live = await stream(driver)
        streamed = shown(live)
        await _shutdown(context)
        context, reopened = await reopen(driver)
        reloaded = shown(reopened)
        assert [kind for kind, _ in streamed] == ["user", "thinking", "tool", "assistant"]
        assert reloaded[: len(streamed)] == streamed
        assert [kind for kind, _ in reloaded[len(streamed) :]] == ["message"]  # "Saved …"
        html = streamed[-1][1]
        assert html.count("<h1") == 1 and html.count("<h2") == 1 and html.count("<h3") == 1
        assert "Plan" in html and "First a paragraph" in html
        await _shutdown(context)

    driver.run(body(), 90)
