"""The diff viewer widget: unified and side-by-side views of a (multi-file) unified diff.

Used by approval cards (the diff of an edit BEFORE it runs), by tool results whose output is
a diff, and full-window by the review view (``desktop.ui.review``), which adds the file list
and its own toolbar. Opening is cheap whatever the size: the text goes into the panes with one
``setPlainText`` per pane, and the side-by-side panes are only built when first shown.

Side by side shares the width equally, with one vertical scroll bar (the right one); a side
with nothing on it (a new or deleted file) is not shown, a header row is said once, and with
wrapping on the rows of both sides stay level (``align``). The changes (runs of added or
removed rows) can be stepped through with ``goto_change``.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.diff.align import MAX_ALIGNED_ROWS, pad_pairs
from desktop.ui.diff.model import DiffModel, Row, RowKind, change_runs, has_side, parse_diff
from desktop.ui.diff.pane import DiffPane, Numbers
from desktop.ui.diff.theme import DiffTheme, RowDecorator

#: Toggles unified / side-by-side while focus is inside the view (approval cards forward it).
TOGGLE_SHORTCUT = "Ctrl+Shift+D"
#: Opens the diff of the focused approval card full-window (``desktop.ui.review``).
REVIEW_SHORTCUT = "Ctrl+Shift+R"
#: Toggles wrapping of long lines (the review view; VS Code's key for it).
WRAP_SHORTCUT = "Alt+Z"


def _tr(text: str) -> str:
    return QCoreApplication.translate("DiffView", text)


class DiffView(QWidget):
    """Shows a unified diff with line numbers, syntax colours and changed-word marks.

    Signals:
        layout_changed(bool): Emitted with ``True`` when the side-by-side view is shown and
            ``False`` when the unified view is shown.
        wrap_changed(bool): Long lines started (``True``) or stopped wrapping.
        change_changed(int, int): ``(index, total)`` of the current change after
            ``goto_change`` (index -1: none chosen yet).
    """

    layout_changed = Signal(bool)
    wrap_changed = Signal(bool)
    change_changed = Signal(int, int)

    def __init__(
        self, parent: QWidget | None = None, *, side_by_side: bool = False, bar: bool = True
    ) -> None:
        super().__init__(parent)
        self._model = DiffModel()
        self._generation = 0
        self._theme = DiffTheme.for_palette(self.palette(), self._generation)
        self._decorator = RowDecorator(self._model, self._theme)
        self._split_stale = True
        self._max_lines = 0
        self._wrap = False
        self._change = -1
        self._runs: list[tuple[int, int]] | None = None
        self._summary = QLabel(self)
        self._summary.setAccessibleName(self.tr("Diff summary"))
        # A long path must not widen the conversation: the label may shrink (tooltip: all).
        self._summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._toggle = QToolButton(self)
        self._toggle.setCheckable(True)
        self._toggle.setChecked(side_by_side)
        self._toggle.setAccessibleName(self.tr("Toggle side-by-side diff view"))
        self._toggle.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._unified = DiffPane(Numbers.BOTH, self.tr("Diff, unified view"), self)
        self._left = DiffPane(Numbers.OLD, self.tr("Diff, old version"), self)
        self._right = DiffPane(Numbers.NEW, self.tr("Diff, new version"), self)
        # One vertical scroll bar for both sides: the right one (the left follows it).
        self._left.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._split = QSplitter(Qt.Orientation.Horizontal, self)
        self._split.setChildrenCollapsible(False)
        self._split.setHandleWidth(1)
        for index, pane in enumerate((self._left, self._right)):
            pane.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Expanding)
            pane.setMinimumWidth(80)
            self._split.addWidget(pane)
            self._split.setStretchFactor(index, 1)
        self._stack = QStackedWidget(self)
        self._stack.addWidget(self._unified)
        self._stack.addWidget(self._split)
        self._shortcut = QShortcut(QKeySequence(TOGGLE_SHORTCUT), self)
        self._shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._align_timer = QTimer(self)
        self._align_timer.setSingleShot(True)
        self._align_timer.setInterval(0)
        self._bar = QWidget(self)
        row = QHBoxLayout(self._bar)
        row.setContentsMargins(4, 2, 4, 2)
        row.addWidget(self._summary, 1)
        row.addWidget(self._toggle)
        self._bar.setVisible(bar)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self._bar)
        layout.addWidget(self._stack, 1)
        self._stack.setCurrentIndex(1 if side_by_side else 0)
        self._label_toggle()
        self._connect_signals()

    def _connect_signals(self) -> None:
        self._toggle.toggled.connect(self.set_side_by_side)
        self._shortcut.activated.connect(self.toggle_layout)
        self._align_timer.timeout.connect(self._align)
        self._split.splitterMoved.connect(lambda *_: self._align_timer.start())
        for a, b in ((self._left, self._right), (self._right, self._left)):
            a.verticalScrollBar().valueChanged.connect(b.verticalScrollBar().setValue)
            a.horizontalScrollBar().valueChanged.connect(b.horizontalScrollBar().setValue)

    # -- public API ----------------------------------------------------------------------

    def set_diff(self, unified_diff_text: str, *, file_header: bool = True) -> None:
        """Show a unified diff (one or several files).

        Args:
            unified_diff_text: Text as produced by ``git diff`` or ``difflib.unified_diff``;
                text that does not parse is shown as plain lines under a notice.
            file_header: False: a diff of one file shows no file row (the approval card's
                title already names the file and its +/− counts).
        """
        self._model = parse_diff(unified_diff_text)
        if not file_header and len(self._model.files) == 1:
            self._model.unified = [r for r in self._model.unified if r.kind != RowKind.FILE]
        self._decorator = RowDecorator(self._model, self._theme)
        self._summary.setText(self._summary_text())
        self._summary.setToolTip(self._summary.text())
        self._split_stale = True
        self._reset_changes()
        if self.is_side_by_side():
            self._fill_split()
            self._unified.set_rows([], self._decorator)
        else:
            self._unified.set_rows(self._model.unified, self._decorator)
        self.updateGeometry()

    @property
    def model(self) -> DiffModel:
        """The parsed diff shown."""
        return self._model

    @property
    def toggle_button(self) -> QToolButton:
        """The unified / side-by-side toggle button."""
        return self._toggle

    def panes(self) -> list[DiffPane]:
        """The panes of the current view (one for unified; old and new for side by side,
        without a side that has nothing to show)."""
        if not self.is_side_by_side():
            return [self._unified]
        return [pane for pane in (self._left, self._right) if not pane.isHidden()]

    def is_side_by_side(self) -> bool:
        """Whether the side-by-side view is shown."""
        return self._stack.currentIndex() == 1

    def set_side_by_side(self, on: bool) -> None:
        """Show the side-by-side (``True``) or unified (``False``) view."""
        if on == self.is_side_by_side():
            return
        top = self._top_row()
        if on and self._split_stale:
            self._fill_split()
        elif not on and len(self._unified.rows) != len(self._model.unified):
            self._unified.set_rows(self._model.unified, self._decorator)
        self._stack.setCurrentIndex(1 if on else 0)
        self._toggle.setChecked(on)
        self._label_toggle()
        self._reset_changes()
        self._apply_wrap()
        self._scroll_to_row_of(top)
        self.layout_changed.emit(on)

    def toggle_layout(self) -> None:
        """Switch between the unified and side-by-side views."""
        self.set_side_by_side(not self.is_side_by_side())

    def set_toggle_shortcut_enabled(self, on: bool) -> None:
        """Whether the view's own Ctrl+Shift+D works (off where a toolbar owns the key)."""
        self._shortcut.setEnabled(on)

    def is_wrapped(self) -> bool:
        """Whether long lines wrap (else they scroll sideways)."""
        return self._wrap

    def set_wrap(self, on: bool) -> None:
        """Wrap long lines at the width of the view, in both layouts."""
        if on == self._wrap:
            return
        self._wrap = on
        self._apply_wrap()
        self.wrap_changed.emit(on)

    def set_max_visible_lines(self, lines: int) -> None:
        """Cap the preferred height at ``lines`` rows (0: no cap), e.g. inside a card."""
        self._max_lines = lines
        self.updateGeometry()

    def scroll_pages(self, pages: int) -> None:
        """Scroll the current view by whole pages (negative: up)."""
        bar = self.panes()[-1].verticalScrollBar()
        bar.setValue(bar.value() + pages * bar.pageStep())

    def change_count(self) -> int:
        """How many changes (runs of added or removed rows) the current view has."""
        return len(self._change_runs())

    def current_change(self) -> int:
        """Index of the change ``goto_change`` went to last (-1: none yet)."""
        return self._change

    def goto_change(self, step: int) -> int:
        """Go ``step`` changes forward (negative: back), wrapping around; returns its index.

        The first step from no current change goes to the first change (or, back, the last).
        """
        runs = self._change_runs()
        if not runs:
            return -1
        if self._change < 0:
            self._change = 0 if step > 0 else len(runs) - 1
        else:
            self._change = (self._change + step) % len(runs)
        first, end = runs[self._change]
        for pane in self.panes():
            pane.set_marked((first, end))
        self._scroll_to_row(first)
        self.change_changed.emit(self._change, len(runs))
        return self._change

    def file_rows(self) -> list[int]:
        """The row of each file's header in the current view, in file order."""
        rows = self.panes()[0].rows
        return [i for i, row in enumerate(rows) if row.kind == RowKind.FILE]

    def scroll_to_file(self, index: int) -> None:
        """Bring the header of the ``index``-th file to the top of the view."""
        rows = self.file_rows()
        if 0 <= index < len(rows):
            self._scroll_to_row(rows[index], context=0)

    def sizeHint(self) -> QSize:
        rows = len(self._model.left if self.is_side_by_side() else self._model.unified)
        if self._max_lines:
            rows = min(rows, self._max_lines)
        pane = self._unified
        # Room for the horizontal scroll bar too: long lines scroll inside the diff, and
        # without it the last rows would hide behind the bar.
        chrome = 2 * pane.frameWidth()
        if not self._wrap:
            chrome += pane.horizontalScrollBar().sizeHint().height()
        bar = self._bar.sizeHint().height() + 4 if self._bar.isVisibleTo(self) else 0
        height = bar + (rows + 1) * pane.line_height() + chrome
        return QSize(super().sizeHint().width(), height)

    # -- internals -----------------------------------------------------------------------

    def _label_toggle(self) -> None:
        # The label says what a click does (the view it switches to), with its key.
        on = self.is_side_by_side()
        label = (
            QCoreApplication.translate("DiffView", "Unified")
            if on
            else QCoreApplication.translate("DiffView", "Side by side")
        )
        self._toggle.setText(f"{label}  ({TOGGLE_SHORTCUT})")
        target = (
            QCoreApplication.translate("DiffView", "unified")
            if on
            else QCoreApplication.translate("DiffView", "side-by-side")
        )
        self._toggle.setToolTip(
            QCoreApplication.translate("DiffView", "Show the {view} diff ({key})").format(
                view=target, key=TOGGLE_SHORTCUT
            )
        )

    def _fill_split(self) -> None:
        model = self._model
        left, right = model.left, model.right
        has_old = has_side(left, RowKind.REMOVED)
        has_new = has_side(right, RowKind.ADDED)
        if has_old and has_new:
            self._left.set_rows(left, self._decorator)
            self._right.set_rows(right, self._decorator)
        elif has_new:  # only additions (new files): one side, the new one, headers included
            self._left.set_rows([], self._decorator)
            self._right.set_rows(model.unified, self._decorator)
        else:
            self._left.set_rows(model.unified, self._decorator)
            self._right.set_rows([], self._decorator)
        self._left.setVisible(has_old or not has_new)
        self._right.setVisible(has_new)
        # The one vertical scroll bar is on the right edge, whichever side that is.
        policy = Qt.ScrollBarPolicy
        self._left.setVerticalScrollBarPolicy(
            policy.ScrollBarAlwaysOff if has_new else policy.ScrollBarAsNeeded
        )
        half = max(1, self._split.width() // 2)
        self._split.setSizes([half, half])
        self._split_stale = False
        self._align_timer.start()

    def _apply_wrap(self) -> None:
        anywhere = self.is_side_by_side()
        for pane in (self._unified, self._left, self._right):
            pane.set_wrap(self._wrap, anywhere=anywhere)
        self._align_timer.start()

    def _align(self) -> None:
        """Pad the shorter row of each side-by-side pair (wrapping on) or remove the padding."""
        left, right = self._left, self._right
        if not self.is_side_by_side() or left.isHidden() or right.isHidden():
            return
        old = [row.text for row in left.rows]
        new = [row.text for row in right.rows]
        if self._wrap:
            old, new = pad_pairs(old, new, left.columns(), right.columns())
        for pane, texts in ((left, old), (right, new)):
            if pane.texts() != texts and pane.rows:
                pane.set_texts(texts)
        if self._wrap and len(old) <= MAX_ALIGNED_ROWS:
            left.lay_out_all()
            right.lay_out_all()
            left.verticalScrollBar().setValue(right.verticalScrollBar().value())

    def _change_runs(self) -> list[tuple[int, int]]:
        if self._runs is None:
            panes = self.panes()
            self._runs = change_runs(*(pane.rows for pane in panes)) if panes else []
        return self._runs

    def _reset_changes(self) -> None:
        self._runs = None
        self._change = -1
        for pane in (self._unified, self._left, self._right):
            pane.set_marked(None)

    def _scroll_to_row(self, row: int, *, context: int = 3) -> None:
        panes = self.panes()
        for pane in panes:
            pane.scroll_to_row(row, context=context)

    def _top_row(self) -> Row | None:
        panes = self.panes()
        if not panes or not panes[-1].rows:
            return None
        number = panes[-1].firstVisibleBlock().blockNumber()
        rows = panes[-1].rows
        return rows[number] if 0 <= number < len(rows) else None

    def _scroll_to_row_of(self, row: Row | None) -> None:
        """After a layout switch, keep the row that was at the top there (by line numbers)."""
        if row is None or (row.old_no is None and row.new_no is None):
            return
        rows = self.panes()[-1].rows
        for index, candidate in enumerate(rows):
            same_new = row.new_no is not None and candidate.new_no == row.new_no
            if same_new or (row.new_no is None and candidate.old_no == row.old_no):
                self._scroll_to_row(index, context=0)
                return

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._wrap and self.is_side_by_side():
            self._align_timer.start()

    def _summary_text(self) -> str:
        model = self._model
        files = len(model.files)
        text = self.tr("%n file(s)", "", files) if files != 1 else model.files[0].path
        return f"{text}   +{model.added} −{model.removed}"

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._generation += 1
            self._theme = DiffTheme.for_palette(self.palette(), self._generation)
            self._decorator = RowDecorator(self._model, self._theme)
            for pane in (self._unified, self._left, self._right):
                pane.set_decorator(self._decorator)
        super().changeEvent(event)
