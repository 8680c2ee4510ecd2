"""Keeps the transcript's column opaque and static, so a streaming answer paints what is new.

A streaming answer grows the column and moves it every frame while the view follows the
bottom. Qt moves a child widget by copying its pixels (and paints only what came into view) when
the widget is opaque, filled with its palette's background: a transparent column made Qt paint
the window, the pane and the scroll area under it again each time. A style sheet turns a
widget's fill off whenever it is polished (the theme, zoom), so the fill is turned on again
after each polish. And a widget that grows repaints all of itself, children included, unless it
is marked ``WA_StaticContents`` (its content stays where it is; only the new area is painted):
the column, each row's container, an answer, its pages and documents are (``AnswerDocument``
paints only the blocks it appends).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QWidget

_RESTYLED = (QEvent.Type.Polish, QEvent.Type.StyleChange, QEvent.Type.PaletteChange)


class _Fill(QObject):
    """Turns ``autoFillBackground`` on again once a style sheet has turned it off."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        widget = watched if isinstance(watched, QWidget) else None
        if widget is not None and event.type() in _RESTYLED and not widget.autoFillBackground():
            widget.setAutoFillBackground(True)
        return False


def keep_opaque(widget: QWidget) -> None:
    """Fill ``widget`` with its background now and after every change of style; static."""
    fill = _Fill(widget)
    widget.installEventFilter(fill)
    widget.setAutoFillBackground(True)
    widget.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
