"""Turn unified diff text into display rows for the unified and side-by-side diff panes.

Parsing uses the maintained ``unidiff`` library; this module only lays the parsed hunks out as
rows, one text line per row, so a pane can map a text block number straight to its row. The
module is Qt-free, so it is cheap to test and to reuse (e.g. for a changes list).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum

from unidiff.errors import UnidiffParseError
from unidiff.patch import Hunk, PatchedFile, PatchSet

# Characters a QTextDocument would treat as line or paragraph breaks inside one line; they
# would split one row into two blocks and break the block number == row index invariant.
_BREAKS = str.maketrans({"\r": "␍", "\u2028": " ", "\u2029": " ", "\x0b": " ", "\x0c": " "})
_BREAK_RE = re.compile("[\r\u2028\u2029\x0b\x0c]")
_NO_NEWLINE = "\\"


class RowKind(IntEnum):
    """What one display row shows."""

    FILE = 0
    HUNK = 1
    CONTEXT = 2
    ADDED = 3
    REMOVED = 4
    META = 5
    FILLER = 6


_HEADERS = (RowKind.FILE, RowKind.HUNK)
_CHANGED = (RowKind.ADDED, RowKind.REMOVED)


@dataclass(slots=True, eq=False)
class SideText:
    """The consecutive lines of one side of one hunk, lexed together for syntax colours.

    Lexing a run of lines (rather than each line alone) keeps multi-line strings and comments
    coloured correctly; the pane lexes it lazily in chunks, only when a row becomes visible.
    """

    path: str
    lines: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Row:
    """One display row; ``pair`` indexes ``DiffModel.pairs`` for intra-line highlighting."""

    kind: RowKind
    text: str
    old_no: int | None = None
    new_no: int | None = None
    side: SideText | None = None
    side_index: int = -1
    pair: int = -1


@dataclass(slots=True)
class FileSummary:
    """One file of a (possibly multi-file) diff."""

    path: str
    added: int
    removed: int
    is_new: bool
    is_deleted: bool
    is_binary: bool


@dataclass(slots=True)
class DiffModel:
    """A parsed diff laid out as unified rows; side-by-side rows are derived on first use."""

    files: list[FileSummary] = field(default_factory=list)
    unified: list[Row] = field(default_factory=list)
    pairs: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None
    _split: tuple[list[Row], list[Row]] | None = None

    @property
    def added(self) -> int:
        """Total added lines over all files."""
        return sum(f.added for f in self.files)

    @property
    def removed(self) -> int:
        """Total removed lines over all files."""
        return sum(f.removed for f in self.files)

    @property
    def left(self) -> list[Row]:
        """Rows of the old side of the side-by-side view."""
        return self._split_rows()[0]

    @property
    def right(self) -> list[Row]:
        """Rows of the new side; same length as ``left``, aligned row by row."""
        return self._split_rows()[1]

    def _split_rows(self) -> tuple[list[Row], list[Row]]:
        if self._split is None:
            self._split = split_rows(self.unified)
        return self._split


def split_rows(unified: list[Row]) -> tuple[list[Row], list[Row]]:
    """Align unified rows side by side: each removed run beside the added run replacing it.

    Context rows appear on both sides, header rows once (their right row is blank); the
    shorter run of a change is padded with filler rows, so both sides always have the same
    number of rows.
    """
    left: list[Row] = []
    right: list[Row] = []
    old: list[Row] = []
    new: list[Row] = []

    def flush() -> None:
        for i in range(max(len(old), len(new))):
            left.append(old[i] if i < len(old) else Row(RowKind.FILLER, ""))
            right.append(new[i] if i < len(new) else Row(RowKind.FILLER, ""))
        old.clear()
        new.clear()

    last = RowKind.FILE
    for row in unified:
        kind = row.kind
        if kind == RowKind.REMOVED or (kind == RowKind.META and last == RowKind.REMOVED):
            if new:  # a removal after additions starts a new change run
                flush()
            old.append(row)
        elif kind == RowKind.ADDED or (kind == RowKind.META and last == RowKind.ADDED):
            new.append(row)
        else:
            flush()
            left.append(row)
            # A file or hunk header spans both sides: said once on the left, and the right
            # row keeps only the band's colour, so the two read as one header.
            right.append(Row(kind, "") if kind in _HEADERS else row)
        if kind != RowKind.META:
            last = kind
    flush()
    return left, right


def change_runs(*sides: list[Row]) -> list[tuple[int, int]]:
    """The changes of a view as ``(first, end)`` row ranges (end exclusive), in order.

    A change is a run of consecutive added or removed rows; for side by side pass both sides
    (a row changes when either side does), so a replaced block is one change, not two.
    """
    runs: list[tuple[int, int]] = []
    start = -1
    count = min(len(side) for side in sides) if sides else 0
    for index in range(count):
        changed = any(side[index].kind in _CHANGED for side in sides)
        if changed and start < 0:
            start = index
        elif not changed and start >= 0 and not _is_meta(sides, index):
            runs.append((start, index))
            start = -1
    if start >= 0:
        runs.append((start, count))
    return runs


def _is_meta(sides: tuple[list[Row], ...], index: int) -> bool:
    """A "no newline" note inside a change belongs to it."""
    return any(side[index].kind == RowKind.META for side in sides)


def has_side(rows: list[Row], kind: RowKind) -> bool:
    """Whether ``rows`` hold any line of ``kind`` or any context (else a side has nothing)."""
    return any(row.kind in (kind, RowKind.CONTEXT) for row in rows)


def _clean(text: str) -> str:
    text = text.rstrip("\n")
    if text.endswith("\r"):
        text = text[:-1]
    # translate() is slow per call; most lines contain none of the break characters.
    return text.translate(_BREAKS) if _BREAK_RE.search(text) else text


def _file_label(patched: PatchedFile, summary: FileSummary) -> str:
    label = summary.path
    if summary.is_new:
        label += "  (new file)"
    elif summary.is_deleted:
        label += "  (deleted)"
    elif patched.is_rename:
        label = f"{_clean(patched.source_file)[2:]} → {label}"
    return f"{label}   +{summary.added} −{summary.removed}"


def _add_file(model: DiffModel, patched: PatchedFile) -> None:
    summary = FileSummary(
        path=_clean(patched.path),
        added=patched.added,
        removed=patched.removed,
        is_new=patched.is_added_file,
        is_deleted=patched.is_removed_file,
        is_binary=patched.is_binary_file,
    )
    model.files.append(summary)
    model.unified.append(Row(RowKind.FILE, _file_label(patched, summary)))
    if patched.is_binary_file or not len(patched):
        note = "Binary file changed" if summary.is_binary else "No changes"
        model.unified.append(Row(RowKind.META, note))
    for hunk in patched:
        _add_hunk(model, hunk, summary.path)


def _add_hunk(model: DiffModel, hunk: Hunk, path: str) -> None:
    """Append a hunk's rows, pairing each removed line with the added line replacing it."""
    header = f"@@ -{hunk.source_start},{hunk.source_length} "
    header += f"+{hunk.target_start},{hunk.target_length} @@ {_clean(hunk.section_header)}"
    rows = model.unified
    pairs = model.pairs
    rows.append(Row(RowKind.HUNK, header.rstrip()))
    old_side, new_side = SideText(path), SideText(path)
    old_lines, new_lines = old_side.lines, new_side.lines
    removed: list[Row] = []  # removed rows of the current change run, for pairing
    added = 0
    for line in hunk:
        kind = line.line_type
        text = _clean(line.value)
        if kind == "-":
            if added:  # a removal after additions starts a new change run
                removed, added = [], 0
            row = Row(RowKind.REMOVED, text, line.source_line_no, None, old_side, len(old_lines))
            old_lines.append(text)
            removed.append(row)
        elif kind == "+":
            row = Row(RowKind.ADDED, text, None, line.target_line_no, new_side, len(new_lines))
            new_lines.append(text)
            if added < len(removed):
                row.pair = removed[added].pair = len(pairs)
                pairs.append((removed[added].text, text))
            added += 1
        elif kind == _NO_NEWLINE:
            row = Row(RowKind.META, "\\ No newline at end of file")
        else:
            removed, added = [], 0
            # Context lines are lexed with the new side; their text is the same on both.
            row = Row(RowKind.CONTEXT, text, line.source_line_no, line.target_line_no)
            row.side, row.side_index = new_side, len(new_lines)
            old_lines.append(text)
            new_lines.append(text)
        rows.append(row)


def parse_diff(text: str) -> DiffModel:
    """Parse unified diff text (one or several files) into display rows.

    Args:
        text: Unified diff text as produced by ``git diff`` or ``difflib.unified_diff``.

    Returns:
        The model; on text that is not a valid diff, ``error`` is set and the raw lines are
        shown as plain rows so nothing is hidden from the person reviewing it.
    """
    model = DiffModel()
    try:
        patch = PatchSet(text)
        if not len(patch) and text.strip():
            raise UnidiffParseError("no file headers found")
    except UnidiffParseError as exc:
        model.error = str(exc)
        note = Row(RowKind.META, f"Could not parse this diff ({exc}); showing it as text.")
        model.unified.append(note)
        model.unified.extend(Row(RowKind.CONTEXT, _clean(line)) for line in text.splitlines())
        return model
    for patched in patch:
        _add_file(model, patched)
    if not model.unified:
        model.unified.append(Row(RowKind.META, "No changes"))
    return model
