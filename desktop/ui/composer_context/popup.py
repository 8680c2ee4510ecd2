"""The composer's choice popup: a short list above the prompt that the keyboard drives from the
prompt itself (↑/↓ move, Enter or Tab picks, Esc closes; the focus never leaves the prompt).

The ``@`` finder and the ``/`` menu both show their choices here: a title and a muted detail
per row (a file's name and folder; a command and what it does).
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.theme import follow

# Rows shown before the list scrolls.
VISIBLE_ROWS = 8

_SHEET = """
QFrame#contextPopup {{ background: {window}; border: 1px solid {border}; border-radius: 10px; }}
QListWidget#contextChoices {{ background: transparent; border: none; outline: 0; }}
QListWidget#contextChoices::item {{ border-radius: 6px; padding: 0; }}
QListWidget#contextChoices::item:selected {{ background: {user_bubble}; }}
QLabel#choiceTitle {{ color: {text}; font-weight: 600; background: transparent; }}
QLabel#choiceDetail {{ color: {muted}; font-size: 9pt; background: transparent; }}
QLabel#popupHeading {{ color: {muted}; font-size: 8.5pt; font-weight: 600; padding: 6px 10px 2px; }}
"""


class PopupChoice(NamedTuple):
    """One row: its key (what is picked), its title and a detail in muted text."""

    key: str
    title: str
    detail: str = ""


class ChoicePopup(QFrame):
    """A list of choices floating above an anchor widget (the composer).

    Signals:
        picked(str): the key of the chosen row (Enter, Tab or a click).
    """

    picked = Signal(str)

    def __init__(self, anchor: QWidget) -> None:
        # Over what is above the anchor: a child of the anchor's parent (the composer's pane).
        super().__init__(anchor.parentWidget() or anchor)
        self._anchor = anchor
        self.setObjectName("contextPopup")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        follow(self, _SHEET)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 4)
        layout.setSpacing(0)
        self.heading = QLabel()
        self.heading.setObjectName("popupHeading")
        layout.addWidget(self.heading)
        self.list = QListWidget()
        self.list.setObjectName("contextChoices")
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.itemClicked.connect(self._clicked)
        layout.addWidget(self.list)
        self.hide()

    def _clicked(self, item: QListWidgetItem) -> None:
        self.picked.emit(str(item.data(Qt.ItemDataRole.UserRole)))

    def show_choices(self, heading: str, choices: list[PopupChoice]) -> None:
        """Show ``choices`` (hidden when there are none), the first one selected."""
        self.list.clear()
        if not choices:
            self.hide()
            return
        self.heading.setText(heading)
        for choice in choices:
            item = QListWidgetItem()
            item.setData(Qt.ItemDataRole.UserRole, choice.key)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{choice.title} {choice.detail}")
            row = _row(choice)
            item.setSizeHint(row.sizeHint())
            self.list.addItem(item)
            self.list.setItemWidget(item, row)
        self.list.setCurrentRow(0)
        self._place()
        self.show()
        self.raise_()

    def keys(self) -> list[str]:
        """The keys of the rows shown, in order."""
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())]

    def current_key(self) -> str | None:
        """The key of the selected row."""
        item = self.list.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def step(self, rows: int) -> None:
        """Select the row ``rows`` rows down (up when negative), wrapping around."""
        count = self.list.count()
        if count:
            self.list.setCurrentRow((self.list.currentRow() + rows) % count)

    def pick(self) -> None:
        """Choose the selected row."""
        key = self.current_key()
        if key is not None:
            self.picked.emit(key)

    def _place(self) -> None:
        """Above the anchor, as wide as it (at most 560 px), at most ``VISIBLE_ROWS`` rows."""
        anchor = self._anchor
        rows = min(self.list.count(), VISIBLE_ROWS)
        row_height = self.list.sizeHintForRow(0) if self.list.count() else 0
        list_height = rows * row_height + 2 * self.list.frameWidth() + 4
        self.list.setFixedHeight(list_height)
        width = min(anchor.width() - 48, 560)
        self.setFixedWidth(max(width, 240))
        height = list_height + self.heading.sizeHint().height() + 8
        self.setFixedHeight(height)
        parent = self.parentWidget()
        top_left = anchor.mapTo(parent, QPoint(24, 0)) if parent is not None else QPoint(24, 0)
        self.move(top_left.x(), max(0, top_left.y() - height + 6))


def _row(choice: PopupChoice) -> QWidget:
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(8, 5, 8, 5)
    layout.setSpacing(10)
    title = QLabel(choice.title)
    title.setObjectName("choiceTitle")
    layout.addWidget(title)
    detail = QLabel(choice.detail)
    detail.setObjectName("choiceDetail")
    detail.setTextFormat(Qt.TextFormat.PlainText)
    layout.addWidget(detail, 1)
    return row
