"""The layout every list page of Settings shares: a list with Add and Remove under it on the
left, and the selected entry's details on the right in a scroll area (profiles, agents, MCP
servers)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


def list_and_detail(
    owner: QWidget, entries: QListWidget, add: QToolButton, remove: QToolButton
) -> QVBoxLayout:
    """Lay ``owner`` out as a list page; returns the (empty) layout of the details column."""
    left = QVBoxLayout()
    left.addWidget(entries, 1)
    buttons = QHBoxLayout()
    buttons.addWidget(add)
    buttons.addWidget(remove)
    buttons.addStretch(1)
    left.addLayout(buttons)
    column = QWidget()
    detail = QVBoxLayout(column)
    detail.setContentsMargins(0, 0, 8, 0)
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setWidget(column)
    layout = QHBoxLayout(owner)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(18)
    layout.addLayout(left)
    layout.addWidget(scroll, 1)
    return detail
