"""The review view: one diff full-window, with its files, layout, wrap and change stepping.

Laid out as Zed's "Review changes" and VS Code's diff editor: a toolbar (back to the
conversation, what is reviewed, unified / side by side, wrap, previous / next change), the
changed files on the left, the diff on the right, and, for an edit that waits for approval,
the card's decisions at the bottom with the card's own keys. Narrower than 640 px (a window
below ~900 px with the sidebar shown) the file list folds away and the diff has the width. The
view only shows and asks; ``controller.ReviewController`` places it in the window and carries
decisions to the card.

Keys (while the view has the keyboard; the composer is not shown, so no key typed there
reaches it): Esc back to the conversation, Alt+↓ / Alt+↑ or F7 / Shift+F7 next / previous
change, Alt+PgDown / Alt+PgUp or F8 / Shift+F8 next / previous file, Alt+Shift+↓ / ↑ next /
previous hunk, Ctrl+Shift+D unified or side by side, Alt+Z wrap; with a pending request Y or
Enter approve, A always, N deny, Shift+N deny with a reason (on the card), Ctrl+Shift+N never;
with a change set (``show_changes``: a turn's or a conversation's, ``revert_bar``) Ctrl+Alt+Z
revert the hunk, Ctrl+Alt+Shift+Z revert the file, Ctrl+Z undo the last revert.
N and P are not "next/previous change": N denies on a card, and one key must not mean two things.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.diff import TOGGLE_SHORTCUT, WRAP_SHORTCUT, DiffView
from desktop.ui.review import revert_bar as rk
from desktop.ui.review.files import FileList
from desktop.ui.review.revert_bar import RevertBar
from desktop.ui.theme import ElidedLabel, set_role

#: Keys of the review's own commands (the decision keys are the card's).
CLOSE_KEYS = ("Esc",)
NEXT_CHANGE_KEYS = ("Alt+Down", "F7")
PREVIOUS_CHANGE_KEYS = ("Alt+Up", "Shift+F7")
#: A review narrower than this hides its file list and gives the diff the width (its file
#: headers still name every file): the list's 220 px beside a diff of at least 420 px.
FILES_MIN_WIDTH = 640
#: Decision keys, as on the card: (keys, Decision value or "reason").
DECISION_KEYS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("Y", "Return", "Enter"), "once"),
    (("A",), "always"),
    (("N",), "deny"),
    (("Shift+N",), "reason"),
    (("Ctrl+Shift+N",), "reject_always"),
)


def _tr(text: str) -> str:
    return QCoreApplication.translate("ReviewView", text)


class ReviewView(QFrame):
    """A diff under review, full-window.

    Signals:
        close_requested(): Esc or the back button.
        decision_requested(str): a decision key or button: a ``Decision`` value, or
            "reason" (deny with a reason, typed on the card).
    """

    close_requested = Signal()
    decision_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reviewView")
        self.setAccessibleName(QCoreApplication.translate("ReviewView", "Review changes"))
        self._offers_never = False
        self._many_files = False
        self.back = QToolButton(self)
        self.back.setText(QCoreApplication.translate("ReviewView", "← Conversation"))
        self.back.setToolTip(
            QCoreApplication.translate("ReviewView", "Back to the conversation (Esc)")
        )
        self.back.setAccessibleName(
            QCoreApplication.translate("ReviewView", "Back to the conversation")
        )
        self.title = ElidedLabel("", self)
        set_role(self.title, "cardTitle", polished=False)
        self.title.setAccessibleName(QCoreApplication.translate("ReviewView", "What is reviewed"))
        self.unified_button = self._segment(
            QCoreApplication.translate("ReviewView", "Unified"), "first"
        )
        self.split_button = self._segment(
            QCoreApplication.translate("ReviewView", "Side by side"), "last"
        )
        self.split_button.setToolTip(
            QCoreApplication.translate("ReviewView", "Unified or side by side ({key})").format(
                key=TOGGLE_SHORTCUT
            )
        )
        self.unified_button.setToolTip(self.split_button.toolTip())
        layouts = QButtonGroup(self)
        layouts.setExclusive(True)
        layouts.addButton(self.unified_button)
        layouts.addButton(self.split_button)
        self.wrap_button = QToolButton(self)
        self.wrap_button.setText(QCoreApplication.translate("ReviewView", "Wrap"))
        self.wrap_button.setCheckable(True)
        self.wrap_button.setToolTip(
            QCoreApplication.translate("ReviewView", "Wrap long lines ({key})").format(
                key=WRAP_SHORTCUT
            )
        )
        self.previous_button = QToolButton(self)
        self.previous_button.setText("↑")
        self.previous_button.setToolTip(
            QCoreApplication.translate("ReviewView", "Previous change (Alt+↑)")
        )
        self.previous_button.setAccessibleName(
            QCoreApplication.translate("ReviewView", "Previous change")
        )
        self.next_button = QToolButton(self)
        self.next_button.setText("↓")
        self.next_button.setToolTip(QCoreApplication.translate("ReviewView", "Next change (Alt+↓)"))
        self.next_button.setAccessibleName(QCoreApplication.translate("ReviewView", "Next change"))
        self.position = QLabel(self)
        set_role(self.position, "muted", polished=False)
        self.position.setAccessibleName(QCoreApplication.translate("ReviewView", "Current change"))
        for button in (self.back, self.wrap_button, self.previous_button, self.next_button,
                       self.unified_button, self.split_button):  # fmt: skip
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard stays on the diff
        self.files = FileList(self)
        self.diff = DiffView(self, bar=False)
        self.diff.set_toggle_shortcut_enabled(False)  # the view's own shortcut has it
        self.approval = QFrame(self)
        set_role(self.approval, "card", polished=False, status="waiting for approval")
        self.approval_text = QLabel(
            QCoreApplication.translate("ReviewView", "Waiting for your approval"), self.approval
        )
        set_role(self.approval_text, "status", polished=False, status="waiting for approval")
        self.approve_button = self._decision(
            QCoreApplication.translate("ReviewView", "Approve"), "Y", "once"
        )
        self.always_button = self._decision(
            QCoreApplication.translate("ReviewView", "Always"), "A", "always"
        )
        self.deny_button = self._decision(
            QCoreApplication.translate("ReviewView", "Deny"), "N", "deny"
        )
        self.reason_button = self._decision(
            QCoreApplication.translate("ReviewView", "Reason…"), "⇧N", "reason"
        )
        self.never_button = self._decision(
            QCoreApplication.translate("ReviewView", "Never"), "⌃⇧N", "reject_always"
        )
        set_role(self.approve_button, "primary", polished=False)
        set_role(self.deny_button, "danger", polished=False)
        #: Revert and undo for a turn's (or conversation's) changes (``show_changes``).
        self.revert = RevertBar(self.diff, self)
        self._build_layout()
        self._connect()
        self.setFocusProxy(self.diff.panes()[-1])

    def _segment(self, text: str, position: str) -> QPushButton:
        button = QPushButton(text, self)
        button.setCheckable(True)
        set_role(button, "segment", polished=False, position=position)
        return button

    def _decision(self, label: str, key: str, decision: str) -> QPushButton:
        button = QPushButton(f"{label}  {key}", self.approval)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.setAccessibleName(label)
        button.setAccessibleDescription(
            QCoreApplication.translate("ReviewView", "Shortcut: {keys}").format(keys=key)
        )
        button.clicked.connect(lambda: self.decision_requested.emit(decision))
        return button

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(10, 6, 10, 6)
        bar.setSpacing(8)
        bar.addWidget(self.back)
        bar.addWidget(self.title, 1)
        segments = QHBoxLayout()
        segments.setSpacing(0)
        segments.addWidget(self.unified_button)
        segments.addWidget(self.split_button)
        bar.addLayout(segments)
        for widget in (self.wrap_button, self.previous_button, self.next_button, self.position):
            bar.addWidget(widget)
        self.split = QSplitter(Qt.Orientation.Horizontal, self)
        self.split.setHandleWidth(1)
        self.split.addWidget(self.files)
        self.split.addWidget(self.diff)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([220, 800])
        row = QHBoxLayout(self.approval)
        row.setContentsMargins(12, 8, 12, 8)
        row.setSpacing(8)
        row.addWidget(self.approval_text, 1)
        for button in (self.approve_button, self.always_button, self.deny_button,
                       self.reason_button, self.never_button):  # fmt: skip
            row.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.split, 1)
        layout.addWidget(self.approval)
        layout.addWidget(self.revert)

    def _connect(self) -> None:
        self.back.clicked.connect(self.close_requested)
        self.split_button.toggled.connect(self.diff.set_side_by_side)
        self.diff.layout_changed.connect(self._on_layout)
        self.wrap_button.toggled.connect(self.diff.set_wrap)
        self.diff.wrap_changed.connect(self.wrap_button.setChecked)
        self.previous_button.clicked.connect(lambda: self.step_change(-1))
        self.next_button.clicked.connect(lambda: self.step_change(1))
        self.diff.change_changed.connect(self._show_position)
        self.files.file_chosen.connect(self._on_file_chosen)
        self.revert.file_reached.connect(self._on_file_reached)
        commands: list[tuple[tuple[str, ...], Callable[[], object]]] = [
            (CLOSE_KEYS, self.close_requested.emit),
            (NEXT_CHANGE_KEYS, lambda: self.step_change(1)),
            (PREVIOUS_CHANGE_KEYS, lambda: self.step_change(-1)),
            ((TOGGLE_SHORTCUT,), self.diff.toggle_layout),
            ((WRAP_SHORTCUT,), lambda: self.diff.set_wrap(not self.diff.is_wrapped())),
            (rk.NEXT_FILE_KEYS, lambda: self.revert.step_file(1)),
            (rk.PREVIOUS_FILE_KEYS, lambda: self.revert.step_file(-1)),
            (rk.NEXT_HUNK_KEYS, lambda: self.revert.step_hunk(1)),
            (rk.PREVIOUS_HUNK_KEYS, lambda: self.revert.step_hunk(-1)),
            (rk.REVERT_HUNK_KEYS, self.revert.revert_hunk),
            (rk.REVERT_FILE_KEYS, self.revert.revert_file),
        ]
        for keys, decision in DECISION_KEYS:
            commands.append((keys, partial(self._decision_key, decision)))
        self.shortcuts: dict[str, QShortcut] = {}
        for keys, slot in commands:
            for key in keys:
                shortcut = QShortcut(QKeySequence(key), self)
                shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                shortcut.setAutoRepeat(False)  # a held key decides nothing twice
                shortcut.activated.connect(slot)
                self.shortcuts[key] = shortcut

    # -- public API ----------------------------------------------------------------------

    def show_diff(self, title: str, diff: str, *, pending: bool, offers_never: bool) -> None:
        """Show ``diff`` under ``title``; ``pending``: with the approval decisions."""
        self.revert.hide()
        self._show(title, diff, pending=pending, offers_never=offers_never)

    def show_changes(self, title: str, diff: str, *, hunks: bool) -> None:
        """Show a change set's ``diff`` (every file) with Revert file, Revert hunk (when
        ``hunks``) and Undo; the files are listed even for one."""
        self._show(title, diff, pending=False, offers_never=False)
        self._many_files = bool(self.diff.model.files)
        self._fit_files()
        self.revert.start(hunks=hunks)

    def _show(self, title: str, diff: str, *, pending: bool, offers_never: bool) -> None:
        self.title.setText(title)
        self.title.setToolTip(title)
        self.diff.set_diff(diff)
        files = self.diff.model.files
        self.files.set_files(files)
        self._many_files = len(files) > 1
        self._fit_files()
        self._offers_never = offers_never
        self.set_pending(pending)
        self._on_layout(self.diff.is_side_by_side())
        self._show_position(-1, self.diff.change_count())

    def set_pending(self, pending: bool, status: str = "") -> None:
        """Show the decisions (``pending``) or, once decided elsewhere, ``status``."""
        for button in (self.approve_button, self.always_button, self.deny_button,
                       self.reason_button):  # fmt: skip
            button.setVisible(pending)
        self.never_button.setVisible(pending and self._offers_never)
        self.approval_text.setText(
            QCoreApplication.translate("ReviewView", "Waiting for your approval")
            if pending
            else status
        )
        self.approval.setVisible(pending or bool(status))

    def is_pending(self) -> bool:
        """Whether the decisions are offered."""
        return self.approve_button.isVisibleTo(self)

    def step_change(self, step: int) -> None:
        """Go to the next (1) or previous (-1) change."""
        self.diff.goto_change(step)

    def focus_diff(self) -> None:
        """Give the keyboard to the diff (arrows and Page keys scroll it)."""
        pane = self.diff.panes()[-1]
        self.setFocusProxy(pane)
        pane.setFocus(Qt.FocusReason.OtherFocusReason)

    def event(self, event: QEvent) -> bool:
        # Ctrl+Z is also the window's Edit ▸ Undo: while a revert can be undone the review
        # claims it before the window's shortcut (two owners would make it fire neither).
        if event.type() == QEvent.Type.ShortcutOverride and self.revert.claims(event):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.revert.claims(event):
            self.revert.undo()
            return
        super().keyPressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_files()

    # -- internals -----------------------------------------------------------------------

    def _fit_files(self) -> None:
        """The file list beside the diff, when there are files to list and room for both."""
        # The stack's width: the view fills it, and has not been resized yet when just shown.
        parent = self.parentWidget()
        width = parent.width() if parent is not None else self.width()
        self.files.setVisible(self._many_files and width >= FILES_MIN_WIDTH)

    def _on_file_chosen(self, index: int) -> None:
        rows = self.diff.file_rows()
        if 0 <= index < len(rows):
            self.revert.go_to_row(rows[index])

    def _on_file_reached(self, index: int) -> None:
        blocked = self.files.blockSignals(True)
        self.files.setCurrentRow(index)
        self.files.blockSignals(blocked)

    def _decision_key(self, decision: str) -> None:
        if not self.is_pending() or (decision == "reject_always" and not self._offers_never):
            return
        self.decision_requested.emit(decision)

    def _on_layout(self, side_by_side: bool) -> None:
        button = self.split_button if side_by_side else self.unified_button
        button.setChecked(True)
        focus = QApplication.focusWidget()
        had_focus = focus is not None and (focus is self or self.isAncestorOf(focus))
        self._show_position(-1, self.diff.change_count())
        if had_focus:
            self.focus_diff()

    def _show_position(self, index: int, total: int) -> None:
        if total == 0:
            text = QCoreApplication.translate("ReviewView", "No changes")
        elif index < 0:
            text = QCoreApplication.translate("ReviewView", "%n change(s)", "", total)
        else:
            text = QCoreApplication.translate("ReviewView", "{index} of {total}").format(
                index=index + 1, total=total
            )
        self.position.setText(text)
        self.previous_button.setEnabled(total > 0)
        self.next_button.setEnabled(total > 0)
