"""The icon engine of ``desktop.ui.icons``: one glyph of the icon font, painted in a palette
colour read when it is painted (so icons follow theme changes), at the device pixel ratio.

Qt asks a custom engine for a pixmap at every paint of a button (it caches only its own
engines' pixmaps), so each engine keeps the few pixmaps it drew, by size, mode, scale and
colour: a repaint of the conversation (every frame while an answer streams) draws no glyph.

A module of its own so that the window shell, which decorates its buttons before the first
paint, does not load ``QIconEngine``, ``QPainter`` and friends until ``icons.load`` runs.
"""

from __future__ import annotations

from PySide6 import QtCore
from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QColor, QFont, QIcon, QIconEngine, QPainter, QPixmap

from desktop.ui import theme

#: Pixmaps one engine keeps (a few sizes, modes and scales in two themes).
_KEPT = 16


class GlyphEngine(QIconEngine):
    """Draws one glyph of the icon font, in the theme's colour of the moment."""

    def __init__(self, glyph: str, family: str, role: str) -> None:
        super().__init__()
        self._glyph = glyph
        self._family = family
        self._role = role
        self._pixmaps: dict[tuple[int, int, int, int, float, int], QPixmap] = {}

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
        colour = self._colour(mode).rgba()
        key = (size.width(), size.height(), mode.value, state.value, scale, colour)
        pixmap = self._pixmaps.get(key)
        if pixmap is not None:
            return pixmap
        pixmap = QPixmap(size * scale)
        pixmap.setDevicePixelRatio(scale)
        pixmap.fill(QtCore.Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        self.paint(painter, QRect(QPoint(0, 0), size), mode, state)
        painter.end()
        if len(self._pixmaps) >= _KEPT:  # sizes and themes come and go: keep the recent ones
            self._pixmaps.clear()
        self._pixmaps[key] = pixmap
        return pixmap
