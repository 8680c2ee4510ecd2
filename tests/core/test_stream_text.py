"""A streamed answer's text in the transcript: every delta, in order, however many there are and
whenever the entry is read (mid-stream, at its end, after a tool call breaks the stream)."""

from __future__ import annotations

from desktop.core.entries import Changed, StreamItem
from desktop.core.events import TextDelta, TurnEnded, TurnEndReason, TurnStarted
from desktop.core.stream_text import PIECES_PER_RUN
from desktop.core.transcript import Transcript


def _stream(transcript: Transcript) -> StreamItem:
    return [i for i in transcript.items if isinstance(i, StreamItem) and not i.thinking][-1]


def _answer(transcript: Transcript) -> str:
    return _stream(transcript).text


def test_many_deltas_read_mid_stream_and_at_the_end() -> None:
    transcript = Transcript()
    transcript.apply(TurnStarted(turn_id="t", prompt="go"))
    deltas = [f"{n} " for n in range(PIECES_PER_RUN * 2 + 17)]  # two full runs and a tail
    for n, delta in enumerate(deltas):
        transcript.apply(TextDelta(turn_id="t", text=delta))
        if n in (5, PIECES_PER_RUN + 3):  # read while runs and pieces are both pending
            assert _answer(transcript) == "".join(deltas[: n + 1])
    assert transcript.turn_text("t") == "".join(deltas)
    transcript.apply(TurnEnded(turn_id="t", reason=TurnEndReason.COMPLETED))
    assert _answer(transcript) == "".join(deltas)
    assert _stream(transcript).done


def test_the_next_answer_starts_empty() -> None:
    transcript = Transcript()
    for turn in ("a", "b"):
        transcript.apply(TurnStarted(turn_id=turn, prompt="go"))
        for _ in range(PIECES_PER_RUN + 1):
            transcript.apply(TextDelta(turn_id=turn, text=turn))
        transcript.apply(TurnEnded(turn_id=turn, reason=TurnEndReason.COMPLETED))
    assert transcript.turn_text("a") == "a" * (PIECES_PER_RUN + 1)
    assert transcript.turn_text("b") == "b" * (PIECES_PER_RUN + 1)


def test_a_closed_stream_is_joined_when_read_not_when_it_closes() -> None:
    transcript = Transcript()
    transcript.apply(TurnStarted(turn_id="t", prompt="go"))
    deltas = [f"{n} " for n in range(PIECES_PER_RUN + 5)]
    for delta in deltas:
        transcript.apply(TextDelta(turn_id="t", text=delta))
    changes = transcript.apply(TurnEnded(turn_id="t", reason=TurnEndReason.COMPLETED))
    closed = next(c.item for c in changes if isinstance(c, Changed))
    assert isinstance(closed, StreamItem) and closed.done
    assert closed.text == ""  # not joined as it closed (nobody read it while it streamed)
    assert transcript.peek(closed.key) == closed  # peek does not join either
    whole = transcript.item(closed.key)
    assert isinstance(whole, StreamItem) and whole.done and whole.text == "".join(deltas)
    assert transcript.turn_text("t") == "".join(deltas)


def test_a_closed_streams_text_stays_its_own_when_the_next_stream_starts() -> None:
    transcript = Transcript()
    transcript.apply(TurnStarted(turn_id="t", prompt="go"))
    transcript.apply(TextDelta(turn_id="t", text="first"))
    transcript.apply(TurnEnded(turn_id="t", reason=TurnEndReason.COMPLETED))  # closed, unread
    transcript.apply(TurnStarted(turn_id="u", prompt="again"))
    transcript.apply(TextDelta(turn_id="u", text="second"))
    assert transcript.turn_text("t") == "first"
    assert transcript.turn_text("u") == "second"
    streams = [i for i in transcript.items if isinstance(i, StreamItem)]
    assert [(s.text, s.done) for s in streams] == [("first", True), ("second", False)]
