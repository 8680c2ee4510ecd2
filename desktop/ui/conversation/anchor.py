"""``ViewAnchor``: what the user looks at does not move while rows above it change.

The first built row in view and its distance to the viewport's top are the anchor; after the
column changes (rows built above it, measured, grown), the view scrolls so that row is where it
was. Scrolling the column does itself (``moving``) sets no anchor; a view that follows the bottom
has none. ``virtual.VirtualColumn`` keeps one for its view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QWidget

from desktop.ui.conversation.rows import EntryRow


def placed(widget: QWidget) -> bool:
    """Whether the column's layout has placed ``widget`` (a new one is 640×480 at 0, 0)."""
    return widget.isVisible() and widget.testAttribute(Qt.WidgetAttribute.WA_Moved)


class ViewAnchor:
    """The row in view and its offset (see the module docstring)."""

    def __init__(self, view: QScrollArea, following: Callable[[], bool]) -> None:
        self._view = view
        self._following = following
        self._anchor: tuple[EntryRow, int] | None = None
        self._moving = False

    @contextmanager
    def moving(self) -> Iterator[None]:
        """The column scrolls the view meanwhile, not the user: nothing is remembered."""
        self._moving = True
        try:
            yield
        finally:
            self._moving = False

    def set(self, row: EntryRow) -> None:
        """``row`` is what the user looks at, where it is now."""
        bar = self._view.verticalScrollBar()
        self._anchor = (row, row.widget.y() - bar.value()) if row.widget is not None else None

    def forget(self, row: EntryRow) -> None:
        """``row``'s widget goes: it anchors nothing."""
        if self._anchor is not None and self._anchor[0] is row:
            self._anchor = None

    def remember(self, built: Mapping[int, EntryRow]) -> None:
        """The user scrolled: the first of the ``built`` rows in view is the anchor."""
        if self._moving:
            return
        if self._following():
            self._anchor = None
            return
        value = self._view.verticalScrollBar().value()
        for key in sorted(built):
            widget = built[key].widget
            if widget is not None and placed(widget) and widget.y() + widget.height() > value:
                self._anchor = (built[key], widget.y() - value)
                return

    def restore(self) -> None:
        """Scroll so the anchor's row is where it was in the viewport."""
        if self._anchor is None or self._following():
            return
        row, offset = self._anchor
        if row.widget is None:
            return
        bar = self._view.verticalScrollBar()
        target = row.widget.y() - offset
        if bar.value() != target and bar.minimum() <= target <= bar.maximum():
            bar.setValue(target)
