"""The inline bar above the composer that restores a conversation's files to before a turn.

It asks once, in the window (no modal dialog): first the plan (each file that will change,
those edited after the turn marked, since restoring drops those edits too), Restore or Cancel;
then the outcome, with every file that could not be written and why, and "Undo restore",
which puts back the workspace as it was just before (the store recorded it first). The bar only
shows and asks; ``controller`` runs the store's calls.

Keys while it has the keyboard: Enter the focused button (Restore first), Esc cancel or dismiss.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from desktop.core.checkpoints.model import ChangeKind, FileChange, RestorePlan, RestoreResult
from desktop.ui.checkpoints.diffs import plural
from desktop.ui.theme import set_role, text_label

#: Files the plan lists before "and N more" (the review shows them all).
PLAN_ROWS = 8


def _what(change: FileChange) -> str:
    match change.kind:
        case ChangeKind.ADDED:
            return QCoreApplication.translate("RestoreBar", "comes back")
        case ChangeKind.DELETED:
            return QCoreApplication.translate("RestoreBar", "is removed")
        case ChangeKind.MODE:
            return QCoreApplication.translate("RestoreBar", "permissions change")
        case ChangeKind.MODIFIED:
            return QCoreApplication.translate("RestoreBar", "changes back")


class RestoreBar(QFrame):
    """Asks for a restore, then says how it went and offers to undo it.

    Signals:
        confirmed(int): Restore pressed (the turn to restore to before).
        undo_requested(): Undo restore pressed.
        closed(): Cancel or Dismiss (the bar hides itself).
    """

    confirmed = Signal(int)
    undo_requested = Signal()
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("restoreBar")
        set_role(self, "card", polished=False, tone="warning")
        self.turn = 0
        self.title = text_label()
        set_role(self.title, "cardTitle", polished=False)
        self.details = text_label()
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.confirm = QPushButton(self.tr("Restore"), self)
        set_role(self.confirm, "danger", polished=False)
        self.undo = QPushButton(self.tr("Undo restore"), self)
        self.undo.setAccessibleName(self.tr("Undo the restore: put the files back as they were"))
        self.dismiss = QPushButton(self.tr("Cancel"), self)
        self.confirm.clicked.connect(lambda: self.confirmed.emit(self.turn))
        self.undo.clicked.connect(self.undo_requested)
        self.dismiss.clicked.connect(self.close_bar)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.confirm, self.undo, self.dismiss):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 14, 10)
        layout.setSpacing(6)
        layout.addWidget(self.title)
        layout.addWidget(self.details)
        layout.addLayout(buttons)
        self.hide()

    # -- states --------------------------------------------------------------------------

    def show_plan(self, plan: RestorePlan) -> None:
        """Ask whether to restore to before ``plan.before_turn``, listing what will change."""
        self.turn = plan.before_turn
        files = plan.changes.files
        self.title.setText(
            QCoreApplication.translate("RestoreBar", "Restore the files to before turn {turn}?")
            .format(turn=plan.before_turn)
        )  # fmt: skip
        edited = sum(change.edited_since for change in files)
        lines = [
            plural(
                len(files),
                QCoreApplication.translate("RestoreBar", "1 file will change:"),
                QCoreApplication.translate("RestoreBar", "{n} files will change:"),
            )
            if files
            else QCoreApplication.translate("RestoreBar", "No file differs: nothing will change.")
        ]
        for change in files[:PLAN_ROWS]:
            line = f"<code>{_html(change.path)}</code> {_html(_what(change))}"
            if change.edited_since:
                mark = QCoreApplication.translate("RestoreBar", "edited after this turn")
                line += f" — <b>{_html(mark)}</b>"
            lines.append(line)
        if len(files) > PLAN_ROWS:
            more = len(files) - PLAN_ROWS
            lines.append(QCoreApplication.translate("RestoreBar", "and {n} more").format(n=more))
        if edited:
            lines.append(
                plural(
                    edited,
                    QCoreApplication.translate(
                        "RestoreBar",
                        "1 file was edited after this turn: restoring drops those edits too.",
                    ),
                    QCoreApplication.translate(
                        "RestoreBar",
                        "{n} files were edited after this turn: restoring drops those edits too.",
                    ),
                )
            )
        lines.append(
            QCoreApplication.translate(
                "RestoreBar", "The files as they are now are saved first: you can undo this."
            )
        )
        self._show("<br>".join(lines), confirm=bool(files), undo=False)
        self.dismiss.setText(self.tr("Cancel"))
        (self.confirm if files else self.dismiss).setFocus(Qt.FocusReason.OtherFocusReason)

    def show_working(self, text: str) -> None:
        """A call runs: its words, no buttons but Cancel disabled."""
        self.title.setText(text)
        self._show("", confirm=False, undo=False)
        self.dismiss.setEnabled(False)

    def show_result(self, result: RestoreResult, *, undone: bool) -> None:
        """How a restore (``undone``: an undo of one) went; a restore offers Undo restore."""
        count = len(result.restored)
        if undone:
            title = plural(
                count,
                QCoreApplication.translate("RestoreBar", "Restore undone: 1 file put back."),
                QCoreApplication.translate("RestoreBar", "Restore undone: {n} files put back."),
            )
        else:
            title = plural(
                count,
                QCoreApplication.translate("RestoreBar", "Restored 1 file."),
                QCoreApplication.translate("RestoreBar", "Restored {n} files."),
            )
        lines = []
        if result.failed:
            lines.append(
                plural(
                    len(result.failed),
                    QCoreApplication.translate("RestoreBar", "1 file could not be written:"),
                    QCoreApplication.translate("RestoreBar", "{n} files could not be written:"),
                )
            )
            lines += [f"<code>{_html(f.path)}</code>: {_html(f.reason)}" for f in result.failed]
            if not undone:
                lines.append(
                    QCoreApplication.translate(
                        "RestoreBar", "The workspace is only partly restored; Undo restore puts "
                        "it back as it was.",
                    )
                )  # fmt: skip
        self.title.setText(title)
        self._show("<br>".join(lines), confirm=False, undo=not undone)
        self.dismiss.setText(self.tr("Dismiss"))
        (self.undo if not undone else self.dismiss).setFocus(Qt.FocusReason.OtherFocusReason)

    def show_problem(self, message: str) -> None:
        """A call failed: its sentence, and Dismiss."""
        self.title.setText(message)
        self._show("", confirm=False, undo=False)
        self.dismiss.setText(self.tr("Dismiss"))

    def close_bar(self) -> None:
        """Hide the bar (Cancel, Dismiss, Esc)."""
        if self.dismiss.isEnabled():
            self.hide()
            self.closed.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            return
        focused = self.focusWidget()
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and isinstance(focused, QPushButton) and focused.isEnabled():
            focused.click()  # outside a dialog a button takes only Space; Enter too here
            return
        super().keyPressEvent(event)

    def _show(self, details: str, *, confirm: bool, undo: bool) -> None:
        self.details.setText(details)
        self.details.setVisible(bool(details))
        self.confirm.setVisible(confirm)
        self.undo.setVisible(undo)
        self.dismiss.setEnabled(True)
        self.setAccessibleName(self.title.text())
        self.show()


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
