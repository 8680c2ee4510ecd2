"""The window's icons: QtAwesome's bundled Phosphor icon font, drawn in the theme's colours.

One helper for every button: ``decorate(button, Icon.SEND)`` gives it an icon that paints its
glyph in a palette colour (``text`` by default, ``muted`` when disabled) at the time it is
painted, so the icons follow a theme change with the rest of the window and stay sharp at any
scale (the glyph is drawn at the device pixel ratio, never a scaled bitmap).

The icon set is QtAwesome's (its Phosphor font and charmap), but not its Python API: importing
``qtawesome`` imports ``qtpy``, whose star imports build every PySide class and enum (~180 ms
measured, an evident stall right after the first paint), and it loads all its fonts. Here one
font file is loaded (~6 ms) by ``load``, which start-up calls after the first paint; buttons
decorated before that (the window shell) get their icon then, later ones at once.
"""

from __future__ import annotations

import logging
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from PySide6 import QtCore

from desktop.ui import theme

if TYPE_CHECKING:
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QAbstractButton, QApplication

# The window shell decorates its buttons before its first paint: ``decorate`` then only sets
# properties, and the Qt classes that draw (``desktop.ui.icon_engine``, ``QFontDatabase``) and
# ``QtCore.Qt`` are reached inside functions, after the paint (see ``desktop.ui.theme``).

log = logging.getLogger(__name__)

#: QtAwesome's bundled Phosphor font (regular weight; ``-bold``/``-fill`` names are in it too).
FONT_FILE = "phosphor-1.3.0.ttf"
CHARMAP_FILE = "phosphor-charmap-1.3.0.json"
#: Dynamic properties of a decorated button (kept on the C++ object: survive its wrapper).
_NAME = "iconName"
_ROLE = "iconRole"
_BESIDE = "iconBesideText"
_SIZE = "iconGlyphSize"  # not "iconSize": a property of every button


class Icon(StrEnum):
    """Every icon the window uses, by its Phosphor name."""

    ATTACH = "paperclip"
    SEND = "paper-plane-right"
    STOP = "stop"
    SUGGEST = "sparkle"
    MODE = "shield-check"
    SETTINGS = "gear-six"
    NEW_CONVERSATION = "note-pencil"
    APPROVE = "check"
    APPROVE_ALWAYS = "checks"
    DENY = "x"
    DENY_REASON = "chat-circle-text"
    NEVER = "prohibit"
    JUMP_TO_LATEST = "arrow-down"
    COPY = "copy"
    REVIEW = "arrows-out-simple"
    FIND_PREVIOUS = "caret-up"
    FIND_NEXT = "caret-down"
    CLOSE = "x"  # the same glyph as DENY
    MATCH_CASE = "text-aa"


class _Font:
    """The loaded font family and the name → code point map (None until ``load``)."""

    family: str | None = None
    charmap: ClassVar[dict[str, int]] = {}
    watching = False


def fonts_folder() -> Path | None:
    """QtAwesome's fonts folder: in the bundle (``packaging/agentdesk.spec`` puts it there) or
    in the installed package, found without importing it."""
    import importlib.util

    bundle = getattr(sys, "_MEIPASS", None)
    if bundle is not None:
        return Path(bundle) / "qtawesome" / "fonts"
    spec = importlib.util.find_spec("qtawesome")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "fonts"


def loaded() -> bool:
    """Whether the icon font is loaded (``load`` ran and found it)."""
    return _Font.family is not None


def load(app: QApplication) -> bool:
    """Load the icon font, give every decorated button its icon and re-colour them on each
    theme change; False (logged) when the font is missing: the buttons keep their text."""
    from PySide6.QtGui import QFontDatabase
    from PySide6.QtWidgets import QAbstractButton

    if _Font.family is None:
        import json

        folder = fonts_folder()
        font_id = -1
        if folder is not None and (folder / FONT_FILE).is_file():
            font_id = QFontDatabase.addApplicationFont(str(folder / FONT_FILE))
        if folder is None or font_id < 0:
            log.warning("icon font %s not found (QtAwesome missing?): text-only buttons", FONT_FILE)
            return False
        raw = json.loads((folder / CHARMAP_FILE).read_text(encoding="utf-8"))
        _Font.charmap = {name: int(str(code), 16) for name, code in raw.items()}
        _Font.family = QFontDatabase.applicationFontFamilies(font_id)[0]
    for widget in app.allWidgets():
        if isinstance(widget, QAbstractButton) and widget.property(_NAME):
            _set(widget)
    if not _Font.watching:
        _Font.watching = True
        theme.on_change(lambda _colours: _refresh(app))
    return True


def icon(name: Icon, role: str = "text") -> QIcon:
    """``name`` painted in the palette colour ``role`` (an empty icon before ``load``)."""
    from PySide6.QtGui import QIcon

    from desktop.ui.icon_engine import GlyphEngine

    if _Font.family is None or name.value not in _Font.charmap:
        return QIcon()
    return QIcon(GlyphEngine(chr(_Font.charmap[name.value]), _Font.family, role))


def decorate(
    button: QAbstractButton,
    name: Icon,
    *,
    role: str = "text",
    size: int = 16,
    beside_text: bool = False,
) -> None:
    """Give ``button`` the icon ``name`` in the palette colour ``role``, now or at ``load``.

    ``beside_text``: a tool button keeps showing its text, beside the icon (set with the icon:
    the style is a ``Qt`` enum, which the first frame goes without).
    """
    button.setProperty(_NAME, name.value)
    button.setProperty(_ROLE, role)
    button.setProperty(_BESIDE, beside_text)
    button.setProperty(_SIZE, size)
    if _Font.family is not None:
        _set(button)


def _set(button: QAbstractButton) -> None:
    from PySide6.QtCore import QSize
    from PySide6.QtWidgets import QToolButton

    size = int(button.property(_SIZE) or 16)
    button.setIconSize(QSize(size, size))
    if isinstance(button, QToolButton) and button.property(_BESIDE):
        button.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    button.setIcon(icon(Icon(str(button.property(_NAME))), str(button.property(_ROLE))))


def _refresh(app: QApplication) -> None:
    """Repaint decorated buttons (their engines read the palette when they paint)."""
    from PySide6.QtWidgets import QAbstractButton

    for widget in app.allWidgets():
        if isinstance(widget, QAbstractButton) and widget.property(_NAME):
            widget.update()
