"""Conversation titles: meaningful (from the first prompt) and distinct within a workspace."""

from __future__ import annotations

import pytest

from desktop.core.events import TurnStarted
from desktop.core.history import HistoryRecorder, HistoryStore, HistoryWriter
from desktop.core.history.titles import TITLE_LENGTH, distinct_title, title_from_prompt


@pytest.mark.parametrize(
    ("prompt", "title"),
    [
        ("\n  Fix   the flaky test\nin CI please", "Fix the flaky test"),
        ("# Plan for **main.py**\nThen the rest", "Plan for main.py"),
        ("Explain @desktop/core/session.py please. And then more.", "Explain session.py please"),
        ("> quoted `code` here", "quoted code here"),
        ("```\nprint(1)\n```\nWhy does this fail?", "Why does this fail?"),
        ("Read [the guide](http://x.test) and fix_the_bug", "Read the guide and fix_the_bug"),
        ("- [ ] write the _docs_", "write the docs"),
        ("Hi. Fix the test", "Hi. Fix the test"),  # a one-word sentence is not a title
        ("Use v1.2.3 now. Then stop.", "Use v1.2.3 now"),
        ("   \n\n", ""),
    ],
)
def test_title_is_the_first_sentence_without_markdown(prompt: str, title: str) -> None:
    assert title_from_prompt(prompt) == title


def test_long_title_is_cut_at_a_word_with_an_ellipsis() -> None:
    title = title_from_prompt("refactor " * 30)
    assert title.endswith("refactor…") and len(title) <= TITLE_LENGTH
    assert title_from_prompt("x" * 200) == "x" * (TITLE_LENGTH - 1) + "…"  # no word to cut at


def test_distinct_title_numbers_repeats() -> None:
    assert distinct_title("Fix it", ["Other"]) == "Fix it"
    assert distinct_title("Fix it", ["fix it", "Fix it (2)"]) == "Fix it (3)"
    long = distinct_title("word " * 30, ["word " * 30])
    assert long.endswith("… (2)") and len(long) <= TITLE_LENGTH


def _start(writer: HistoryWriter, workspace: str, prompt: str) -> str:
    recorder = HistoryRecorder.start(writer, workspace, "builtin")
    recorder.on_event(TurnStarted(turn_id="t1", prompt=prompt))
    return recorder.conversation_id


def test_store_numbers_repeated_titles_per_workspace_and_keeps_renames() -> None:
    writer, store = HistoryWriter(), HistoryStore()
    try:
        first = _start(writer, "/w1", "Fix the test")
        second = _start(writer, "/w1", "**Fix the test.**")
        elsewhere = _start(writer, "/w2", "Fix the test")
        writer.flush()
        titles = {c.id: c.title for c in store.list_conversations("/w1")}
        assert titles == {first: "Fix the test", second: "Fix the test (2)"}
        assert store.get(elsewhere).title == "Fix the test"  # another workspace: no number
        # The user's own choice is kept as typed, even when another conversation has it.
        store.rename(second, "Fix the test")
        assert store.get(second).title == "Fix the test"
        third = _start(writer, "/w1", "fix the TEST")
        writer.flush()
        assert store.get(third).title == "fix the TEST (2)"
    finally:
        writer.close()
        store.close()
