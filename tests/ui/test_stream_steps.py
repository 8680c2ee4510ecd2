"""Streaming markdown is shown in small steps, and what is shown depends only on the text.

A long answer (headings, lists, tables, code in several languages) is rendered over many turns
of the loop, each taking a bounded amount of work (``TICK_BUDGET_S``; with no budget at all a
turn takes one step), and ends up exactly as the same answer rendered whole. Code whose lexer
is still being built (on a thread) is drawn plain while it streams; a finished block waits for
its lexer, so a finished answer is always highlighted.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from benchmarks.gui_stream import realistic_markdown
from desktop.core.events import TextDelta, ThinkingDelta, TurnEnded, TurnEndReason, TurnStarted
from desktop.ui.conversation import lexers, stream_view
from desktop.ui.conversation.blocks import CONTINUED, CUT, LIVE_LIMIT, PROSE_LIMIT, BlockSplitter
from desktop.ui.conversation.markdown import COPY_SCHEME, OPEN_CODE, renderer
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.stream_view import AssistantView
from desktop.ui.conversation.thinking import ThinkingView
from desktop.ui.conversation.view import ConversationView
from tests.ui.conftest import shown_view

HASKELL = 'Before the code.\n\n```haskell\nmain :: IO ()\nmain = putStrLn "hi"\n```\n'


def _view(qtbot: QtBot) -> tuple[TranscriptModel, ConversationView]:
    transcript, view = shown_view(qtbot)
    transcript.apply(TurnStarted(turn_id="t1", prompt="go"))
    return transcript, view


def _answer(view: ConversationView) -> AssistantView:
    return next(w for w in view.widgets.values() if isinstance(w, AssistantView))


def _finished(qtbot: QtBot, view: ConversationView) -> AssistantView:
    answer = _answer(view)
    qtbot.waitUntil(lambda: view.rendered() and not answer.busy, timeout=30_000)
    return answer


def _chunks(text: str, size: int) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start : start + size]


def test_a_streamed_answer_ends_as_the_same_answer_rendered_whole(qtbot: QtBot) -> None:
    text = realistic_markdown(12)
    whole, whole_view = _view(qtbot)
    whole.apply(TextDelta(turn_id="t1", text=text))
    whole.apply(TurnEnded(turn_id="t1", reason=TurnEndReason.COMPLETED))
    expected = _finished(qtbot, whole_view)

    streamed, streamed_view = _view(qtbot)
    for index, piece in enumerate(_chunks(text, 97)):
        streamed.apply(TextDelta(turn_id="t1", text=piece))
        if index % 7 == 0:  # the loop turns now and then, as while a real answer streams
            qtbot.waitUntil(lambda: streamed_view.rendered(), timeout=15_000)
    streamed.apply(TurnEnded(turn_id="t1", reason=TurnEndReason.COMPLETED))
    answer = _finished(qtbot, streamed_view)

    assert answer.block_count == expected.block_count > 10
    assert answer.shown_html() == expected.shown_html()
    assert "agentdesk-copy:" in answer.shown_html() and 'border="1"' in answer.shown_html()


def test_with_no_budget_a_turn_of_the_loop_takes_one_step(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps: list[int] = [0]
    real_step = AssistantView._step
    real_refresh = AssistantView.refresh

    def step(self: AssistantView, costly_taken: bool) -> bool | None:
        taken = real_step(self, costly_taken)
        steps[-1] += taken is not None
        return taken

    def refresh(self: AssistantView) -> None:
        steps.append(0)  # one call: the work of one turn of the loop
        real_refresh(self)

    monkeypatch.setattr(AssistantView, "_step", step)
    monkeypatch.setattr(AssistantView, "refresh", refresh)
    text = realistic_markdown(4)
    transcript, view = _view(qtbot)
    transcript.apply(TextDelta(turn_id="t1", text=text))
    transcript.apply(TurnEnded(turn_id="t1", reason=TurnEndReason.COMPLETED))
    reference = _finished(qtbot, view).shown_html()

    monkeypatch.setattr(stream_view, "TICK_BUDGET_S", 0.0)
    steps[:] = [0]
    _answer(view).rerender()  # everything again, over as many turns as it takes
    answer = _finished(qtbot, view)
    assert max(steps) == 1
    assert sum(steps) >= 4 * answer.block_count  # markdown, HTML, insert, links: one a turn
    assert answer.shown_html() == reference


def test_a_turn_of_the_loop_takes_one_costly_step_however_long_its_budget(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    costly: list[int] = [0]
    real_step = AssistantView._step
    real_refresh = AssistantView.refresh

    def step(self: AssistantView, costly_taken: bool) -> bool | None:
        taken = real_step(self, costly_taken)
        costly[-1] += taken is True
        return taken

    def refresh(self: AssistantView) -> None:
        costly.append(0)
        real_refresh(self)

    monkeypatch.setattr(AssistantView, "_step", step)
    monkeypatch.setattr(AssistantView, "refresh", refresh)
    monkeypatch.setattr(stream_view, "TICK_BUDGET_S", 10.0)  # time never ends a turn's work
    transcript, view = _view(qtbot)
    transcript.apply(TextDelta(turn_id="t1", text=realistic_markdown(4)))
    transcript.apply(TurnEnded(turn_id="t1", reason=TurnEndReason.COMPLETED))
    answer = _finished(qtbot, view)
    assert answer.block_count > 5 and max(costly) == 1  # an insert or a new document a turn


@pytest.fixture
def slow_lexers(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Lexers are built only once the returned event is set (none is built yet)."""
    release = threading.Event()
    monkeypatch.setattr(lexers, "_LEXERS", {})
    monkeypatch.setattr(lexers, "_WARMING", set())
    real = lexers._warm

    def warm(langs: list[str]) -> None:
        release.wait(30)
        real(langs)

    monkeypatch.setattr(lexers, "_warm", warm)
    yield release
    release.set()


