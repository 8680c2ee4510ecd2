"""The palettes (light, dark) and which one is in use: the user's choice or the desktop's scheme.

Qt-light on purpose (imported before the first paint by ``desktop.ui.theme``): asking the desktop
for its scheme builds every ``Qt`` enum, so the first paint uses the scheme remembered from the
previous run (``assume_scheme``) and ``desktop.ui.theme.confirm_scheme`` asks afterwards.
"""

from __future__ import annotations

import os
from enum import StrEnum
from typing import NamedTuple

from PySide6 import QtCore, QtGui
from PySide6.QtGui import QColor, QPalette


class Palette(NamedTuple):
    """The few colours the app uses (a NamedTuple: ``dataclasses`` costs ~2 ms before the
    first paint).

    Every text colour (``text``, ``muted``, ``accent`` and the tones ``danger``, ``warning``,
    ``success``) reads at WCAG AA (4.5:1) on every background (``window``, ``surface``,
    ``sidebar``, ``user_bubble``), and ``accent_text`` does on ``accent`` and on the tones (buttons,
    badges); ``tests/ui_widgets/test_contrast.py`` checks it over the style sheets.
    """

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
    muted="#5c6370",
    accent="#2f5fd9",
    accent_text="#ffffff",
    user_bubble="#e8eefe",
    danger="#c0282e",
    warning="#8a5a00",
    success="#1b7340",
)
DARK = Palette(
    dark=True,
    window="#17191e",
    surface="#20232a",
    sidebar="#1b1d22",
    border="#2f333c",
    text="#e6e8eb",
    muted="#9aa1ad",
    accent="#7aa2ff",
    accent_text="#101216",
    user_bubble="#263049",
    danger="#ff7b80",
    warning="#e0a84a",
    success="#4cc27d",
)


class Choice(StrEnum):
    """The theme setting: a fixed palette or the desktop's scheme (``core.settings.Theme``'s
    values; the core is not imported before the first paint)."""

    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


#: The user's choice (Settings ▸ Appearance, View ▸ Theme); ``choose`` sets it.
_choice: Choice = Choice.SYSTEM
#: The scheme remembered from the previous run, used until ``confirm_scheme`` (start-up only).
_assumed_dark: bool | None = None


def forced_scheme() -> bool | None:
    """``AGENTDESK_THEME=dark|light``: True/False; None when the system decides."""
    forced = os.environ.get("AGENTDESK_THEME", "").lower()
    return forced == "dark" if forced in ("dark", "light") else None


def choose(choice: str) -> None:
    """Use the palette of ``choice`` (``light``, ``dark``; anything else follows the system)
    from the next ``apply`` on. A fixed choice wins over ``AGENTDESK_THEME`` and the desktop."""
    global _choice
    _choice = Choice(choice) if choice in Choice.__members__.values() else Choice.SYSTEM


def chosen() -> Choice:
    """The current choice."""
    return _choice


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


def current() -> Palette:
    """The palette of the current choice (the system's scheme when it is ``system``)."""
    if _choice is Choice.DARK:
        return DARK
    if _choice is Choice.LIGHT:
        return LIGHT
    return DARK if system_is_dark() else LIGHT


def qt_palette(colours: Palette) -> QPalette:
    """The ``QPalette`` of ``colours`` (disabled text muted, tooltips in the surface colour)."""
    palette = QPalette()
    roles = QPalette.ColorRole
    for role, colour in (
        (roles.Window, colours.window),
        (roles.Base, colours.window),
        (roles.AlternateBase, colours.surface),
        (roles.ToolTipBase, colours.surface),
        (roles.ToolTipText, colours.text),
        (roles.Text, colours.text),
        (roles.WindowText, colours.text),
        (roles.ButtonText, colours.text),
        (roles.BrightText, colours.text),
        (roles.Button, colours.surface),
        (roles.Light, colours.surface),
        (roles.Midlight, colours.sidebar),
        (roles.Mid, colours.border),
        (roles.Dark, colours.border),
        (roles.Highlight, colours.accent),
        (roles.HighlightedText, colours.accent_text),
        (roles.PlaceholderText, colours.muted),
        (roles.Link, colours.accent),
        (roles.LinkVisited, colours.accent),
        (roles.Accent, colours.accent),
    ):
        palette.setColor(role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.Text, roles.WindowText, roles.ButtonText):
        palette.setColor(disabled, role, QColor(colours.muted))
    return palette


def luminance(colour: str) -> float:
    """The WCAG relative luminance of a ``#rrggbb`` colour."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two ``#rrggbb`` colours (AA asks 4.5 for text)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
