"""The button a window plug-in adds to the composer (``Composer.add_action``, e.g. "Suggest").

A narrow composer shows its buttons' icons alone, but a plug-in's button gets its icon after it
is added (or when the icon font loads, after the first frame): ``PluginButton`` says when its
icon arrives, so the composer applies the compact rule to it then, as to its own buttons.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QPushButton

if TYPE_CHECKING:  # the composer paints before QIcon is built (its enums: ~2 ms at start-up)
    from PySide6.QtGui import QIcon, QPixmap


class PluginButton(QPushButton):
    """A push button that calls ``on_icon`` with itself each time it is given an icon."""

    def __init__(self, text: str, on_icon: Callable[[QPushButton], None]) -> None:
        super().__init__(text)
        self._on_icon = on_icon

    def setIcon(self, icon: QIcon | QPixmap) -> None:
        """Set the icon, then tell the composer (which may now hide the text)."""
        super().setIcon(icon)
        self._on_icon(self)
