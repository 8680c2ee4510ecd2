"""``StreamText``: the text of a streamed entry while it grows, joined when somebody reads it.

``str +=`` over 200,000 deltas is quadratic, and joining 200,000 deltas at once holds the event
loop for milliseconds. So pieces are kept as they come and joined into runs of
``PIECES_PER_RUN`` as they fill: joining a long stream's text copies a few hundred strings.
"""

from __future__ import annotations

#: Streamed pieces joined into one run of text at a time.
PIECES_PER_RUN = 1_000


class StreamText:
    """Text added a piece at a time (``add``), handed out joined (``take``)."""

    __slots__ = ("_pieces", "_runs")

    def __init__(self) -> None:
        self._pieces: list[str] = []
        self._runs: list[str] = []

    def __bool__(self) -> bool:
        """Whether text was added since the last ``take``."""
        return bool(self._pieces or self._runs)

    def add(self, text: str) -> None:
        """One more piece (the hot path: once per delta)."""
        pieces = self._pieces
        pieces.append(text)
        if len(pieces) >= PIECES_PER_RUN:
            self._runs.append("".join(pieces))
            pieces.clear()

    def take(self, before: str) -> str:
        """``before`` followed by what was added since the last ``take`` (then none is)."""
        joined = "".join([before, *self._runs, *self._pieces])
        self._pieces.clear()
        self._runs.clear()
        return joined
