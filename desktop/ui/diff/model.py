"""Turn unified diff text into display rows for the unified and side-by-side diff panes.

Parsing uses the maintained ``unidiff`` library; this module only lays the parsed hunks out as
rows, one text line per row, so a pane can map a text block number straight to its row. The
module is Qt-free, so it is cheap to test and to reuse (e.g. for a changes list).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from unidiff.errors import UnidiffParseError
from unidiff.patch import Hunk, PatchedFile, PatchSet

# Characters a QTextDocument would treat as line or paragraph breaks inside one line; they
# would split one row into two blocks and break the block number == row index invariant.
_BREAKS = str.maketrans({"\r": "␍", "\u2028": " ", "\u2029": " ", "\x0b": " ", "\x0c": " "})
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
    """A parsed diff laid out for both views."""

    files: list[FileSummary] = field(default_factory=list)
    unified: list[Row] = field(default_factory=list)
    left: list[Row] = field(default_factory=list)
    right: list[Row] = field(default_factory=list)
    pairs: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None

    @property
    def added(self) -> int:
        """Total added lines over all files."""
        return sum(f.added for f in self.files)

    @property
    def removed(self) -> int:
        """Total removed lines over all files."""
        return sum(f.removed for f in self.files)


def _clean(text: str) -> str:
    if text.endswith("\n"):
        text = text[:-1]
    if text.endswith("\r"):
        text = text[:-1]
    return text.translate(_BREAKS)


def _file_label(patched: PatchedFile, summary: FileSummary) -> str:
    label = summary.path
    if summary.is_new:
        label += "  (new file)"
    elif summary.is_deleted:
        label += "  (deleted)"
    elif patched.is_rename:
        label = f"{_clean(patched.source_file)[2:]} → {label}"
    return f"{label}   +{summary.added} −{summary.removed}"


class _Builder:
    """Lays out rows for both views in one pass over the parsed patch."""

    def __init__(self, model: DiffModel) -> None:
        self.m = model
        self._old: list[Row] = []
        self._new: list[Row] = []

    def both(self, left: Row, right: Row | None = None) -> None:
        self._flush()
        self.m.left.append(left)
        self.m.right.append(right if right is not None else left)

    def _flush(self) -> None:
        """Align a run of removed lines with the added lines that replaced them."""
        old, new = self._old, self._new
        for i in range(max(len(old), len(new))):
            self.m.left.append(old[i] if i < len(old) else Row(RowKind.FILLER, ""))
            self.m.right.append(new[i] if i < len(new) else Row(RowKind.FILLER, ""))
        self._old, self._new = [], []

    def file(self, patched: PatchedFile) -> None:
        is_new, is_deleted = patched.is_added_file, patched.is_removed_file
        summary = FileSummary(
            path=_clean(patched.path),
            added=patched.added,
            removed=patched.removed,
            is_new=is_new,
            is_deleted=is_deleted,
            is_binary=patched.is_binary_file,
        )
        self.m.files.append(summary)
        header = Row(RowKind.FILE, _file_label(patched, summary))
        self.m.unified.append(header)
        self.both(header)
        if patched.is_binary_file or not len(patched):
            note = Row(RowKind.META, "Binary file changed" if summary.is_binary else "No changes")
            self.m.unified.append(note)
            self.both(note)
        for hunk in patched:
            self.hunk(hunk, summary.path)
        self._flush()

    def hunk(self, hunk: Hunk, path: str) -> None:
        header = f"@@ -{hunk.source_start},{hunk.source_length} "
        header += f"+{hunk.target_start},{hunk.target_length} @@ {_clean(hunk.section_header)}"
        row = Row(RowKind.HUNK, header.rstrip())
        self.m.unified.append(row)
        self.both(row)
        old_side, new_side = SideText(path), SideText(path)
        removed: list[Row] = []  # removed rows of the current change run, for pairing
        added = 0
        last_kind = RowKind.CONTEXT
        for line in hunk:
            text = _clean(line.value)
            if line.is_removed:
                if added:  # a new run starts: a removal after additions
                    self._flush()
                    removed, added = [], 0
                r = Row(RowKind.REMOVED, text, line.source_line_no, None, old_side)
                r.side_index = len(old_side.lines)
                old_side.lines.append(text)
                removed.append(r)
                self._old.append(r)
                self.m.unified.append(r)
                last_kind = RowKind.REMOVED
            elif line.is_added:
                a = Row(RowKind.ADDED, text, None, line.target_line_no, new_side)
                a.side_index = len(new_side.lines)
                new_side.lines.append(text)
                if added < len(removed):
                    a.pair = removed[added].pair = len(self.m.pairs)
                    self.m.pairs.append((removed[added].text, text))
                added += 1
                self._new.append(a)
                self.m.unified.append(a)
                last_kind = RowKind.ADDED
            elif line.line_type == _NO_NEWLINE:
                note = Row(RowKind.META, "\\ No newline at end of file")
                self.m.unified.append(note)
                if last_kind == RowKind.REMOVED:
                    self._old.append(note)
                elif last_kind == RowKind.ADDED:
                    self._new.append(note)
                else:
                    self.both(note)
            else:
                removed, added = [], 0
                old = Row(RowKind.CONTEXT, text, line.source_line_no, line.target_line_no)
                old.side, old.side_index = old_side, len(old_side.lines)
                new = Row(RowKind.CONTEXT, text, line.source_line_no, line.target_line_no)
                new.side, new.side_index = new_side, len(new_side.lines)
                old_side.lines.append(text)
                new_side.lines.append(text)
                self.m.unified.append(new)
                self.both(old, new)
                last_kind = RowKind.CONTEXT


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
        model.left.append(note)
        model.right.append(note)
        for line in text.splitlines():
            row = Row(RowKind.CONTEXT, _clean(line))
            model.unified.append(row)
            model.left.append(row)
            model.right.append(row)
        return model
    builder = _Builder(model)
    for patched in patch:
        builder.file(patched)
    if not model.unified:
        empty = Row(RowKind.META, "No changes")
        model.unified.append(empty)
        builder.both(empty)
    return model
