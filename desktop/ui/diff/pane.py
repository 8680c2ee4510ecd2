"""One scrolling text pane of a diff: text, line-number gutter, row colours, lazy formats.

The pane is a read-only QPlainTextEdit filled with ``setPlainText`` in one call (the cost of
plain text), so selection, copy and screen-reader access come from Qt. Everything that would
make a large diff slow is done only for the rows on screen: syntax colours and changed-word
marks are set on a block's layout the first time it is painted, and the row backgrounds and
line numbers are painted directly from the row model.
"""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import QMimeData, QRect, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QFontDatabase,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextBlock,
    QTextCursor,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QWidget

from desktop.ui.diff.align import PAD
from desktop.ui.diff.model import Row, RowKind
from desktop.ui.diff.theme import DiffTheme, RowDecorator


class Numbers(Enum):
    """Which line numbers a pane's gutter shows."""

    BOTH = "both"
    OLD = "old"
    NEW = "new"


class _Gutter(QWidget):
    """The line-number margin; all painting is delegated to the pane that owns the rows."""

    def __init__(self, pane: DiffPane) -> None:
        super().__init__(pane)
        self._pane = pane

    def sizeHint(self) -> QSize:
        return QSize(self._pane.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self._pane.paint_gutter(event)


class DiffPane(QPlainTextEdit):
    """A read-only view of diff rows (block number == row index)."""

    def __init__(self, numbers: Numbers, accessible_name: str, parent: QWidget | None = None):
        super().__init__(parent)
        self._numbers = numbers
        self._rows: list[Row] = []
        self._decorator: RowDecorator | None = None
        self._digits = 1
        self._marked: tuple[int, int] | None = None
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setTabChangesFocus(True)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setWordWrapMode(QTextOption.WrapMode.NoWrap)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setAccessibleName(accessible_name)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.setFont(font)
        self.setTabStopDistance(4 * self.fontMetrics().horizontalAdvance(" "))
        self._gutter = _Gutter(self)
        self.updateRequest.connect(self._on_update_request)

    # -- content -------------------------------------------------------------------------

    def set_rows(
        self, rows: list[Row], decorator: RowDecorator, texts: list[str] | None = None
    ) -> None:
        """Show ``rows``; formats are applied lazily as rows become visible.

        Args:
            rows: One row per text line.
            decorator: Computes the syntax and changed-word formats of a row.
            texts: The rows' texts padded for wrapping (``align``); default: the rows' own.
        """
        self._rows = rows
        self._decorator = decorator
        self._marked = None
        largest = max((max(r.old_no or 0, r.new_no or 0) for r in rows), default=0)
        self._digits = max(3, len(str(largest)))
        self.setPlainText("\n".join(texts if texts is not None else (r.text for r in rows)))
        self._update_margins()

    def set_texts(self, texts: list[str]) -> None:
        """Replace the shown texts of the same rows (re-padded), keeping the first row in view."""
        first = self.firstVisibleBlock().blockNumber()
        self.setPlainText("\n".join(texts))
        self.scroll_to_row(first, context=0)

    def lay_out_all(self) -> None:
        """Lay out every row now (wrapping lays rows out lazily, as they are first shown):
        the scroll range then counts every screen line, so two level sides scroll alike."""
        layout = self.document().documentLayout()
        block = self.document().firstBlock()
        while block.isValid():
            layout.blockBoundingRect(block)
            block = block.next()

    def texts(self) -> list[str]:
        """The texts shown, one per row, padding included."""
        texts: list[str] = []
        block = self.document().firstBlock()
        while block.isValid():  # toPlainText() would turn the padding into line breaks
            texts.append(block.text())
            block = block.next()
        return texts

    def set_wrap(self, on: bool, *, anywhere: bool) -> None:
        """Wrap long lines at the pane's width (``anywhere``: also inside words, as the
        side-by-side alignment counts) or scroll them sideways."""
        mode = QPlainTextEdit.LineWrapMode.WidgetWidth if on else QPlainTextEdit.LineWrapMode.NoWrap
        wrap = QTextOption.WrapMode
        self.setWordWrapMode(
            (wrap.WrapAnywhere if anywhere else wrap.WrapAtWordBoundaryOrAnywhere) if on
            else wrap.NoWrap
        )  # fmt: skip
        self.setLineWrapMode(mode)

    def columns(self) -> int:
        """Characters per screen line when wrapping (fixed pitch)."""
        # Measured as the document lays a line out (bearings and all), not divided: one
        # column off and every long row of one side would drift by a line.
        width = self.viewport().width() - 2 * self.document().documentMargin()
        layout = QTextLayout("9" * 2000, self.font())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAnywhere)
        layout.setTextOption(option)
        layout.beginLayout()
        line = layout.createLine()
        line.setLineWidth(max(1.0, width))
        layout.endLayout()
        return max(1, line.textLength())

    def scroll_to_row(self, row: int, *, context: int = 3) -> None:
        """Scroll so that ``row`` is near the top, ``context`` rows above it still shown."""
        block = self.document().findBlockByNumber(max(0, row - context))
        if not block.isValid():
            return
        # The scroll value counts screen lines; sum them up to the block.
        lines = 0
        current = self.document().firstBlock()
        while current.isValid() and current.blockNumber() < block.blockNumber():
            lines += max(1, current.lineCount())
            current = current.next()
        self.verticalScrollBar().setValue(lines)

    def set_marked(self, rows: tuple[int, int] | None) -> None:
        """Mark the current change (``(first, end)`` rows) with an accent bar in the gutter."""
        self._marked = rows
        self._gutter.update()

    def set_decorator(self, decorator: RowDecorator) -> None:
        """Swap the formats (e.g. after a palette change) and repaint the visible rows."""
        self._decorator = decorator
        self.viewport().update()
        self._gutter.update()

    @property
    def rows(self) -> list[Row]:
        """The rows shown, in order."""
        return self._rows

    def line_height(self) -> int:
        """Height of one row in pixels."""
        return self.fontMetrics().lineSpacing()

    def is_formatted(self, row_index: int) -> bool:
        """Whether the row's lazy formats were applied (for tests and diagnostics)."""
        block = self.document().findBlockByNumber(row_index)
        return self._decorator is not None and block.userState() == self._generation()

    def row_formats(self, row_index: int) -> list[tuple[int, int, str, str]]:
        """The applied format ranges of a row as ``(start, length, fg, bg)`` colour names."""
        layout = self.document().findBlockByNumber(row_index).layout()
        result: list[tuple[int, int, str, str]] = []
        for item in layout.formats():
            fmt = item.format
            fg = (
                fmt.foreground().color().name()
                if fmt.hasProperty(fmt.Property.ForegroundBrush)
                else ""
            )
            bg = (
                fmt.background().color().name()
                if fmt.hasProperty(fmt.Property.BackgroundBrush)
                else ""
            )
            result.append((item.start, item.length, fg, bg))
        return result

    # -- lazy formatting -----------------------------------------------------------------

    def _generation(self) -> int:
        return self._decorator.theme.generation if self._decorator is not None else -1

    def _visible_blocks(self) -> list[QTextBlock]:
        blocks: list[QTextBlock] = []
        block = self.firstVisibleBlock()
        offset = self.contentOffset()
        height = self.viewport().height()
        while block.isValid():
            top = self.blockBoundingGeometry(block).translated(offset).top()
            if top > height:
                break
            blocks.append(block)
            block = block.next()
        return blocks

    def _format_visible(self) -> None:
        decorator = self._decorator
        if decorator is None:
            return
        generation = decorator.theme.generation
        stale = [b for b in self._visible_blocks() if b.userState() != generation]
        if not stale:
            return
        # One edit block: the layout is told about all changed blocks at once.
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        for block in stale:
            number = block.blockNumber()
            if number < len(self._rows):
                block.layout().setFormats(decorator.formats(self._rows[number]))
            block.setUserState(generation)
        cursor.endEditBlock()

    # -- painting ------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        self._format_visible()
        decorator = self._decorator
        if decorator is not None:
            painter = QPainter(self.viewport())
            width = self.viewport().width()
            offset = self.contentOffset()
            for block in self._visible_blocks():
                number = block.blockNumber()
                if number >= len(self._rows):
                    break
                kind = self._rows[number].kind
                color = decorator.theme.row_background(kind)
                if color is not None:
                    geometry = self.blockBoundingGeometry(block).translated(offset)
                    rect = QRectF(0, geometry.top(), width, geometry.height())
                    painter.fillRect(rect, color)
                    if kind == RowKind.FILLER:  # "nothing on this side": hatched, not grey
                        painter.fillRect(rect, QBrush(decorator.theme.filler_hatch,
                                                      Qt.BrushStyle.BDiagPattern))  # fmt: skip
            painter.end()
        super().paintEvent(event)

    def gutter_width(self) -> int:
        """Width of the line-number margin for the current rows."""
        columns = 2 if self._numbers == Numbers.BOTH else 1
        advance = self.fontMetrics().horizontalAdvance("9")
        return columns * (self._digits + 1) * advance + 3 * advance

    def _update_margins(self) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)
        self._place_gutter()

    def _place_gutter(self) -> None:
        rect = self.contentsRect()
        self._gutter.setGeometry(QRect(rect.left(), rect.top(), self.gutter_width(), rect.height()))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_gutter()

    def _on_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())

    def paint_gutter(self, event: QPaintEvent) -> None:
        """Paint line numbers and +/- marks for the visible rows."""
        decorator = self._decorator
        painter = QPainter(self._gutter)
        painter.setFont(self.font())
        if decorator is None:
            painter.end()
            return
        theme = decorator.theme
        painter.fillRect(event.rect(), theme.gutter_bg)
        advance = self.fontMetrics().horizontalAdvance("9")
        column = (self._digits + 1) * advance
        offset = self.contentOffset()
        for block in self._visible_blocks():
            number = block.blockNumber()
            if number >= len(self._rows):
                break
            row = self._rows[number]
            geometry = self.blockBoundingGeometry(block).translated(offset)
            top, height = int(geometry.top()), int(geometry.height())
            self._paint_gutter_row(painter, theme, row, top, height, column, advance)
            marked = self._marked
            if marked is not None and marked[0] <= number < marked[1]:
                painter.fillRect(0, top, max(3, advance // 3), height, theme.accent)
        painter.end()

    def _paint_gutter_row(
        self,
        painter: QPainter,
        theme: DiffTheme,
        row: Row,
        top: int,
        height: int,
        column: int,
        advance: int,
    ) -> None:
        tint = {RowKind.ADDED: theme.added_word_bg, RowKind.REMOVED: theme.removed_word_bg}
        background = tint.get(row.kind) or theme.row_background(row.kind)
        if background is not None:
            painter.fillRect(0, top, self._gutter.width(), height, background)
        height = self.line_height()  # numbers and marks stand on a wrapped row's first line
        numbers: list[int | None] = {
            Numbers.BOTH: [row.old_no, row.new_no],
            Numbers.OLD: [row.old_no],
            Numbers.NEW: [row.new_no],
        }[self._numbers]
        changed = row.kind in (RowKind.ADDED, RowKind.REMOVED)
        painter.setPen(theme.text if changed else theme.muted)
        align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        for i, value in enumerate(numbers):
            if value is not None:
                cell = QRect(i * column, top, column - advance // 2, height)
                painter.drawText(cell, align, str(value))
        mark = {RowKind.ADDED: ("+", theme.added_mark), RowKind.REMOVED: ("−", theme.removed_mark)}
        if row.kind in mark:
            sign, color = mark[row.kind]
            painter.setPen(color)
            left = len(numbers) * column + advance // 2
            left_align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
            painter.drawText(QRect(left, top, 2 * advance, height), left_align, sign)

    def createMimeDataFromSelection(self) -> QMimeData:
        """Copy the lines as they are: without the padding that keeps the sides level."""
        data = QMimeData()
        text = self.textCursor().selectedText().replace(PAD, "").replace("\u2029", "\n")
        data.setText(text)
        return data
