"""``Transcript.turn_text``: what the assistant wrote in one turn (the turn's end announces it to
screen readers; extensions read it), found from the end back to the turn's prompt, not by
walking a long conversation."""

from __future__ import annotations

from desktop.core.events import TextDelta, ThinkingDelta, TurnEnded, TurnEndReason, TurnStarted
from desktop.core.transcript import Transcript


def _turn(transcript: Transcript, turn_id: str, *texts: str) -> None:
    transcript.apply(TurnStarted(turn_id=turn_id, prompt=f"prompt {turn_id}"))
    transcript.apply(ThinkingDelta(turn_id=turn_id, text="(reasoning, not the answer)"))
    for text in texts:
        transcript.apply(TextDelta(turn_id=turn_id, text=text))
    transcript.apply(TurnEnded(turn_id=turn_id, reason=TurnEndReason.COMPLETED))


def test_each_turns_answer_and_nothing_of_the_others() -> None:
    transcript = Transcript()
    for n in range(200):
        _turn(transcript, f"t{n}", f"answer {n}")
    _turn(transcript, "last", "The ", "end.")
    assert transcript.turn_text("last") == "The end."
    assert transcript.turn_text("t0") == "answer 0"
    assert transcript.turn_text("t150") == "answer 150"
    assert transcript.turn_text("unknown") == ""


def test_a_turn_still_streaming_reads_what_came_so_far() -> None:
    transcript = Transcript()
    _turn(transcript, "a", "first")
    transcript.apply(TurnStarted(turn_id="b", prompt="go on"))
    transcript.apply(TextDelta(turn_id="b", text="half"))
    transcript.apply(TextDelta(turn_id="b", text=" way"))
    assert transcript.turn_text("b") == "half way"
