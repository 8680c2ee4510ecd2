"""The rows of a virtualized transcript: one per shown entry, built or only estimated.

A long conversation keeps an ``EntryRow`` for every entry that shows something (cheap data: the
entry, its height), and a widget only for the rows near the viewport
(``desktop.ui.conversation.virtual``). The height of a row that was never built is estimated
from its text and the column's width; once built and laid out it is measured, and the measured
height is kept per width, so a row dropped and later rebuilt takes the same place and what the
user looks at does not move.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import accumulate

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


def _wrapped(text: str, per_line: int) -> int:
    return sum(max(1, math.ceil(len(line) / per_line)) for line in text.splitlines() or [""])


def _markdown_px(text: str, per_line: int) -> int:
    height, fenced = 0, False
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("```"):
            fenced = not fenced
            height += 14
        elif fenced:
            height += _CODE_LINE_PX
        elif not stripped:
            height += 8
        elif stripped.startswith("#"):
            height += _LINE_PX + 14
        else:
            height += _LINE_PX * max(1, math.ceil(len(line) / per_line))
    return height + 28  # the answer's Copy row


def estimate(item: Item, width: int) -> int:
    """A guess at the height of ``item``'s widget in a column ``width`` pixels wide."""
    per_line = max(20, int(width / _CHAR_PX))
    match item:
        case UserItem():
            bubble = max(20, int(per_line * 0.7))
            return 22 + _LINE_PX * _wrapped(item.text, bubble) + (20 if item.files else 0)
        case StreamItem() if item.thinking:
            return 34
        case StreamItem():
            return _markdown_px(item.text, per_line)
        case ToolItem():
            return 46
        case ExitItem():
            return 110
        case _:
            return _LINE_PX * _wrapped(getattr(item, "text", "") or "", per_line)


@dataclass(eq=False)
class EntryRow:
    """One shown entry: the entry as it stands, its widget when built, its measured height."""

    key: int
    item: Item
    #: The built row (a container of the item's widget and its extras), or None.
    widget: QWidget | None = None
    #: Widgets shown below the entry (a turn's changes), kept while the row is not built.
    extras: list[QWidget] = field(default_factory=list)
    #: (column width, height) of the last measurement.
    measured: tuple[int, int] | None = None

    def height(self, width: int) -> int:
        """The measured height at ``width``, else an estimate."""
        if self.measured is not None and self.measured[0] == width:
            return self.measured[1]
        extras = sum(SPACING + EXTRA_PX for _ in self.extras)
        return estimate(self.item, width) + extras


def tops(rows: list[EntryRow], width: int) -> list[int]:
    """The y of each row's top in the column, and the column's height last."""
    heights = (row.height(width) + SPACING for row in rows)
    starts = list(accumulate(heights, initial=MARGIN_Y))
    if rows:
        starts[-1] += MARGIN_Y - SPACING
    else:
        starts[-1] += MARGIN_Y
    return starts
