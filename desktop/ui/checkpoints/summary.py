"""A finished turn's "Changes" card in the conversation: how many files, +/−, their names,
and the ways on: Review (every file of the turn full-window) and Restore to before this turn.

Compact as the tool cards are (a title row, then the names with the buttons at the right), so a
turn that touched files ends with one glance at what it touched. Restore is disabled, with a
tooltip saying why, while a turn runs.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.core.checkpoints.model import ChangeSet
from desktop.ui.checkpoints.diffs import plural, short_names
from desktop.ui.icons import Icon, decorate
from desktop.ui.theme import ElidedLabel, set_role


class ChangesSummary(QFrame):
    """What one turn changed.

    Signals:
        review_requested(int): Review (the turn's number).
        restore_requested(int): Restore to before this turn (the turn's number).
    """

    review_requested = Signal(int)
    restore_requested = Signal(int)

    def __init__(self, turn: int, changes: ChangeSet, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("changesSummary")
        set_role(self, "card", polished=False)
        self.turn = turn
        self.changes = changes
        self.title = QLabel(self)
        set_role(self.title, "cardTitle", polished=False)
        self.added = QLabel(self)
        set_role(self.added, "diffAdded", polished=False)
        self.removed = QLabel(self)
        set_role(self.removed, "diffRemoved", polished=False)
        self.names = ElidedLabel("", self)
        set_role(self.names, "muted", polished=False)
        self.review = QPushButton(self.tr("Review"), self)
        decorate(self.review, Icon.REVIEW, size=14)
        self.review.setAccessibleName(self.tr("Review the changes of this turn"))
        self.review.setToolTip(self.tr("Every file this turn changed, full-window"))
        self.restore = QPushButton(self.tr("Restore to before this turn"), self)
        self.restore.setAccessibleName(self.tr("Restore the files to before this turn"))
        self.review.clicked.connect(lambda: self.review_requested.emit(self.turn))
        self.restore.clicked.connect(lambda: self.restore_requested.emit(self.turn))
        self._build()
        self.set_changes(changes)
        self.set_busy(False)

    def _build(self) -> None:
        # Title and counts above, the names beside the buttons below: at any width the title
        # and both buttons stay whole and only the names elide.
        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(self.title)
        top.addWidget(self.added)
        top.addWidget(self.removed)
        top.addStretch(1)
        bottom = QHBoxLayout()
        bottom.setSpacing(8)
        bottom.addWidget(self.names, 1)
        bottom.addWidget(self.review)
        bottom.addWidget(self.restore)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 8, 10, 8)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addLayout(bottom)

    def set_changes(self, changes: ChangeSet) -> None:
        """Show ``changes`` (a turn's, from its checkpoints)."""
        self.changes = changes
        count = len(changes.files)
        self.title.setText(
            plural(
                count,
                QCoreApplication.translate("ChangesSummary", "Changes · 1 file"),
                QCoreApplication.translate("ChangesSummary", "Changes · {n} files"),
            )
        )
        self.added.setText(f"+{changes.added}")
        self.removed.setText(f"−{changes.removed}")
        names, more = short_names(changes.files)
        text = ", ".join(names)
        if more:
            text += "  " + QCoreApplication.translate("ChangesSummary", "+{n} more").format(n=more)
        if changes.problem:
            text += "  · " + changes.problem
        self.names.setText(text)
        self.names.setToolTip("\n".join(change.path for change in changes.files))
        self.setAccessibleName(
            QCoreApplication.translate(
                "ChangesSummary",
                "Changes of turn {turn}: {title}, {added} lines added, {removed} removed: {names}",
            ).format(
                turn=self.turn,
                title=self.title.text(),
                added=changes.added,
                removed=changes.removed,
                names=text,
            )
        )

    def set_busy(self, busy: bool) -> None:
        """While a turn runs, Restore is refused (the tooltip says why)."""
        self.restore.setEnabled(not busy)
        self.restore.setToolTip(
            self.tr("Stop the running turn first: restoring now would mix with its edits")
            if busy
            else self.tr("Put every file back as it was before this turn (you can undo it)")
        )
        # A disabled button shows no tooltip on some styles: the card says it too.
        self.setToolTip(self.restore.toolTip() if busy else "")
