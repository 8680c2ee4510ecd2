"""Virtualization of the transcript column: widgets only near the viewport.

The column holds, in order, the built rows and, for each run of rows not built, one spacer as
tall as those rows (``rows.EntryRow.height``: measured, else estimated). A pass (``realize``) builds
the rows within one screen above and below the viewport, from the one nearest the viewport out,
while the turn of the event loop has budget left (``turn_budget``; the rest in the next pass);
rows outside that margin are destroyed unless the host keeps them (the streaming answer, a
pending approval card, the row with the keyboard). Opening a conversation at the bottom builds
its last screen first. A row costs twice: built (its widgets made) and placed (shown, polished,
laid out); when the turn cannot pay both, it is placed at the next pass, before more are built.

What the user looks at does not move while rows above it are built and measured: the first row
in view and its distance to the viewport's top are the anchor, set again after every change of
the column (laid out at once after a pass, and ``on_range`` when rows grow by themselves), unless
the view follows the bottom (``anchor.ViewAnchor``). A long conversation's beginning may come
after its end (``prepend``): the spacer above grows, and the view still shows what it showed.

A pass costs what is near the viewport: the rows' heights (with the spacing after each) are kept
in a list for the column's width, only the rows that changed are asked again, and their tops are
one running sum over that list (C speed, well under a millisecond at 16,000 rows).
"""

from __future__ import annotations

import bisect
import time
from itertools import accumulate
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QScrollArea, QVBoxLayout, QWidget

from desktop.core.entries import Item
from desktop.ui import turn_budget
from desktop.ui.conversation.anchor import ViewAnchor, placed
from desktop.ui.conversation.column import ColumnLayout, Veil
from desktop.ui.conversation.rows import MARGIN_Y, SPACING, EntryRow, Extra
from desktop.ui.turn_budget import TurnShare

#: Height used for the margin before the viewport has its size (a hidden pane).
_MIN_SCREEN = 600
#: What Qt's paint of the rows a pass moved in view costs (2.5-4 ms measured), in the same turn.
_PAINT_S = 0.003


class RowHost(Protocol):
    """What the column needs of its view."""

    def build_row(self, row: EntryRow) -> QWidget:
        """A new container showing ``row`` (its entry's widget and extras)."""
        ...

    def placed(self, row: EntryRow) -> None:
        """``row`` was built and placed in the column."""
        ...

    def dropped(self, row: EntryRow) -> None:
        """``row``'s widgets are about to be destroyed."""
        ...

    def keeps(self, row: EntryRow) -> bool:
        """Whether ``row`` must stay built wherever it is."""
        ...

    def following(self) -> bool:
        """Whether the view sticks to the bottom."""
        ...


