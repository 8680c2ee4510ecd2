"""``JumpToLatest``: the floating "Jump to latest ↓" button of a scrolled-up conversation.

``view.ConversationView`` sticks to the bottom while the user has not scrolled up; once they
have, this pill floats over the bottom of the conversation, centred a little above the
viewport's lower edge, and a click scrolls back down. Kept apart from the view because it is a
widget with its own looks and place: the view says when it shows (``set_shown``) and connects its
click; the button never takes the keyboard (a click leaves it in the composer or on a card).
Its texts keep the view's translation context, where the catalogue has them.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QPushButton, QScrollArea

from desktop.ui.icons import Icon, decorate
from desktop.ui.theme import set_role

#: Gap between the "Jump to latest" button and the bottom of the conversation.
_JUMP_GAP = 16


class JumpToLatest:
    """The button over ``view``'s viewport (hidden until ``set_shown(True)``).

    Args:
        view: The scrolling conversation; the button is its child, placed over its viewport.
    """

    def __init__(self, view: QScrollArea) -> None:
        self._view = view
        said = QCoreApplication.translate("ConversationView", "Jump to latest")
        self.button = jump = QPushButton(said, view)
        decorate(jump, Icon.JUMP_TO_LATEST, role="accent_text", size=14)
        jump.setObjectName("jumpToLatest")
        jump.setAccessibleName(said)
        jump.setToolTip(
            QCoreApplication.translate(
                "ConversationView", "Scroll to the latest message (Ctrl+End)"
            )
        )
        jump.setCursor(Qt.CursorShape.PointingHandCursor)
        # Clicking it leaves the keyboard where it is (in the composer, on a card).
        jump.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        set_role(jump, "primary", polished=False)
        # A pill (shape only: the colours are the theme's "primary" role).
        jump.setStyleSheet("QPushButton { border-radius: 13px; padding: 5px 18px; }")
        jump.hide()

    def set_shown(self, shown: bool) -> None:
        """Show the button in its place, above the conversation, or hide it."""
        if shown:
            self.place()
            self.button.raise_()
        self.button.setVisible(shown)

    def place(self) -> None:
        """Centre the button a gap above the bottom of the viewport (it moved or resized)."""
        jump = self.button
        size = jump.sizeHint()
        area = self._view.viewport().geometry()
        jump.setGeometry(
            area.center().x() - size.width() // 2,
            area.bottom() - size.height() - _JUMP_GAP,
            size.width(),
            size.height(),
        )
