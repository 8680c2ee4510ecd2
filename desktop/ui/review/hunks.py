"""Where a row of a multi-file diff falls: its file and its hunk, as the checkpoint store
numbers them (``FileChange.diff``'s hunks, from 0), for "Revert hunk" in the review.

Qt-free: display rows of ``desktop.ui.diff.model`` in, numbers out.
"""

from __future__ import annotations

from collections.abc import Sequence

from desktop.ui.diff.model import Row, RowKind


def locate(rows: Sequence[Row], index: int) -> tuple[int, int]:
    """The file (0-based, in diff order) and hunk (0-based within its file; -1 on the file's
    header) of display row ``index``; (-1, -1) before the first file."""
    file, hunk = -1, -1
    for row in rows[: max(0, index) + 1]:
        if row.kind == RowKind.FILE:
            file, hunk = file + 1, -1
        elif row.kind == RowKind.HUNK:
            hunk += 1
    return file, hunk


def hunk_rows(rows: Sequence[Row], file: int) -> list[int]:
    """The row of each hunk header of the ``file``-th file."""
    found: list[int] = []
    current = -1
    for number, row in enumerate(rows):
        if row.kind == RowKind.FILE:
            current += 1
        elif row.kind == RowKind.HUNK and current == file:
            found.append(number)
    return found
