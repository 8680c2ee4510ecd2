"""Colours and the style sheet: light or dark, following the system colour scheme.

Widgets get their look from object names and dynamic properties (``role="…"``) matched in one
style sheet, so no widget hard-codes colours (except rendered rich text, which asks ``palette``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, NamedTuple

from PySide6 import QtCore, QtGui
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QWidget

if TYPE_CHECKING:
    from PySide6.QtGui import QPaintEvent

# ``Qt`` is reached as ``QtCore.Qt`` inside functions: naming it at import time makes PySide
# build the Python enums of the whole ``Qt`` namespace (~100, ~15 ms), and the first window
# paints before anything needs them (``desktop.ui.startup``).


class Palette(NamedTuple):
    """The few colours the app uses (a NamedTuple: ``dataclasses`` costs ~2 ms before the
    first paint)."""

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


#: The scheme remembered from the previous run, used until ``confirm_scheme`` (start-up only).
_assumed_dark: bool | None = None


def forced_scheme() -> bool | None:
    """``AGENTDESK_THEME=dark|light``: True/False; None when the system decides."""
    forced = os.environ.get("AGENTDESK_THEME", "").lower()
    return forced == "dark" if forced in ("dark", "light") else None


def system_is_dark() -> bool:
    """Whether the desktop asks for a dark scheme (``AGENTDESK_THEME`` can force one)."""
    forced = forced_scheme()
    if forced is not None:
        return forced
    if _assumed_dark is not None:
        return _assumed_dark
    return _asks_dark()


def _asks_dark() -> bool:
    hints = QtGui.QGuiApplication.styleHints()
    return bool(hints.colorScheme() == QtCore.Qt.ColorScheme.Dark)


def assume_scheme(dark: bool | None) -> None:
    """Use ``dark`` (the scheme of the previous run) instead of asking the desktop.

    Asking returns a ``Qt.ColorScheme``, and the first Python use of any ``Qt`` enum builds
    them all; the first window paints without that cost. ``confirm_scheme`` asks afterwards.
    """
    global _assumed_dark
    _assumed_dark = dark


def assumed_scheme() -> bool | None:
    """The scheme set by ``assume_scheme`` and not yet confirmed (None: none)."""
    return _assumed_dark


def confirm_scheme(app: QApplication) -> bool:
    """Ask the desktop for its scheme; re-apply the theme if the assumed one was wrong.

    Returns whether the desktop asks for a dark scheme.
    """
    global _assumed_dark
    assumed, _assumed_dark = _assumed_dark, None
    dark = system_is_dark()
    if assumed is not None and assumed != dark:
        apply(app)
    return dark


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
QFrame[role="card"][tone="warning"] {{ border: 1px solid {warning}; }}
QLabel[role="muted"][tone="warning"] {{ color: {warning}; font-weight: 600; }}
QFrame[role="exit"] {{ background: {surface}; border: 1px solid {danger}; border-radius: 10px; }}
QFrame[role="card"][host="approval"] {{ border: none; background: transparent; }}
QFrame#approvalCard {{ background: {surface}; border: 1px solid {border}; border-radius: 10px;
    padding: 1px; }}
QFrame#approvalCard[state="pending"] {{ border: 1px solid {accent}; }}
QFrame#approvalCard[tone="bad"] {{ border: 1px solid {danger}; }}
QFrame#approvalCard:focus {{ border: 2px solid {accent}; padding: 0px; background: {user_bubble}; }}
QLabel[role="reviewHint"] {{ color: {accent}; font-size: 9pt; font-weight: 600; }}
QLabel[role="cardTitle"] {{ font-weight: 600; }}
QLabel[role="diffAdded"] {{ color: {success}; font-size: 9.5pt; }}
QLabel[role="diffRemoved"] {{ color: {danger}; font-size: 9.5pt; }}
QLabel[role="outsideWarning"] {{ color: {danger}; font-weight: 600; }}
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
QToolButton#modeButton {{ background: {surface}; border: 1px solid {border}; border-radius: 7px;
    padding: 4px 10px; }}
QToolButton#modeButton:hover, QToolButton#modeButton:focus {{ border-color: {accent}; }}
QFrame#rulesPanel {{ background: {window}; border: 1px solid {border}; }}
QFrame#rulesPanel QRadioButton {{ padding: 4px 8px 0; font-weight: 600; }}
QFrame#rulesPanel QRadioButton::indicator {{ width: 12px; height: 12px; border-radius: 7px;
    border: 1px solid {muted}; background: {window}; }}
QFrame#rulesPanel QRadioButton::indicator:checked {{ width: 6px; height: 6px;
    border: 4px solid {accent}; }}
QLabel[role="sectionTitle"] {{ color: {muted}; font-size: 8.5pt; font-weight: 600;
    padding: 6px 8px 4px; }}
QFrame[role="separator"] {{ background: {border}; border: none; }}
QFrame[role="ruleRow"] {{ border-radius: 6px; }}
QFrame[role="ruleRow"]:hover {{ background: {surface}; }}
QLabel[role="ruleTitle"] {{ font-weight: 600; }}
QLabel[role="ruleDetail"] {{ color: {muted}; font-size: 9pt; }}
QPushButton[role="revoke"] {{ background: transparent; border: 1px solid transparent;
    color: {danger}; padding: 3px 10px; }}
QPushButton[role="revoke"]:hover, QPushButton[role="revoke"]:focus {{ border-color: {danger}; }}
QStatusBar {{ background: {sidebar}; color: {muted}; border-top: 1px solid {border}; }}
QStatusBar QLabel {{ color: {muted}; padding: 0 8px; font-size: 9pt; }}
QSplitter::handle {{ background: {border}; }}
QLabel[role="emptyTitle"] {{ font-size: 15pt; font-weight: 600; }}
QLabel[role="keycap"] {{ color: {text}; background: {surface}; border: 1px solid {border};
    border-bottom-width: 2px; border-radius: 5px; padding: 1px 7px; font-size: 9pt; }}
QLabel[role="path"] {{ color: {muted}; font-family: monospace; font-size: 9.5pt; }}
QLabel[role="welcomeTitle"] {{ font-size: 17pt; font-weight: 600; }}
QLabel[role="message"][level="success"] {{ color: {success}; }}
QWidget#welcomeCard {{ background: {surface}; border: 1px solid {border}; border-radius: 14px; }}
QWidget#welcomeCard QLabel {{ background: transparent; }}
QWidget#welcomeCard QLineEdit {{ background: {window}; border: 1px solid {border};
    border-radius: 7px; padding: 6px 9px; }}
QWidget#welcomeCard QLineEdit:focus {{ border-color: {accent}; }}
QWidget#welcomeBody, QScrollArea#welcomeScroll {{ background: {window}; border: none; }}
QPushButton[role="segment"] {{ background: {window}; border-radius: 0; padding: 7px 14px; }}
QPushButton[role="segment"][position="first"] {{ border-top-left-radius: 8px;
    border-bottom-left-radius: 8px; }}
QPushButton[role="segment"][position="last"] {{ border-top-right-radius: 8px;
    border-bottom-right-radius: 8px; }}
QPushButton[role="segment"]:checked {{ background: {user_bubble}; border-color: {accent};
    color: {accent}; }}
QPushButton[role="link"] {{ background: transparent; border: none; color: {accent};
    padding: 5px 0; }}
QPushButton[role="chipButton"] {{ padding: 4px 9px; font-size: 9pt; }}
QFrame[role="fixBanner"] {{ background: {surface}; border: 1px solid {warning};
    border-radius: 10px; margin: 0 24px; }}
"""


