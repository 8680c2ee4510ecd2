"""The icon engine of ``desktop.ui.icons``: one glyph of the icon font, painted in a palette
colour read when it is painted (so icons follow theme changes), at the device pixel ratio.

A module of its own so that the window shell, which decorates its buttons before the first
paint, does not load ``QIconEngine``, ``QPainter`` and friends until ``icons.load`` runs.
"""

from __future__ import annotations

from PySide6 import QtCore
from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QColor, QFont, QIcon, QIconEngine, QPainter, QPixmap

from desktop.ui import theme


class GlyphEngine(QIconEngine):
    """Draws one glyph of the icon font, in the theme's colour of the moment."""

    def __init__(self, glyph: str, family: str, role: str) -> None:
        super().__init__()
        self._glyph = glyph
        self._family = family
        self._role = role

    def clone(self) -> QIconEngine:
        return GlyphEngine(self._glyph, self._family, self._role)

    def _colour(self, mode: QIcon.Mode) -> QColor:
        colours = theme.current()
        if mode == QIcon.Mode.Disabled:
            return QColor(colours.muted)
        return QColor(str(getattr(colours, self._role, colours.text)))

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        font = QFont(self._family)
        font.setPixelSize(max(1, round(min(rect.width(), rect.height()) * 0.95)))
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.setFont(font)
        painter.setPen(self._colour(mode))
        painter.drawText(rect, int(QtCore.Qt.AlignmentFlag.AlignCenter), self._glyph)
        painter.restore()

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        return self.scaledPixmap(size, mode, state, 1.0)

    def scaledPixmap(
        self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float
    ) -> QPixmap:
        pixmap = QPixmap(size * scale)
        pixmap.setDevicePixelRatio(scale)
        pixmap.fill(QtCore.Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        self.paint(painter, QRect(QPoint(0, 0), size), mode, state)
        painter.end()
        return pixmap
