"""Redacting a text written in pieces as it streams (``StreamRedaction``): the pieces written,
joined, are the whole text redacted, however the text is split; so no part of a secret or key
that straddles two pieces is ever written."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.core.redaction import Redactor, StreamRedaction

SECRET = "hunter2-correct-horse"
KEY = "sk-ant-abcdefgh12345678"

#: Characters that make secrets, keys and the boundaries between them.
_ALPHABET = "ab-_ sk[]\n.é" + "0123456789"
_secrets = st.lists(st.text("absk0123456789-_", min_size=6, max_size=14), max_size=3)


def _written(redaction: StreamRedaction, pieces: list[str]) -> tuple[list[str], str]:
    """Each piece's written text, and the rest written at the end."""
    return [redaction.add(piece) for piece in pieces], redaction.end()


def test_a_secret_split_across_pieces_is_never_written_in_part() -> None:
    redactor = Redactor([SECRET])
    text = f"the password is {SECRET} and the key {KEY}, done"
    for split in range(1, len(text)):
        for second in range(split, len(text)):
            redaction = StreamRedaction(redactor)
            pieces = [text[:split], text[split:second], text[second:]]
            written, rest = _written(redaction, pieces)
            for n in range(len(written)):
                so_far = "".join(written[: n + 1])
                assert "hunter" not in so_far and "sk-ant" not in so_far, (split, second, n)
            assert "".join(written) + rest == redactor.text(text)


def test_only_what_may_start_a_secret_or_key_is_held() -> None:
    redaction = StreamRedaction(Redactor([SECRET]))
    text = "a long answer with no secret in it, " * 100
    assert redaction.add(text) == text  # nothing in it may start a secret
    assert redaction.add("a word hunt") == "a word "  # "hunt" may be the secret's start
    assert redaction.add("ing") == "hunting"
    assert redaction.add(" and ask") == " and "  # "ask" may become "ask-..."
    assert redaction.add("-me") == ""  # may be a key's start
    assert redaction.add(", ok") == "ask-me, ok"  # too short for one
    assert redaction.end() == ""


def test_a_key_shaped_word_is_held_until_it_ends() -> None:
    redaction = StreamRedaction(Redactor([]))
    assert redaction.add("use sk-") == "use "
    assert redaction.add("abcdef") == ""
    assert redaction.add("ghijkl done") == "[REDACTED] done"
    assert redaction.end() == ""


@settings(max_examples=400, deadline=None)
@given(
    secrets=_secrets,
    parts=st.lists(st.text(_ALPHABET, max_size=30), max_size=12),
    planted=st.lists(st.integers(0, 11), max_size=4),
    cuts=st.lists(st.integers(0, 400), max_size=8),
)
def test_written_pieces_join_to_the_whole_text_redacted(
    secrets: list[str], parts: list[str], planted: list[int], cuts: list[int]
) -> None:
    # Secrets and keys planted among random text, then the text cut anywhere.
    for n, where in enumerate(planted):
        token = secrets[n % len(secrets)] if secrets and n % 2 == 0 else "sk-" + "x1" * (n + 3)
        parts.insert(min(where, len(parts)), token)
    text = "".join(parts)
    bounds = sorted({0, len(text), *(c for c in cuts if c < len(text))})
    pieces = [text[a:b] for a, b in pairwise(bounds)]
    redactor = Redactor(secrets)
    written, rest = _written(StreamRedaction(redactor), pieces)
    assert "".join(written) + rest == redactor.text(text)