def apply(app: QApplication, *, style: bool = True) -> Palette:
    """Set the Fusion style, a matching ``QPalette`` and the style sheet on ``app``.

    ``style=False``: the application already has the Fusion style (``make_application``).
    """
    colours = current()
    if style:
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
    app.setStyleSheet(_QSS.format(**colours._asdict()))
    return colours


def set_role(widget: QWidget, role: str, *, polished: bool = True, **props: str) -> None:
    """Set style-sheet properties and re-polish (properties changed after polish need it).

    ``polished=False``: the widget was just created and is polished when first shown, so the
    properties need no re-polish (and its ``style()`` wrapper is not made before the paint).
    """
    widget.setProperty("role", role)
    for name, value in props.items():
        widget.setProperty(name, value)
    if polished:
        style = widget.style()
        style.unpolish(widget)
        style.polish(widget)


def text_label(text: str = "", *, rich: bool = False, role: str | None = None) -> QLabel:
    """A selectable, wrapping label."""
    qt = QtCore.Qt
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(qt.TextFormat.RichText if rich else qt.TextFormat.PlainText)
    label.setTextInteractionFlags(
        qt.TextInteractionFlag.TextSelectableByMouse | qt.TextInteractionFlag.LinksAccessibleByMouse
    )
    label.setOpenExternalLinks(True)
    if role:
        set_role(label, role)
    return label


class ElidedLabel(QLabel):
    """One line that shortens itself with "…" instead of widening the conversation column."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        from PySide6.QtWidgets import QSizePolicy

        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(24)

    def paintEvent(self, _event: QPaintEvent) -> None:
        qt = QtCore.Qt
        painter = QtGui.QPainter(self)
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(
            self.text(), qt.TextElideMode.ElideMiddle, rect.width()
        )
        painter.drawText(rect, int(self.alignment() | qt.AlignmentFlag.AlignVCenter), text)