def test_the_common_languages_are_built_on_the_worker_once_a_prompt_is_typed(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``warm_when_typing``: the first key typed in the prompt editor starts building the
    lexers replies use most, on the worker thread (a reply's first Rust or TypeScript block
    finds its lexer); nothing is built before."""
    monkeypatch.setattr(lexers, "_LEXERS", {})
    monkeypatch.setattr(lexers, "_WARMING", set())
    builders: set[int] = set()
    real = lexers._build_lexer

    def build(lang: str) -> object:
        builders.add(threading.get_ident())
        return real(lang)

    monkeypatch.setattr(lexers, "_build_lexer", build)
    editor = QPlainTextEdit()
    qtbot.addWidget(editor)
    lexers.warm_when_typing(editor)
    assert not lexers._WARMING and not lexers._LEXERS
    qtbot.keyClicks(editor, "wr")
    qtbot.waitUntil(lambda: set(lexers.COMMON_LANGUAGES) <= set(lexers._LEXERS), timeout=30_000)
    assert lexers._LEXERS["rust"] is not None and lexers._LEXERS["typescript"] is not None
    assert builders and threading.get_ident() not in builders


def _coloured(html: str) -> bool:
    """Whether code is drawn in syntax colours (plain code has the text colour alone)."""
    return len(set(re.findall(r"font-family:'monospace'; color:(#[0-9a-f]{6})", html))) > 1


class _Paints(QObject):
    """Counts the paint events of the widget it filters."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        self.count += event.type() == QEvent.Type.Paint
        return False


def test_code_streams_plain_until_its_lexer_is_built(
    qtbot: QtBot, slow_lexers: threading.Event
) -> None:
    transcript, view = _view(qtbot)
    open_block = HASKELL.removesuffix("```\n")  # the fence still open: the open block
    transcript.apply(TextDelta(turn_id="t1", text=open_block))
    answer = _answer(view)
    qtbot.waitUntil(lambda: "putStrLn" in answer.shown_html(), timeout=15_000)
    assert not _coloured(answer.shown_html())  # drawn plain, the loop did not wait
    live = answer._live.viewport()
    painted = _Paints()
    live.installEventFilter(painted)
    slow_lexers.set()
    qtbot.waitUntil(lambda: _coloured(answer.shown_html()), timeout=15_000)
    qtbot.waitUntil(lambda: painted.count > 0, timeout=15_000)  # and drawn again, coloured


def test_a_finished_block_waits_for_its_lexer(qtbot: QtBot, slow_lexers: threading.Event) -> None:
    transcript, view = _view(qtbot)
    transcript.apply(TextDelta(turn_id="t1", text=HASKELL))
    transcript.apply(TurnEnded(turn_id="t1", reason=TurnEndReason.COMPLETED))
    answer = _answer(view)
    qtbot.waitUntil(lambda: view.rendered() or answer.busy, timeout=15_000)
    assert answer.busy and answer.block_count == 0  # not shown uncoloured, then coloured
    slow_lexers.set()
    answer = _finished(qtbot, view)
    assert answer.block_count == 1 and _coloured(answer.shown_html())


def test_blocks_are_cut_where_the_text_says_and_stay_short() -> None:
    prose = " ".join(f"word{i}" for i in range(900))  # one paragraph of 7,000 characters
    code = "".join(f"    line_{i} = compute({i})\n" for i in range(200))  # a 5,000-character fence
    text = f"# Title\n\n{prose}\n\n```python\ndef f():\n{code}```\n\nThe end.\n"
    whole = BlockSplitter()
    expected = whole.feed(text) + whole.finish()
    for size in (1, 7, 97, 1500):
        splitter = BlockSplitter()
        got = [block for piece in _chunks(text, size) for block in splitter.feed(piece)]
        assert got + splitter.finish() == expected
    fenced = [b for b in expected if b.startswith("```")]
    assert len(fenced) > 2 and all(b.rstrip().endswith("```") for b in fenced[:-1])  # closed
    assert all(len(b) <= LIVE_LIMIT + 40 for b in fenced)
    assert all(len(b) <= PROSE_LIMIT for b in expected if "word" in b)
    # Each piece but the last says it was cut, each but the first that it continues one.
    assert [CUT in b.split("\n")[0] for b in fenced] == [True] * (len(fenced) - 1) + [False]
    assert [CONTINUED in b.split("\n")[0] for b in fenced] == [False] + [True] * (len(fenced) - 1)
    joined = "".join(expected).replace(f" {CONTINUED}", "").replace(f" {CUT}", "")
    assert joined.replace("```\n```python\n", "") == text


def test_a_long_table_is_cut_between_rows_under_its_header() -> None:
    rows = "".join(f"| {i} | value {i} |\n" for i in range(120))
    text = f"| n | value |\n|---|---|\n{rows}\nThe end.\n"
    splitter = BlockSplitter()
    tables = [b for b in splitter.feed(text) + splitter.finish() if b.startswith("|")]
    assert len(tables) > 2
    assert all(b.startswith("| n | value |\n|---|---|\n| ") for b in tables)
    body = [line for b in tables for line in b.split("\n")[2:] if line.startswith("| ")]
    assert body == rows.rstrip("\n").split("\n")  # every row once, in order


def test_a_long_code_block_renders_as_one_with_one_copy(qtbot: QtBot) -> None:
    code = "".join(f"    line_{i} = compute({i})\n" for i in range(200))
    text = f"```python\n{code}```\n"
    splitter = BlockSplitter()
    pieces = splitter.feed(text) + splitter.finish()
    codes: dict[str, str] = {}
    html = "".join(renderer(False).render(piece, codes) for piece in pieces)
    assert len(pieces) > 3 and html.count(f"{COPY_SCHEME}:") == 1  # one header, one "Copy"
    assert [code] == [c for k, c in codes.items() if k != OPEN_CODE]


def test_long_reasoning_is_appended_in_steps_over_turns_of_the_loop(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stream_view, "TICK_BUDGET_S", 0.0)  # one step a turn of the loop
    transcript, view = _view(qtbot)
    text = "".join(f"step {i}: weigh the options and pick one.\n" for i in range(2_000))
    transcript.apply(ThinkingDelta(turn_id="t1", text=text))
    thinking = next(w for w in view.widgets.values() if isinstance(w, ThinkingView))
    qtbot.waitUntil(lambda: view.rendered(), timeout=15_000)
    seen = len(thinking.body.toPlainText())
    assert thinking.busy and 0 < seen < len(text)  # the rest at the next turns
    qtbot.waitUntil(lambda: not thinking.busy, timeout=30_000)
    assert thinking.body.toPlainText() == text
