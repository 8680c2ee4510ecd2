"""Colours and the style sheet: light or dark, following the system colour scheme.

Widgets get their look from object names and dynamic properties (``role="…"``) matched in one
style sheet, so no widget hard-codes colours (except rendered rich text, which asks ``palette``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QSizePolicy, QWidget


@dataclass(frozen=True)
class Palette:
    """The few colours the app uses."""

    dark: bool
    window: str
    surface: str
    sidebar: str
    border: str
    text: str
    muted: str
    accent: str
    accent_text: str
    user_bubble: str
    danger: str
    warning: str
    success: str


LIGHT = Palette(
    dark=False,
    window="#ffffff",
    surface="#f6f7f9",
    sidebar="#f1f2f5",
    border="#dfe2e8",
    text="#1f2328",
    muted="#6b7280",
    accent="#3b6ef5",
    accent_text="#ffffff",
    user_bubble="#e8eefe",
    danger="#d1383d",
    warning="#b7791f",
    success="#2f9e5b",
)
DARK = Palette(
    dark=True,
    window="#17191e",
    surface="#20232a",
    sidebar="#1b1d22",
    border="#2f333c",
    text="#e6e8eb",
    muted="#9096a1",
    accent="#5b8cff",
    accent_text="#ffffff",
    user_bubble="#263049",
    danger="#f0666b",
    warning="#e0a84a",
    success="#4cc27d",
)


def system_is_dark() -> bool:
    """Whether the desktop asks for a dark scheme (``AGENTDESK_THEME`` can force one)."""
    forced = os.environ.get("AGENTDESK_THEME", "").lower()
    if forced in ("dark", "light"):
        return forced == "dark"
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def current() -> Palette:
    """The palette in use."""
    return DARK if system_is_dark() else LIGHT


_QSS = """
QMainWindow, QWidget#conversationPane, QWidget#transcript {{ background: {window}; }}
QWidget {{ color: {text}; font-size: 10.5pt; }}
QListWidget#sidebarList {{ background: {sidebar}; border: none; padding: 6px; outline: 0; }}
QListWidget#sidebarList::item {{ padding: 8px 10px; border-radius: 6px; margin: 1px 0; }}
QListWidget#sidebarList::item:selected {{ background: {user_bubble}; color: {text}; }}
QListWidget#sidebarList::item:hover:!selected {{ background: {surface}; }}
QWidget#sidebar {{ background: {sidebar}; border-right: 1px solid {border}; }}
QLabel#sidebarTitle {{ color: {muted}; font-size: 9pt; font-weight: 600; padding: 10px 12px 2px; }}
QLabel#workspaceName {{ font-size: 12pt; font-weight: 600; padding: 12px 12px 0; }}
QTextBrowser#markdown {{ background: transparent; border: none; }}
QScrollArea#conversationScroll {{ border: none; background: {window}; }}
QFrame[role="user"] {{ background: {user_bubble}; border-radius: 12px; }}
QFrame[role="card"] {{ background: {surface}; border: 1px solid {border}; border-radius: 10px; }}
QFrame[role="card"][status="waiting for approval"] {{ border: 1px solid {accent}; }}
QFrame[role="card"][status="failed"], QFrame[role="card"][status="denied"] {{
    border: 1px solid {danger}; }}
QFrame[role="exit"] {{ background: {surface}; border: 1px solid {danger}; border-radius: 10px; }}
QLabel[role="muted"] {{ color: {muted}; }}
QLabel[role="toolName"] {{ font-weight: 600; }}
QLabel[role="chip"] {{ color: {muted}; border: 1px solid {border}; border-radius: 8px;
    padding: 1px 7px; font-size: 8.5pt; }}
QLabel[role="status"] {{ color: {muted}; font-size: 9pt; }}
QLabel[role="status"][status="succeeded"] {{ color: {success}; }}
QLabel[role="status"][status="failed"], QLabel[role="status"][status="denied"] {{
    color: {danger}; }}
QLabel[role="status"][status="waiting for approval"] {{ color: {accent}; font-weight: 600; }}
QLabel[role="message"][level="error"] {{ color: {danger}; }}
QLabel[role="message"][level="warning"] {{ color: {warning}; }}
QLabel[role="message"][level="info"] {{ color: {muted}; }}
QPlainTextEdit[role="output"] {{ background: {window}; border: 1px solid {border};
    border-radius: 6px; font-family: monospace; font-size: 9pt; }}
QFrame#composerFrame {{ background: {surface}; border: 1px solid {border}; border-radius: 12px; }}
QPlainTextEdit#composer {{ background: transparent; border: none; font-size: 11pt; }}
QPushButton {{ background: {surface}; border: 1px solid {border}; border-radius: 7px;
    padding: 5px 12px; }}
QPushButton:hover {{ border-color: {accent}; }}
QPushButton:disabled {{ color: {muted}; }}
QPushButton[role="primary"] {{ background: {accent}; color: {accent_text}; border: none; }}
QPushButton[role="danger"] {{ color: {danger}; }}
QPushButton[role="danger"]:disabled {{ color: {muted}; }}
QToolButton {{ border: none; padding: 3px 6px; border-radius: 6px; }}
QToolButton:hover {{ background: {surface}; }}
QComboBox {{ background: {surface}; border: 1px solid {border}; border-radius: 7px;
    padding: 4px 10px; }}
QStatusBar {{ background: {sidebar}; color: {muted}; border-top: 1px solid {border}; }}
QStatusBar QLabel {{ color: {muted}; padding: 0 8px; font-size: 9pt; }}
QSplitter::handle {{ background: {border}; }}
"""


def apply(app: QApplication) -> Palette:
    """Set the Fusion style, a matching ``QPalette`` and the style sheet on ``app``."""
    colours = current()
    app.setStyle("Fusion")
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.Window, QColor(colours.window))
    palette.setColor(QPalette.ColorRole.Base, QColor(colours.window))
    palette.setColor(QPalette.ColorRole.AlternateBase, QColor(colours.surface))
    palette.setColor(QPalette.ColorRole.Text, QColor(colours.text))
    palette.setColor(QPalette.ColorRole.WindowText, QColor(colours.text))
    palette.setColor(QPalette.ColorRole.ButtonText, QColor(colours.text))
    palette.setColor(QPalette.ColorRole.Button, QColor(colours.surface))
    palette.setColor(QPalette.ColorRole.Highlight, QColor(colours.accent))
    palette.setColor(QPalette.ColorRole.HighlightedText, QColor(colours.accent_text))
    palette.setColor(QPalette.ColorRole.PlaceholderText, QColor(colours.muted))
    palette.setColor(QPalette.ColorRole.Link, QColor(colours.accent))
    app.setPalette(palette)
    app.setStyleSheet(_QSS.format(**colours.__dict__))
    return colours


def set_role(widget: QWidget, role: str, **props: str) -> None:
    """Set style-sheet properties and re-polish (properties changed after polish need it)."""
    widget.setProperty("role", role)
    for name, value in props.items():
        widget.setProperty(name, value)
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)


def text_label(text: str = "", *, rich: bool = False, role: str | None = None) -> QLabel:
    """A selectable, wrapping label."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(
        Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.LinksAccessibleByMouse
    )
    label.setOpenExternalLinks(True)
    if role:
        set_role(label, role)
    return label


class ElidedLabel(QLabel):
    """One line that shortens itself with "…" instead of widening the conversation column."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(24)

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideMiddle, rect.width()
        )
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), text)
