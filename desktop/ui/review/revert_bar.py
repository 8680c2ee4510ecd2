"""The review's bar for a turn's (or a conversation's) changes: where the keyboard is (file and
hunk), Revert hunk, Revert file, Undo, and the keys that step by file and by hunk.

The bar follows the diff: the hunk "under review" is the one last stepped to (a change, a hunk
or a file key, a row of the file list) while it is on screen, else the one at the top of the
view. It only asks: ``revert_requested`` and ``undo_requested`` go to whoever opened the
review (``desktop.ui.checkpoints``), which answers with ``show_done`` or ``show_problem``.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QSizePolicy, QWidget

from desktop.ui.diff import DiffView
from desktop.ui.diff.model import Row, RowKind, change_runs
from desktop.ui.review.hunks import hunk_rows, locate
from desktop.ui.theme import ElidedLabel, set_role

NEXT_FILE_KEYS = ("Alt+PgDown", "F8")
PREVIOUS_FILE_KEYS = ("Alt+PgUp", "Shift+F8")
NEXT_HUNK_KEYS = ("Alt+Shift+Down",)
PREVIOUS_HUNK_KEYS = ("Alt+Shift+Up",)
REVERT_HUNK_KEYS = ("Ctrl+Alt+Z",)
REVERT_FILE_KEYS = ("Ctrl+Alt+Shift+Z",)
UNDO_KEYS = ("Ctrl+Z",)


class RevertBar(QFrame):
    """Revert and undo for the change set under review.

    Signals:
        revert_requested(int, int): the file's index in the diff, and its hunk's (-1: the
            whole file).
        undo_requested(): Undo the last revert.
        file_reached(int): the file under review (the file list follows).
    """

    revert_requested = Signal(int, int)
    undo_requested = Signal()
    file_reached = Signal(int)

    def __init__(self, diff: DiffView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("revertBar")
        set_role(self, "card", polished=False)
        self.diff = diff
        self._row = -1
        self._hunks = True
        #: Each button's label with its keys and without (a narrow review drops the keys).
        self._labels: dict[QPushButton, tuple[str, str]] = {}
        self.where = ElidedLabel("", self)
        set_role(self.where, "muted", polished=False)
        self.where.setAccessibleName(QCoreApplication.translate("RevertBar", "Where you are"))
        self.status = ElidedLabel("", self)
        set_role(self.status, "status", polished=False)
        self.status.setAccessibleName(QCoreApplication.translate("RevertBar", "Last revert"))
        self.hunk_button = self._button(
            QCoreApplication.translate("RevertBar", "Revert hunk"), "⌃⌥Z", self.revert_hunk
        )
        self.file_button = self._button(
            QCoreApplication.translate("RevertBar", "Revert file"), "⌃⌥⇧Z", self.revert_file
        )
        self.undo_button = self._button(
            QCoreApplication.translate("RevertBar", "Undo"), "⌃Z", self.undo
        )
        set_role(self.file_button, "danger", polished=False)
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 6, 12, 6)
        row.setSpacing(8)
        row.addWidget(self.where, 1)
        row.addWidget(self.status, 2)
        for button in (self.hunk_button, self.file_button, self.undo_button):
            row.addWidget(button)
        diff.change_changed.connect(self._on_change)
        self.hide()

    def _button(self, label: str, key: str, slot: object) -> QPushButton:
        button = QPushButton(f"{label}  {key}", self)
        self._labels[button] = (f"{label}  {key}", label)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard stays on the diff
        button.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        button.setAccessibleName(label)
        button.setAccessibleDescription(
            QCoreApplication.translate("RevertBar", "Shortcut: {keys}").format(keys=key)
        )
        button.clicked.connect(slot)
        return button

    # -- public API ----------------------------------------------------------------------

    def start(self, *, hunks: bool) -> None:
        """A new change set is shown; ``hunks``: its hunks can be reverted one by one."""
        self._row = -1
        self._hunks = hunks
        self.hunk_button.setVisible(hunks)
        self.hunk_button.setToolTip(
            QCoreApplication.translate("RevertBar", "Put the hunk under review back ({key})")
            .format(key=REVERT_HUNK_KEYS[0])
        )  # fmt: skip
        self.file_button.setToolTip(
            QCoreApplication.translate("RevertBar", "Put the whole file back ({key})").format(
                key=REVERT_FILE_KEYS[0]
            )
        )
        self.undo_button.setEnabled(False)
        self.undo_button.setToolTip(
            QCoreApplication.translate("RevertBar", "Undo the last revert ({key})").format(
                key=UNDO_KEYS[0]
            )
        )
        self.status.setText("")
        self.show()
        self.update_where()
        self._fit()

    def position(self) -> tuple[int, int]:
        """The file and hunk under review (-1: none)."""
        rows = self._rows()
        return locate(rows, self._current_row())

    def step_file(self, step: int) -> None:
        """Go to the next (1) or previous (-1) file."""
        headers = self.diff.file_rows()
        if not headers:
            return
        file, _hunk = self.position()
        file = (file + step) % len(headers) if file >= 0 else (0 if step > 0 else -1)
        self.go_to_row(headers[file])

    def step_hunk(self, step: int) -> None:
        """Go to the next (1) or previous (-1) hunk, across files."""
        rows = self._rows()
        headers = [n for n, file in enumerate(rows) if file.kind == RowKind.HUNK]
        if not headers:
            return
        current = self._current_row()
        if step > 0:
            later = [n for n in headers if n > current]
            self.go_to_row(later[0] if later else headers[0])
        else:
            earlier = [n for n in headers if n < current]
            self.go_to_row(earlier[-1] if earlier else headers[-1])

    def go_to_row(self, row: int) -> None:
        """Bring display row ``row`` to the top and make it the one under review."""
        self._row = row
        for pane in self.diff.panes():
            pane.scroll_to_row(row, context=0)
        self.update_where()

    def revert_hunk(self) -> None:
        """Ask to revert the hunk under review."""
        file, hunk = self.position()
        if not self._hunks or file < 0 or not self.isVisible():
            return
        if hunk < 0:  # on the file's header: its first hunk
            hunk = 0 if hunk_rows(self._rows(), file) else -1
        if hunk >= 0:
            self.revert_requested.emit(file, hunk)

    def revert_file(self) -> None:
        """Ask to revert the file under review."""
        file, _hunk = self.position()
        if file >= 0 and self.isVisible():
            self.revert_requested.emit(file, -1)

    def claims(self, event: QEvent) -> bool:
        """Whether ``event`` is the Undo key while this bar is shown (the review then owns it)."""
        if not isinstance(event, QKeyEvent) or not self.isVisible() or event.isAutoRepeat():
            return False
        sequence = QKeySequence(event.keyCombination())
        return any(
            sequence.matches(QKeySequence(key)) == QKeySequence.SequenceMatch.ExactMatch
            for key in UNDO_KEYS
        )

    def undo(self) -> None:
        """Ask to undo the last revert."""
        if self.undo_button.isEnabled() and self.isVisible():
            self.undo_requested.emit()

    def show_done(self, text: str, *, undoable: bool) -> None:
        """Say what a revert (or undo) did; ``undoable``: Undo puts it back."""
        self.status.setText(text)
        self.status.setToolTip(text)
        set_role(self.status, "status", status="succeeded")
        self.undo_button.setEnabled(undoable)

    def show_problem(self, text: str) -> None:
        """Say why a revert (or undo) failed."""
        self.status.setText(text)
        self.status.setToolTip(text)
        set_role(self.status, "status", status="failed")

    def update_where(self) -> None:
        """Name the file and hunk under review."""
        file, hunk = self.position()
        files = len(self.diff.file_rows())
        if file < 0:
            self.where.setText("")
            return
        self.file_reached.emit(file)  # the file list marks the file under review
        text = QCoreApplication.translate("RevertBar", "File {file} of {files}").format(
            file=file + 1, files=files
        )
        hunks = len(hunk_rows(self._rows(), file))
        if hunks and hunk >= 0:
            text += " · " + QCoreApplication.translate(
                "RevertBar", "hunk {hunk} of {hunks}"
            ).format(hunk=hunk + 1, hunks=hunks)
        self.where.setText(text)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    # -- internals -----------------------------------------------------------------------

    def _fit(self) -> None:
        """Labels with their keys when they fit beside the position, else without (the
        tooltips and the accessible descriptions still name the keys)."""
        buttons = [b for b in self._labels if not b.isHidden()]
        for button in buttons:
            button.setText(self._labels[button][0])
        needed = sum(b.sizeHint().width() + 8 for b in buttons)
        if needed + 260 > self.width():  # room for "File 1 of 3 · hunk 2 of 3" and a status
            for button in buttons:
                button.setText(self._labels[button][1])

    def _rows(self) -> list[Row]:
        panes = self.diff.panes()
        return panes[-1].rows if panes else []

    def _current_row(self) -> int:
        panes = self.diff.panes()
        if not panes:
            return -1
        pane = panes[-1]
        top = pane.firstVisibleBlock().blockNumber()
        height = max(1, pane.viewport().height() // max(1, pane.line_height()))
        if self._row >= 0 and top - 3 <= self._row <= top + height:
            return self._row
        return top

    def _on_change(self, index: int, _total: int) -> None:
        runs = change_runs(*(pane.rows for pane in self.diff.panes()))
        if 0 <= index < len(runs):
            self._row = runs[index][0]
        self.update_where()
