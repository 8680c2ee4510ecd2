"""A failed start in the window is tried once and said once (issue 16).

The agent starts with the first prompt: the pane starts it and holds the prompt until the start
is over. When the start fails, the held prompt fails with it; it must not start the agent a
second time (which showed the agent's start error twice, then the failed turn). Real windows
on the fake aionrs agent that exits before it is ready; the rows on screen are counted.
"""

from __future__ import annotations

from desktop.core.entries import TurnEndItem, UserItem
from desktop.core.events import SessionState, TurnEndReason
from desktop.ui.conversation.items import MessageRow
from desktop.ui.pane import ConversationPane
from tests.ui.conftest import Driver
from tests.waiting import until

_STARTUP_FAILS = {"startup": {"exit": 2, "stderr": "Error: no such model"}}


def _rows(pane: ConversationPane) -> list[str]:
    return [w.text() for w in pane.view.widgets.values() if isinstance(w, MessageRow)]


def _failed_turns(pane: ConversationPane) -> int:
    return sum(
        isinstance(item, TurnEndItem) and item.reason == TurnEndReason.ERROR
        for item in pane.transcript.items
    )


def test_the_start_error_of_a_first_prompt_is_shown_once(driver: Driver) -> None:
    async def body() -> None:
        context = await driver.acontext(_STARTUP_FAILS)
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        pane.submit("hello", [])
        await until(lambda: _failed_turns(pane) == 1, 30, "the failed turn")
        await until(lambda: len(_rows(pane)) >= 2, 30, "the rows of the failed turn")
        rows = _rows(pane)
        started = [row for row in rows if "before it was ready" in row and "could not" not in row]
        assert len(started) == 1, rows  # the start error, once
        assert sum("The agent could not start:" in row for row in rows) == 1, rows
        assert len(rows) == 2, rows
        assert "Error: no such model" in started[0]
        assert pane.session.state == SessionState.EXITED

    driver.run(body(), 90)


def test_prompts_held_by_a_failed_start_fail_without_a_second_start(driver: Driver) -> None:
    async def body() -> None:
        context = await driver.acontext(_STARTUP_FAILS)
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        pane.submit("first", [])
        pane.submit("second", [])  # held too: the start is under way
        await until(lambda: _failed_turns(pane) == 2, 30, "both turns failed")
        await until(lambda: len(_rows(pane)) >= 3, 30, "the rows")
        rows = _rows(pane)
        assert sum("before it was ready" in r and "could not" not in r for r in rows) == 1, rows
        assert sum("The agent could not start:" in row for row in rows) == 2, rows
        prompts = [i.text for i in pane.transcript.items if isinstance(i, UserItem)]
        assert prompts == ["first", "second"]
        # The next prompt tries again (the user may have fixed what was wrong): one more error.
        pane.submit("third", [])
        await until(lambda: _failed_turns(pane) == 3, 30, "the third turn failed")
        await until(lambda: len(_rows(pane)) >= 5, 30, "the rows of the retry")
        assert sum("before it was ready" in r and "could not" not in r for r in _rows(pane)) == 2

    driver.run(body(), 90)
