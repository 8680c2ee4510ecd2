"""Palette-aware diff colours and the per-row character formats the panes apply lazily.

The theme follows the widget palette (dark when the base colour is dark) and picks a matching
Pygments style; all QTextCharFormats are built once per theme, so formatting a visible row is
only a few dictionary lookups and list appends.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pygments.styles import get_style_by_name
from pygments.token import _TokenType
from pygments.util import ClassNotFound
from PySide6.QtGui import QColor, QFont, QPalette, QTextCharFormat, QTextLayout

from desktop.ui.diff.intraline import Span, changed_spans
from desktop.ui.diff.model import DiffModel, Row, RowKind
from desktop.ui.diff.syntax import SyntaxCache

LIGHT_STYLE = "default"
DARK_STYLE = "github-dark"


def _char_format(color: QColor | None = None, background: QColor | None = None) -> QTextCharFormat:
    fmt = QTextCharFormat()
    if color is not None:
        fmt.setForeground(color)
    if background is not None:
        fmt.setBackground(background)
    return fmt


def _token_formats(style_name: str) -> dict[_TokenType, QTextCharFormat]:
    try:
        style = get_style_by_name(style_name)
    except ClassNotFound:
        style = get_style_by_name("default")
    formats: dict[_TokenType, QTextCharFormat] = {}
    for ttype, spec in style:
        # Colour only: weight or slant changes could shift columns between the two panes.
        if spec["color"]:
            formats[ttype] = _char_format(QColor(f"#{spec['color']}"))
    return formats


@dataclass
class DiffTheme:
    """Colours of one palette (light or dark)."""

    dark: bool
    text: QColor
    muted: QColor
    added_bg: QColor
    removed_bg: QColor
    added_word_bg: QColor
    removed_word_bg: QColor
    added_mark: QColor
    removed_mark: QColor
    hunk_bg: QColor
    file_bg: QColor
    filler_bg: QColor
    gutter_bg: QColor
    accent: QColor = field(default_factory=QColor)
    filler_hatch: QColor = field(default_factory=QColor)
    tokens: dict[_TokenType, QTextCharFormat] = field(default_factory=dict)
    generation: int = 0

    @classmethod
    def for_palette(cls, palette: QPalette, generation: int = 0) -> DiffTheme:
        """The theme matching ``palette`` (dark when its base colour is dark)."""
        base = palette.color(QPalette.ColorRole.Base)
        dark = base.lightness() < 128
        text = palette.color(QPalette.ColorRole.Text)
        muted = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        gutter = base.darker(108) if not dark else base.lighter(130)
        accent = palette.color(QPalette.ColorRole.Highlight)
        if dark:
            return cls(
                dark, text, muted, QColor(28, 56, 38), QColor(66, 30, 34), QColor(40, 98, 58),
                QColor(120, 44, 52), QColor(110, 200, 120), QColor(240, 120, 120),
                QColor(40, 55, 80), QColor(55, 55, 65), base, gutter, accent,
                base.lighter(135), _token_formats(DARK_STYLE), generation,
            )  # fmt: skip
        return cls(
            dark, text, muted, QColor(230, 255, 236), QColor(255, 235, 233),
            QColor(172, 242, 189), QColor(253, 184, 192), QColor(26, 127, 55),
            QColor(207, 34, 46), QColor(221, 244, 255), QColor(234, 238, 242),
            base, gutter, accent, base.darker(112), _token_formats(LIGHT_STYLE), generation,
        )  # fmt: skip

    def row_background(self, kind: RowKind) -> QColor | None:
        """The full-width background of a row, or None for the plain base colour."""
        return {
            RowKind.ADDED: self.added_bg,
            RowKind.REMOVED: self.removed_bg,
            RowKind.HUNK: self.hunk_bg,
            RowKind.FILE: self.file_bg,
            RowKind.FILLER: self.filler_bg,
        }.get(kind)

    def token_format(self, ttype: _TokenType) -> QTextCharFormat | None:
        """The colour format of a Pygments token type, inherited from its parents."""
        current: _TokenType | None = ttype
        while current is not None:
            fmt = self.tokens.get(current)
            if fmt is not None:
                return fmt
            current = current.parent
        return None


class RowDecorator:
    """Computes the character formats of one row: syntax colours plus changed words.

    Shared by the panes of one DiffView so both views reuse the same lexed chunks and the
    same intra-line comparisons.
    """

    def __init__(self, model: DiffModel, theme: DiffTheme) -> None:
        self.model = model
        self.theme = theme
        self.syntax = SyntaxCache()
        self._spans: dict[int, tuple[list[Span], list[Span]]] = {}
        self._header_format = _char_format(theme.text)
        self._header_format.setFontWeight(QFont.Weight.Bold)
        self._meta_format = _char_format(theme.muted)
        self._word_formats = (
            _char_format(background=theme.removed_word_bg),
            _char_format(background=theme.added_word_bg),
        )

    def changed_spans(self, row: Row) -> list[Span]:
        """The intra-line changed ranges of a paired added or removed row."""
        if row.pair < 0:
            return []
        spans = self._spans.get(row.pair)
        if spans is None:
            spans = changed_spans(*self.model.pairs[row.pair])
            self._spans[row.pair] = spans
        return spans[1] if row.kind == RowKind.ADDED else spans[0]

    def formats(self, row: Row) -> list[QTextLayout.FormatRange]:
        """The format ranges to lay over the row's text."""
        ranges: list[QTextLayout.FormatRange] = []
        length = len(row.text)
        if row.kind in (RowKind.FILE, RowKind.HUNK, RowKind.META):
            whole = self._header_format if row.kind == RowKind.FILE else self._meta_format
            return [_range(0, length, whole)] if length else []
        if row.side is not None:
            for start, size, ttype in self.syntax.tokens(row.side, row.side_index):
                fmt = self.theme.token_format(ttype)
                if fmt is not None:
                    ranges.append(_range(start, size, fmt))
        if row.pair >= 0:
            word = self._word_formats[1 if row.kind == RowKind.ADDED else 0]
            ranges.extend(_range(s, e - s, word) for s, e in self.changed_spans(row))
        return ranges


def _range(start: int, length: int, fmt: QTextCharFormat) -> QTextLayout.FormatRange:
    item = QTextLayout.FormatRange()
    item.start = start
    item.length = length
    item.format = fmt
    return item
