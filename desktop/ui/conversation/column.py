"""The transcript column: its widget, its layout of the built rows with a spacer for each run
of rows not built, and the veil that keeps it from painting while a stored conversation opens.

``virtual.VirtualColumn`` decides which rows have widgets; ``ColumnLayout`` makes the column's
``QVBoxLayout`` hold exactly those, in order, with spacers as tall as the rows they stand for,
moving as few widgets as can be (each widget taken out or put in lays out what follows it).
"""

from __future__ import annotations

import asyncio
import itertools

from PySide6.QtCore import QObject, QSize, QTimer, Signal
from PySide6.QtWidgets import QScrollArea, QVBoxLayout, QWidget

from desktop.ui.conversation.rows import SPACING

#: Longest a veiled view waits for its viewport to be built (``Veil``).
VEIL_MAX_MS = 1000


class TranscriptColumn(QWidget):
    """The transcript column: its minimum width never exceeds what the viewport gives it.

    ``QScrollArea`` widens a resizable widget to its minimum size hint; one wide child (a long
    unbreakable path, a wide table) would otherwise make the whole conversation scroll sideways.
    """

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(0, hint.height())


class ColumnLayout:
    """The column's widgets in order (see the module docstring)."""

    def __init__(self, layout: QVBoxLayout) -> None:
        self.layout = layout
        self._spacers: list[QWidget] = []

    def arrange(self, parts: list[QWidget | int]) -> None:
        """Hold ``parts`` then the stretch: a widget as it is, a number as a spacer standing for
        rows that many pixels high (spacing included)."""
        spacers = iter(self._spacers)
        made: list[QWidget] = []
        desired = [
            part if isinstance(part, QWidget) else self._spacer(next(spacers, None), part, made)
            for part in parts
        ]
        for spacer in spacers:  # not used this time
            spacer.hide()
        self._spacers.extend(made)
        self._place(desired)

    def covered(self, top: int, bottom: int) -> bool:
        """Whether no spacer shows between ``top`` and ``bottom`` (column coordinates)."""
        return not any(
            spacer.isVisible() and spacer.height() > 0 and spacer.y() < bottom
            and spacer.y() + spacer.height() > top
            for spacer in self._spacers
        )  # fmt: skip

    def _place(self, desired: list[QWidget]) -> None:
        """Make the column hold ``desired`` then the stretch, moving as few widgets as can be."""
        layout = self.layout
        wanted = set(desired)
        held = [item.widget() for i in range(layout.count()) if (item := layout.itemAt(i))]
        for widget in held:
            if widget is not None and widget not in wanted:
                # Not ``takeAt``: the item taken would be deleted later, by Python, and its
                # destructor would unhook the widget's new item (its size hint never updated).
                layout.removeWidget(widget)
        kept = [w for w in held if w is not None and w in wanted]
        order = {widget: n for n, widget in enumerate(desired)}
        if any(order[a] > order[b] for a, b in itertools.pairwise(kept)):
            for widget in kept:  # out of order (a spacer now elsewhere): all again
                layout.removeWidget(widget)
        for index, widget in enumerate(desired):
            item = layout.itemAt(index)
            if item is None or item.widget() is not widget:
                layout.insertWidget(index, widget)
            widget.show()
        if layout.count() == len(desired):
            layout.addStretch(1)

    @staticmethod
    def _spacer(spacer: QWidget | None, gap: int, spacers: list[QWidget]) -> QWidget:
        """``spacer`` (or a new one, added to ``spacers``) as tall as a run of rows ``gap`` high
        with the spacing after it."""
        if spacer is None:
            spacer = QWidget()
            spacers.append(spacer)
        spacer.setFixedHeight(max(0, gap - SPACING))
        return spacer


class Veil(QObject):
    """Paint nothing of a view until its viewport is built: a conversation that opens shows its
    last screen in one paint, not a paint per pass as its rows come (what was on screen stays
    until then, as a browser holds the last page until the next one paints). The scroll bar's
    strip is veiled too: its range changes at every pass, and each repaint of the strip paints
    every widget behind it (2 ms). Lifted when the view is covered, or after ``VEIL_MAX_MS``.

    Signals:
        lifted(): the view paints again.
    """

    lifted = Signal()

    def __init__(self, view: QScrollArea) -> None:
        super().__init__(view)
        self._view = view
        self.on = False

    def cover(self) -> None:
        """Stop painting the view (until ``lift``)."""
        self.on = True
        for part in self._parts():
            part.setUpdatesEnabled(False)
        QTimer.singleShot(VEIL_MAX_MS, self._view, self.lift)

    def lift(self) -> None:
        """Paint the view again (now, all of it)."""
        if self.on:
            self.on = False
            for part in self._parts():
                part.setUpdatesEnabled(True)
            self.lifted.emit()

    async def wait(self) -> None:
        """Return once the view paints again (at once if it does)."""
        if self.on:
            lifted: asyncio.Future[None] = asyncio.get_running_loop().create_future()

            def lift() -> None:
                if not lifted.done():
                    lifted.set_result(None)

            self.lifted.connect(lift)  # one closure a wait: it goes with the view
            await lifted

    def _parts(self) -> list[QWidget]:
        strip = self._view.verticalScrollBar().parentWidget()
        return [self._view.viewport(), *([strip] if strip is not None else [])]
