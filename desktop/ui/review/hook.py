"""The way from a pending approval card into the review: a Review button and Ctrl+Shift+R.

Attached from outside (the card is full: its keys, buttons and states are its own), only to
cards whose request is an edit with a diff. Ctrl+Shift+R has two modifiers, so it is never
typed by accident, and it acts only while the card has the keyboard, as the card's keys do.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QPushButton

from desktop.ui.approvals.card import ApprovalCard
from desktop.ui.diff import REVIEW_SHORTCUT


def _tr(text: str) -> str:
    return QCoreApplication.translate("ReviewHook", text)


def _is_review_key(event: QKeyEvent) -> bool:
    sequence = QKeySequence(event.keyCombination())
    return sequence.matches(QKeySequence(REVIEW_SHORTCUT)) == QKeySequence.SequenceMatch.ExactMatch


class _ReviewKey(QObject):
    """Ctrl+Shift+R on the card: claimed before window shortcuts, then it opens the review."""

    def __init__(self, card: ApprovalCard, open_review: Callable[[], object]) -> None:
        super().__init__(card)
        self._card = card
        self._open = open_review

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not isinstance(event, QKeyEvent) or not _is_review_key(event):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # ours, not a window action's
            return True
        if event.type() == QEvent.Type.KeyPress:
            if self._card.is_pending() and not event.isAutoRepeat():
                self._open()
            return True
        return False


def attach_review(card: ApprovalCard, open_review: Callable[[], object]) -> QPushButton | None:
    """Give ``card`` a Review button and key calling ``open_review``; None if not an edit.

    Attached once per card (a second call returns the first button).
    """
    existing = card.findChild(QPushButton, "reviewButton")
    if existing is not None:
        return existing
    if card.body.diff_view is None:
        return None
    button = QPushButton(
        QCoreApplication.translate("ReviewHook", "Review") + "  ⌃⇧R", card.action_row
    )
    button.setObjectName("reviewButton")
    name = QCoreApplication.translate("ReviewHook", "Review the change full-window")
    button.setAccessibleName(name)
    button.setAccessibleDescription(
        QCoreApplication.translate("ReviewHook", "Shortcut: {keys}").format(keys=REVIEW_SHORTCUT)
    )
    button.setToolTip(f"{name} ({REVIEW_SHORTCUT})")
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # focus stays on the card, as its buttons
    button.clicked.connect(lambda: card.is_pending() and open_review())
    layout = card.action_row.layout()
    if layout is not None:
        layout.addWidget(button)  # after the row's stretch: at its right end
    card.installEventFilter(_ReviewKey(card, open_review))
    return button
