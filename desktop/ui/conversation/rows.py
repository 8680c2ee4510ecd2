"""The rows of a virtualized transcript: one per shown entry, built or only estimated.

A long conversation keeps an ``EntryRow`` for every entry that shows something (cheap data: the
entry, its height), and a widget only for the rows near the viewport
(``desktop.ui.conversation.virtual``). The height of a row that was never built is estimated
from its text and the column's width; once built and laid out it is measured, and the measured
height is kept per width, so a row dropped and later rebuilt takes the same place and what the
user looks at does not move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtWidgets import QWidget

from desktop.core.entries import (
    ExitItem,
    Item,
    MessageItem,
    PlanItem,
    StreamItem,
    ToolItem,
    TurnEndItem,
    UserItem,
)
from desktop.core.events import TurnEndReason

#: Vertical gap between two rows (the column's spacing) and the column's top and bottom margin.
SPACING = 14
MARGIN_Y = 20
#: Rough metrics of the body text, for estimates only (measured heights replace them).
_CHAR_PX = 7.4
_LINE_PX = 21
_CODE_LINE_PX = 18
#: Height of an extra widget (a turn's changes) not built yet.
EXTRA_PX = 64


def shows(item: Item) -> bool:
    """Whether ``item`` gets a widget (mirrors the ``None`` cases of ``ConversationView._make``)."""
    if isinstance(item, PlanItem):
        return False
    if isinstance(item, MessageItem):
        return not item.echo
    if isinstance(item, TurnEndItem):
        if item.reason == TurnEndReason.STOPPED:
            return True
        return item.reason != TurnEndReason.COMPLETED and bool(item.message)
    return True


@dataclass(frozen=True, slots=True)
class Shape:
    """What an estimate needs of an entry, whatever the width: pixels that do not wrap, and
    the characters and lines of the text that wraps (at ``share`` of the column's width)."""

    fixed: int
    chars: int = 0
    lines: int = 0
    share: float = 1.0

    def height(self, width: int) -> int:
        """The estimated height at column ``width``."""
        if not self.lines:
            return self.fixed
        per_line = max(20.0, width * self.share / _CHAR_PX)
        # Each line takes at least one line; a long one wraps (on average half a line short).
        wrapped = max(self.lines, self.chars / per_line + self.lines / 2)
        return self.fixed + int(_LINE_PX * wrapped)


def _markdown_shape(text: str) -> Shape:
    """Counted by ``str`` methods only (fast, whatever the text's length): fenced lines are
    code (no wrap), blank lines are paragraph gaps, the rest wraps."""
    lines = text.count("\n") + 1
    fences = text.count("```")
    code = 0
    if fences >= 2:
        parts = text.split("```")
        code = sum(part.count("\n") for part in parts[1::2])
    blank = text.count("\n\n")
    headings = text.count("\n#") + text.startswith("#")
    prose = max(0, lines - code - blank)
    fixed = 14 * fences + _CODE_LINE_PX * code + 8 * blank + 14 * headings + 28  # + Copy row
    return Shape(fixed, max(0, len(text) - 40 * code), prose)


def shape(item: Item) -> Shape:
    """What a guess at the height of ``item``'s widget starts from (``Shape.height``)."""
    match item:
        case UserItem():
            lines = item.text.count("\n") + 1
            return Shape(22 + (20 if item.files else 0), len(item.text), lines, 0.7)
        case StreamItem() if item.thinking:
            return Shape(34)
        case StreamItem():
            return _markdown_shape(item.text)
        case ToolItem():
            return Shape(46)
        case ExitItem():
            return Shape(110)
        case _:
            text = getattr(item, "text", "") or ""
            return Shape(0, len(text), text.count("\n") + 1)


Extra = QWidget | Callable[[], QWidget]
"""What is shown below an entry: a widget kept while the row is not built, or a function that
makes one each time the row is built (destroyed with it: a line per turn costs nothing far away)."""


@dataclass(eq=False, slots=True)
class EntryRow:
    """One shown entry: the entry as it stands, its widget when built, its measured height."""

    key: int
    item: Item
    #: The built row (a container of the item's widget and its extras), or None.
    widget: QWidget | None = None
    #: What is shown below the entry (a turn's changes, its usage).
    extras: list[Extra] = field(default_factory=list)
    #: (column width, height) of the last measurement.
    measured: tuple[int, int] | None = None
    #: The estimate's basis (made on first use, dropped when the entry changes).
    _shape: Shape | None = None
    #: (column width, height) of the last estimate.
    _estimated: tuple[int, int] = (0, 0)

    def set_item(self, item: Item) -> None:
        """The entry changed: measured and estimated again."""
        self.item = item
        self._shape = None
        self.forget()

    def forget(self) -> None:
        """Its height changed (an extra came): measured and estimated again."""
        self.measured = None
        self._estimated = (0, 0)

    def height(self, width: int) -> int:
        """The measured height at ``width``, else an estimate."""
        measured = self.measured
        if measured is not None and measured[0] == width:
            return measured[1]
        if self._estimated[0] == width:
            return self._estimated[1]
        if self._shape is None:
            self._shape = shape(self.item)
        height = self._shape.height(width) + (SPACING + EXTRA_PX) * len(self.extras)
        self._estimated = (width, height)
        return height
