"""The style sheet and applying the palette in use (``desktop.ui.palette``) to everything.

Widgets get their look from object names and dynamic properties (``role="…"``) matched in one
style sheet, so no widget hard-codes colours (except rendered rich text, which asks ``palette``).
``apply`` styles the application, the widgets with their own sheet (``follow``) and tells the
listeners (``on_change``) from ONE palette: the user's choice (Settings ▸ Appearance, ``choose``)
or, for "system", the desktop's scheme, followed live (``watch_system``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtCore, QtGui
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from desktop.ui import zoom
from desktop.ui.palette import DARK as DARK
from desktop.ui.palette import LIGHT as LIGHT
from desktop.ui.palette import Choice as Choice
from desktop.ui.palette import Palette as Palette
from desktop.ui.palette import assume_scheme as assume_scheme
from desktop.ui.palette import assumed_scheme as assumed_scheme
from desktop.ui.palette import choose as choose
from desktop.ui.palette import chosen as chosen
from desktop.ui.palette import current as current
from desktop.ui.palette import forced_scheme as forced_scheme
from desktop.ui.palette import qt_palette as qt_palette
from desktop.ui.palette import system_is_dark as system_is_dark

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtGui import QPaintEvent

# ``Qt`` is reached as ``QtCore.Qt`` inside functions: naming it at import time makes PySide
# build the Python enums of the whole ``Qt`` namespace (~100, ~15 ms), and the first window
# paints before anything needs them (``desktop.ui.startup``).


#: Called after every ``apply`` with the palette now in use (``on_change``).
_listeners: list[Callable[[Palette], None]] = []
#: The dynamic property holding a widget's own style-sheet template (``follow``).
_SHEET_PROPERTY = "themeSheet"
#: The palette of the last ``apply`` (None: not yet applied).
_applied: Palette | None = None


def confirm_scheme(app: QApplication) -> bool:
    """Ask the desktop for its scheme, re-apply the theme if the palette in use is not the
    one it now resolves to, and follow the desktop's later changes (``watch_system``).

    Returns whether the desktop asks for a dark scheme.
    """
    assume_scheme(None)
    dark = system_is_dark()
    if applied() != current():
        apply(app)
    watch_system(app)
    return dark


def applied() -> Palette | None:
    """The palette the application was last styled with (None: not yet)."""
    return _applied


class _SystemWatch(QtCore.QObject):
    """Re-applies the theme when the desktop's colour scheme changes (choice ``system``)."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._app = app
        QtGui.QGuiApplication.styleHints().colorSchemeChanged.connect(self._changed)

    def _changed(self, _scheme: object) -> None:
        if chosen() is Choice.SYSTEM and applied() != current():
            apply(self._app)


def watch_system(app: QApplication) -> None:
    """Follow the desktop's colour scheme from now on (once per application)."""
    if app.findChild(_SystemWatch) is None:
        _SystemWatch(app)


def on_change(listener: Callable[[Palette], None]) -> Callable[[], None]:
    """Call ``listener(palette)`` after each ``apply`` (rendered rich text, painted colours);
    returns a function that stops it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


def follow(widget: QWidget, template: str) -> None:
    """Give ``widget`` its own style sheet from ``template`` (``str.format`` fields named after
    the palette's colours), now and after every ``apply``."""
    widget.setProperty(_SHEET_PROPERTY, template)
    widget.setStyleSheet(zoom.scaled(template.format(**current()._asdict())))


_QSS = """
QMainWindow, QWidget#conversationPane, QWidget#transcript {{ background: {window}; }}
QWidget {{ color: {text}; font-size: 10.5pt; }}
QListWidget#sidebarList {{ background: {sidebar}; border: none; padding: 6px; outline: 0; }}
QListWidget#sidebarList::item {{ padding: 8px 10px; border-radius: 6px; margin: 1px 0; }}
QListWidget#sidebarList::item:selected {{ background: {user_bubble}; color: {text}; }}
QListWidget#reviewFiles::item:selected {{ background: {user_bubble}; color: {text}; }}
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
    """Style ``app`` and every widget that ``follow``s the theme from the current palette.

    One palette for everything: the ``QPalette`` (what Fusion draws and rich text asks), the
    application's style sheet and the widgets' own sheets; listeners (``on_change``) are told.
    Nothing is redone when the palette and the sheet are those already applied.
    ``style=False``: the application already has the Fusion style (``make_application``).
    """
    global _applied
    colours = current()
    if style:
        app.setStyle("Fusion")
    sheet = _QSS.format(**colours._asdict())
    sheet = zoom.scaled(sheet)  # View ▸ Zoom: every size of every sheet
    if colours == _applied and app.styleSheet() == sheet:
        return colours
    _applied = colours
    app.setPalette(qt_palette(colours))
    app.setStyleSheet(sheet)
    for widget in app.allWidgets():  # none at start-up, before the first window
        template = widget.property(_SHEET_PROPERTY)
        if isinstance(template, str) and template:
            widget.setStyleSheet(zoom.scaled(template.format(**colours._asdict())))
    for listener in list(_listeners):
        listener(colours)
    return colours


def set_role(widget: QWidget, role: str, *, polished: bool = True, **props: str) -> None:
    """Set style-sheet properties and re-polish (properties changed after polish need it).

    ``polished=False``: the widget was just created and is polished when first shown, so the
    properties need no re-polish (and its ``style()`` wrapper is not made before the paint).
    """
    widget.setProperty("role", role)
    for name, value in props.items():
        widget.setProperty(name, value)
    # One not polished yet gets them at its first polish (a new row's widgets: 0.1-0.3 ms each).
    if polished and widget.testAttribute(QtCore.Qt.WidgetAttribute.WA_WState_Polished):
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
