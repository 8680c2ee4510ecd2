"""The diff viewer widget: unified and side-by-side views of a (multi-file) unified diff.

Used by approval cards (the diff of an edit BEFORE it runs) and by tool results whose output
is a diff. Opening is cheap whatever the size: the text goes into the panes with one
``setPlainText`` per pane, and the side-by-side panes are only built when first shown.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
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

from desktop.ui.diff.model import DiffModel, RowKind, parse_diff
from desktop.ui.diff.pane import DiffPane, Numbers
from desktop.ui.diff.theme import DiffTheme, RowDecorator

#: Toggles unified / side-by-side while focus is inside the view (approval cards forward it).
TOGGLE_SHORTCUT = "Ctrl+Shift+D"


class DiffView(QWidget):
    """Shows a unified diff with line numbers, syntax colours and changed-word marks.

    Signals:
        layout_changed(bool): Emitted with ``True`` when the side-by-side view is shown and
            ``False`` when the unified view is shown.
    """

    layout_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None, *, side_by_side: bool = False) -> None:
        super().__init__(parent)
        self._model = DiffModel()
        self._generation = 0
        self._theme = DiffTheme.for_palette(self.palette(), self._generation)
        self._decorator = RowDecorator(self._model, self._theme)
        self._split_stale = True
        self._max_lines = 0
        self._summary = QLabel(self)
        self._summary.setAccessibleName(self.tr("Diff summary"))
        # A long path must not widen the conversation: the label may shrink (tooltip: all).
        self._summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._toggle = QToolButton(self)
        self._toggle.setCheckable(True)
        self._toggle.setChecked(side_by_side)
        self._toggle.setText(self.tr("Side by side ({key})").format(key=TOGGLE_SHORTCUT))
        self._toggle.setAccessibleName(self.tr("Toggle side-by-side diff view"))
        self._toggle.setToolTip(
            self.tr("Switch between unified and side-by-side diff ({key})").format(
                key=TOGGLE_SHORTCUT
            )
        )
        self._toggle.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._unified = DiffPane(Numbers.BOTH, self.tr("Diff, unified view"), self)
        self._left = DiffPane(Numbers.OLD, self.tr("Diff, old version"), self)
        self._right = DiffPane(Numbers.NEW, self.tr("Diff, new version"), self)
        self._split = QSplitter(Qt.Orientation.Horizontal, self)
        self._split.setChildrenCollapsible(False)
        self._split.addWidget(self._left)
        self._split.addWidget(self._right)
        self._stack = QStackedWidget(self)
        self._stack.addWidget(self._unified)
        self._stack.addWidget(self._split)
        self._shortcut = QShortcut(QKeySequence(TOGGLE_SHORTCUT), self)
        self._shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 2)
        bar.addWidget(self._summary, 1)
        bar.addWidget(self._toggle)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self._stack, 1)
        self._stack.setCurrentIndex(1 if side_by_side else 0)
        self._connect_signals()

    def _connect_signals(self) -> None:
        self._toggle.toggled.connect(self.set_side_by_side)
        self._shortcut.activated.connect(self.toggle_layout)
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
        """The panes of the current view (one for unified, old and new for side by side)."""
        return [self._left, self._right] if self.is_side_by_side() else [self._unified]

    def is_side_by_side(self) -> bool:
        """Whether the side-by-side view is shown."""
        return self._stack.currentIndex() == 1

    def set_side_by_side(self, on: bool) -> None:
        """Show the side-by-side (``True``) or unified (``False``) view."""
        if on == self.is_side_by_side():
            return
        if on and self._split_stale:
            self._fill_split()
        elif not on and len(self._unified.rows) != len(self._model.unified):
            self._unified.set_rows(self._model.unified, self._decorator)
        self._stack.setCurrentIndex(1 if on else 0)
        self._toggle.setChecked(on)
        self.layout_changed.emit(on)

    def toggle_layout(self) -> None:
        """Switch between the unified and side-by-side views."""
        self.set_side_by_side(not self.is_side_by_side())

    def set_max_visible_lines(self, lines: int) -> None:
        """Cap the preferred height at ``lines`` rows (0: no cap), e.g. inside a card."""
        self._max_lines = lines
        self.updateGeometry()

    def scroll_pages(self, pages: int) -> None:
        """Scroll the current view by whole pages (negative: up)."""
        bar = self.panes()[0].verticalScrollBar()
        bar.setValue(bar.value() + pages * bar.pageStep())

    def sizeHint(self) -> QSize:
        rows = len(self._model.unified)
        if self._max_lines:
            rows = min(rows, self._max_lines)
        pane = self._unified
        # Room for the horizontal scroll bar too: long lines scroll inside the diff, and
        # without it the last rows would hide behind the bar.
        chrome = pane.horizontalScrollBar().sizeHint().height() + 2 * pane.frameWidth()
        height = self._summary.sizeHint().height() + 8 + (rows + 1) * pane.line_height() + chrome
        return QSize(super().sizeHint().width(), height)

    # -- internals -----------------------------------------------------------------------

    def _fill_split(self) -> None:
        self._left.set_rows(self._model.left, self._decorator)
        self._right.set_rows(self._model.right, self._decorator)
        self._split_stale = False

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