class VirtualColumn(QObject):
    """The rows of one view and which of them are built (see the module docstring)."""

    def __init__(self, view: QScrollArea, layout: QVBoxLayout, host: RowHost) -> None:
        super().__init__(view)
        self._view = view
        self._layout = layout
        self._host = host
        self.rows: list[EntryRow] = []
        self._keys: list[int] = []  # of ``rows``, for bisect
        self.by_key: dict[int, EntryRow] = {}
        self._heights: list[int] = []  # of ``rows`` at ``_width``, each with the spacing after it
        self._width = 0
        self._changed: set[int] = set()  # keys of the rows whose height may have changed
        self._built: dict[int, EntryRow] = {}  # the rows with a widget, by key
        self._stale = False  # rows came before the first, or heights changed: lay out again
        self._column = ColumnLayout(layout)
        #: Holds the extras of rows not built (hidden).
        self._parking = QWidget(view)
        self._parking.hide()
        self._anchor = ViewAnchor(view, host.following)
        #: A row shown on request (a search hit): kept until another one is asked for.
        self.held: EntryRow | None = None
        self._pass = QTimer(self)
        self._pass.setSingleShot(True)
        self._pass.setInterval(0)
        self._pass.timeout.connect(self._on_pass)
        self._share = TurnShare()
        self._row_cost = 0.0  # what building the last row took (seconds)
        self._place_cost = 0.0  # what placing the last rows built took, a row (seconds)
        self._unplaced: list[EntryRow] = []  # built at the last pass, placed at the next
        self.built = 0  # rows built so far, ever (tests and benchmarks look at it)
        #: Keeps the view from painting while a stored conversation's last screen is built.
        self.veil = Veil(view)

    # ------------------------------------------------------------------ rows
    def width(self) -> int:
        """The column's inner width (what an item gets)."""
        margins = self._layout.contentsMargins()
        return max(200, self._view.viewport().width() - margins.left() - margins.right())

    def append(self, row: EntryRow, *, build: bool) -> None:
        """A new row at the end; built at once when ``build`` (a live entry)."""
        self.rows.append(row)
        self._keys.append(row.key)
        self.by_key[row.key] = row
        self._heights.append(0)
        self._changed.add(row.key)
        if build:
            self._build(row)
            self._relayout(self._tops())
            self._host.placed(row)
        else:
            self.schedule()

    def prepend(self, rows: list[EntryRow]) -> None:
        """Rows before the first one (keys below its key): laid out at the next pass."""
        if not rows:
            return
        self.rows[0:0] = rows
        self._keys[0:0] = [row.key for row in rows]
        self._heights[0:0] = [0] * len(rows)
        self._changed.update(row.key for row in rows)
        self.by_key.update((row.key, row) for row in rows)
        self._stale = True
        self.schedule()

    def row_at_or_before(self, key: int) -> EntryRow | None:
        """The row of entry ``key``, or of the last shown entry before it."""
        row = self.by_key.get(key)
        if row is not None:
            return row
        at = bisect.bisect_right(self._keys, key) - 1
        return self.rows[at] if at >= 0 else None

    def add_extra(self, key: int, extra: Extra) -> None:
        """Show ``extra`` below the row of ``key`` (a widget is parked while that row is not
        built; a function makes a widget each time it is)."""
        row = self.row_at_or_before(key) or (self.rows[0] if self.rows else None)
        if row is None:
            if isinstance(extra, QWidget):
                extra.setParent(self._parking)
            return
        row.extras.append(extra)
        row.forget()
        self._changed.add(row.key)
        if row.widget is not None:
            layout = row.widget.layout()
            assert layout is not None
            widget = extra if isinstance(extra, QWidget) else extra()
            layout.addWidget(widget)
            widget.show()
        elif isinstance(extra, QWidget):
            extra.setParent(self._parking)

    def change(self, row: EntryRow, item: Item) -> None:
        """``row``'s entry changed (measured and estimated again; a built row is measured when
        its widget has been rendered and resized)."""
        row.set_item(item)
        self._changed.add(row.key)
        if row.widget is None:
            self.schedule()

    def _tops(self) -> list[int]:
        """The y of each row's top in the column, and the column's height last."""
        width = self.width()
        heights = self._heights
        if width != self._width:
            self._width = width
            self._heights = [row.height(width) + SPACING for row in self.rows]
            self._stale = self._stale or self._heights != heights
        else:
            for key in self._changed:
                index = bisect.bisect_left(self._keys, key)
                row = self.rows[index]
                height = row.height(width) + SPACING
                # Spacers stand for rows not built: a built row that grew (a streaming answer,
                # every frame) moves no spacer, and Qt has laid it out already.
                self._stale = self._stale or (heights[index] != height and row.widget is None)
                heights[index] = height
        self._changed.clear()
        starts = list(accumulate(self._heights, initial=MARGIN_Y))
        starts[-1] += MARGIN_Y - SPACING if self.rows else MARGIN_Y
        return starts

    def covered(self) -> bool:
        """Whether everything in the viewport is built (no estimated gap in view); never while
        the view is hidden (its column is not laid out: the veil would lift before the rows
        near the bottom are built, and each pass after it would paint)."""
        if not self._view.isVisible():
            return False
        top = self._view.verticalScrollBar().value()
        return self._column.covered(top, top + self._view.viewport().height())

    def due(self) -> bool:
        """Whether a pass is due (its timer runs, or it waits for the turn to end)."""
        return turn_budget.due(self._pass)

    def schedule(self) -> None:
        """Run a pass at the next turn of the loop."""
        if not self._pass.isActive():
            self._pass.start()

    # ------------------------------------------------------------------ passes
    def _on_pass(self) -> None:
        self._share.run(self.realize, self._row_cost, self._pass)

    def realize(self) -> None:
        """Build what is near the viewport (while the turn has budget), drop what is far."""
        if not self.rows:
            return
        self._measure()
        starts = self._tops()
        screen = max(self._view.viewport().height(), _MIN_SCREEN)
        total = starts[-1]
        if self._host.following():
            top = max(0, total - screen)
        else:
            top = self._view.verticalScrollBar().value()
        low, high = top - screen, top + 2 * screen
        first = max(0, bisect.bisect_right(starts, low) - 1)
        last = min(len(self.rows), bisect.bisect_left(starts, high))
        wanted = range(first, last)
        # Nearest the viewport first: from the bottom when following, else from the top row.
        centre = bisect.bisect_right(starts, top) - 1
        order = sorted(wanted, key=lambda i: (i < centre, abs(i - centre)))
        if self._host.following():
            order = list(reversed(wanted))
        if self.veil.on:
            order = self._veiled(order, range(centre, bisect.bisect_left(starts, top + screen)))
        # Rows placed in view are painted in the same turn (an unveiled view paints what moved).
        paint = _PAINT_S if self._view.isVisible() and not self.veil.on else 0.0
        pending, self._unplaced = self._unplaced, []
        new, more = self._build_some(order, pending, paint)
        changed = False
        for row in list(self._built.values()):
            index = bisect.bisect_left(self._keys, row.key)
            if not first <= index < last and not self._keeps(row):
                self._drop(row)
                changed = True
        new = [row for row in new if row.widget is not None]
        affordable = not self.veil.on and self._share.may_go_on(len(new) * self._place_cost + paint)
        if new and not (pending or changed or affordable):
            # Placing them (shown, polished, laid out) is the other half of a row's cost: at the
            # next pass, so no turn of the loop pays both (nothing moved: nothing was dropped);
            # always while veiled: the pass that may lift it pays the first paint (5-6 ms).
            self._unplaced, new, more = new, [], True
        if new or changed or self._stale:
            self._place(new, starts)
        if self.veil.on and self._view.isVisible():  # another pass until it lifts (a hidden
            more = True  # view is shown by a resize, a pass); after it, the margin's pass
            if self.covered():
                self.veil.lift()
        if more:
            self.schedule()

    def _veiled(self, order: list[int], screen: range) -> list[int]:
        """What a pass builds while the view is veiled: the screen's rows only, and none in a
        pass that places rows (the pass that lifts the veil pays the first paint, 5-6 ms)."""
        return [] if self._unplaced else [index for index in order if index in screen]

    def _place(self, new: list[EntryRow], starts: list[int]) -> None:
        """Lay the column out with the ``new`` rows and keep the anchor (the cost of a row's
        placing is measured for the next passes)."""
        began = time.perf_counter()
        with self._anchor.moving():
            self._relayout(starts)
            self._settle()
            self._anchor.restore()
        if new:
            self._place_cost = (time.perf_counter() - began) / len(new)
        for row in new:
            self._host.placed(row)

    def _build_some(
        self, order: list[int], pending: list[EntryRow], paint: float
    ) -> tuple[list[EntryRow], bool]:
        """Build the rows of ``order`` not built while the turn has budget; the rows to place
        (``pending``, built at the last pass, first: placed at this one, and what that costs is
        counted before another is built), and whether rows are left for the next pass."""
        new = list(pending)
        for index in order:
            row = self.rows[index]
            if row.widget is None:
                placing = (len(new) + 1) * self._place_cost + paint if pending else 0.0
                if new and not self._share.may_go_on(self._row_cost + placing):
                    return new, True
                began = time.perf_counter()
                self._build(row)
                self._row_cost = time.perf_counter() - began
                new.append(row)
        return new, False

    def _settle(self) -> None:
        """Lay the column out now (what moved is known before the anchor is set again)."""
        if self._view.isVisible():
            for _ in range(2):  # the column, then the scroll area that resizes it
                QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

    def _keeps(self, row: EntryRow) -> bool:
        if row is self.held or self._host.keeps(row):
            return True
        focus = QApplication.focusWidget()
        return focus is not None and row.widget is not None and row.widget.isAncestorOf(focus)

    def _measure(self) -> None:
        width = self.width()
        for row in self._built.values():
            widget = row.widget
            if widget is not None and placed(widget) and row.measured != (width, widget.height()):
                row.measured = (width, widget.height())
                self._changed.add(row.key)

    def _build(self, row: EntryRow) -> None:
        container = self._host.build_row(row)
        row.widget = container
        self._built[row.key] = row
        self.built += 1

    def _drop(self, row: EntryRow) -> None:
        widget = row.widget
        assert widget is not None
        self._host.dropped(row)
        for extra in row.extras:
            if isinstance(extra, QWidget):  # kept; a made one goes with the row
                extra.hide()
                extra.setParent(self._parking)
        row.widget = None
        del self._built[row.key]
        self._layout.removeWidget(widget)
        widget.hide()  # not ``setParent(None)``: 10-30 times dearer, and it is deleted anyway
        widget.deleteLater()
        self._anchor.forget(row)

    def _relayout(self, starts: list[int]) -> None:
        """Put the built rows in order, a spacer for each run of rows between them (as tall as
        ``starts``, the rows' tops, says)."""
        self._stale = False
        parts: list[QWidget | int] = []
        after = 0  # the index of the first row not yet placed
        for key in sorted(self._built):
            widget = self._built[key].widget
            assert widget is not None
            index = bisect.bisect_left(self._keys, key)
            if index > after:
                parts.append(starts[index] - starts[after])
            parts.append(widget)
            after = index + 1
        if after < len(self.rows):
            parts.append(starts[-1] - starts[after] - MARGIN_Y + SPACING)
        self._column.arrange(parts)

    # ------------------------------------------------------------------ position
    def reach(self, row: EntryRow) -> None:
        """Build ``row`` now and put it near the top of the viewport (kept built until the next
        row asked for)."""
        self.held = row
        starts = self._tops()
        index = bisect.bisect_left(self._keys, row.key)
        bar = self._view.verticalScrollBar()
        if row.widget is None:
            self._build(row)
            self._relayout(starts)
            self._settle()
            self._host.placed(row)
        laid_out = row.widget is not None and placed(row.widget)
        target = row.widget.y() if row.widget is not None and laid_out else starts[index]
        bar.setValue(max(0, target - 48))
        self._anchor.set(row)
        self.realize()

    def on_scrolled(self) -> None:
        """The view scrolled: remember what is in view, build what came near."""
        self._anchor.remember(self._built)
        self.schedule()

    def on_range(self) -> None:
        """The column's height changed: keep the anchor where it was in the viewport."""
        self._anchor.restore()
        self.schedule()
