"""The review view's list of changed files: name, folder and +/− counts, one row per file.

Choosing a row (click, or arrow keys while the list has the keyboard) scrolls the diff to that
file's header; the list is only a way into the diff, never a second copy of it.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QWidget

from desktop.ui.diff.model import FileSummary
from desktop.ui.theme import ElidedLabel, set_role


def _tr(text: str) -> str:
    return QCoreApplication.translate("ReviewFiles", text)


class _FileRow(QWidget):
    """One file: its name, its folder (muted, shortened) and its counts in colour."""

    def __init__(self, summary: FileSummary, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        path = PurePosixPath(summary.path)
        name = QLabel(path.name or summary.path, self)
        folder = ElidedLabel(str(path.parent) if str(path.parent) != "." else "", self)
        set_role(folder, "muted", polished=False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 3, 8, 3)
        layout.setSpacing(6)
        layout.addWidget(name)
        layout.addWidget(folder, 1)
        for count, role, sign in ((summary.added, "diffAdded", "+"),
                                  (summary.removed, "diffRemoved", "−")):  # fmt: skip
            if count:
                label = QLabel(f"{sign}{count}", self)
                set_role(label, role, polished=False)
                layout.addWidget(label)
        if summary.is_new or summary.is_deleted or summary.is_binary:
            tag = (
                QCoreApplication.translate("ReviewFiles", "new")
                if summary.is_new
                else QCoreApplication.translate("ReviewFiles", "deleted")
            )
            tag = QCoreApplication.translate("ReviewFiles", "binary") if summary.is_binary else tag
            chip = QLabel(tag, self)
            set_role(chip, "chip", polished=False)
            layout.addWidget(chip)


class FileList(QListWidget):
    """The changed files of the diff under review.

    Signals:
        file_chosen(int): the index of the file the user picked.
    """

    file_chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reviewFiles")
        self.setAccessibleName(QCoreApplication.translate("ReviewFiles", "Changed files"))
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.currentRowChanged.connect(self._on_row)
        self._filling = False

    def set_files(self, files: list[FileSummary]) -> None:
        """Show ``files`` (in diff order), none chosen."""
        self._filling = True
        self.clear()
        for summary in files:
            item = QListWidgetItem(self)
            counts = f"+{summary.added} −{summary.removed}"
            item.setToolTip(f"{summary.path}  {counts}")
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{summary.path}, {counts}")
            row = _FileRow(summary, self)
            item.setSizeHint(row.sizeHint())
            self.setItemWidget(item, row)
        self._filling = False

    def _on_row(self, row: int) -> None:
        if not self._filling and row >= 0:
            self.file_chosen.emit(row)
