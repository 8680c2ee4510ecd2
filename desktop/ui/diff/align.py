"""Keep the rows of the two side-by-side panes level when long lines wrap.

Each pane is a QPlainTextEdit whose blocks are as tall as their wrapped lines, so a long line
on one side would push every later row of that side down. The shorter row of each pair gets
invisible line separators (U+2028: a line break inside the block, never a new block, so block
number == row index still holds) until both rows take the same number of screen lines. Both
panes wrap anywhere in a fixed-pitch font, so the count is arithmetic, not a layout pass.
Qt-free, so it is cheap to test.
"""

from __future__ import annotations

#: A line break inside one text block (QTextDocument keeps it in the block).
PAD = "\u2028"
#: Beyond this many rows the panes are not padded (wrapping still works, rows may drift).
MAX_ALIGNED_ROWS = 20_000


def wrapped_lines(text: str, columns: int, tab: int = 4) -> int:
    """Screen lines ``text`` takes when wrapped anywhere at ``columns`` characters."""
    if columns <= 0:
        return 1
    width = len(text.expandtabs(tab)) if "\t" in text else len(text)
    return max(1, -(-width // columns))


def pad_pairs(
    left: list[str], right: list[str], left_columns: int, right_columns: int
) -> tuple[list[str], list[str]]:
    """The two sides' texts, the shorter row of each pair padded to its partner's height.

    Args:
        left: The old side's rows (one text per row).
        right: The new side's rows, aligned with ``left`` row by row.
        left_columns: Characters per screen line in the left pane.
        right_columns: The same for the right pane.
    """
    if len(left) > MAX_ALIGNED_ROWS:
        return left, right
    padded_left: list[str] = []
    padded_right: list[str] = []
    for old, new in zip(left, right, strict=True):
        a = wrapped_lines(old, left_columns)
        b = wrapped_lines(new, right_columns)
        padded_left.append(old + PAD * (b - a) if b > a else old)
        padded_right.append(new + PAD * (a - b) if a > b else new)
    return padded_left, padded_right
