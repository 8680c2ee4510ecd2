"""What both sidebar lists share: the row data role and the two-line row delegate.

Rows are painted by delegates: a title and a muted second line, with the row background from
the style sheet (``QListWidget#sidebarList::item``), so the lists follow the theme. The
conversation list (``lists``) and the search results (``results``) subclass ``TwoLineDelegate``.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from desktop.ui import theme

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
PAD_X, PAD_Y, GAP = 10, 7, 2

Index = QModelIndex | QPersistentModelIndex


def small_font(font: QFont) -> QFont:
    """``font`` made smaller, for a row's second line."""
    small = QFont(font)
    small.setPointSizeF(max(7.0, font.pointSizeF() * 0.86))
    return small


class TwoLineDelegate(QStyledItemDelegate):
    """Background from the style, then a bold title and a muted line under it."""

    def _lines(self, index: Index) -> tuple[str, str]:
        return str(index.data(Qt.ItemDataRole.DisplayRole) or ""), ""

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        title, small = option.fontMetrics.height(), small_font(option.font)
        return QSize(option.rect.width(), title + QFontMetrics(small).height() + 2 * PAD_Y + GAP)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, opt, painter, widget)
        title, second = self._lines(index)
        colours = theme.current()
        rect = option.rect.adjusted(PAD_X, PAD_Y, -PAD_X, -PAD_Y)
        painter.save()
        bold = QFont(option.font)
        bold.setWeight(QFont.Weight.DemiBold)
        painter.setFont(bold)
        painter.setPen(QColor(colours.text))
        metrics = painter.fontMetrics()
        top = QRect(rect.left(), rect.top(), rect.width(), metrics.height())
        elided = metrics.elidedText(title, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(
            top, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), elided
        )
        self._paint_second(painter, option, index, rect, top.bottom() + GAP, second)
        painter.restore()

    def _paint_second(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: Index,
        rect: QRect,
        y: int,
        text: str,
    ) -> None:
        small = small_font(option.font)
        painter.setFont(small)
        painter.setPen(QColor(theme.current().muted))
        metrics = painter.fontMetrics()
        line = QRect(rect.left(), y, rect.width(), metrics.height())
        elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(
            line, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), elided
        )
