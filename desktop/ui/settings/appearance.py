"""Apply Settings → Appearance (theme and font size) to the running application, live.

``desktop.ui.theme`` builds the palette and style sheet from the system scheme (or
``AGENTDESK_THEME``); a light or dark choice in Settings wins over both. The font size is the
base size of every widget; rules with their own size (the prompt, chips) keep theirs.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from desktop.core.settings import Appearance, Theme
from desktop.ui import theme


def palette_for(choice: Theme) -> theme.Palette:
    """The palette of a theme choice (``system`` follows the desktop)."""
    if choice == Theme.LIGHT:
        return theme.LIGHT
    if choice == Theme.DARK:
        return theme.DARK
    return theme.current()


def apply(app: QApplication, appearance: Appearance) -> theme.Palette:
    """Restyle ``app`` for ``appearance``; returns the palette in use."""
    colours = theme.apply(app)
    chosen = palette_for(appearance.theme)
    if chosen != colours:
        # theme.apply follows the system; re-run its palette and style sheet for the choice.
        from desktop.ui.theme import _QSS  # the one style sheet, shared on purpose

        app.setPalette(_qt_palette(chosen))
        app.setStyleSheet(_QSS.format(**chosen._asdict()))
        colours = chosen
    size = f"{appearance.font_size}pt"
    app.setStyleSheet(app.styleSheet() + f"\nQWidget {{ font-size: {size}; }}\n")
    return colours


def _qt_palette(colours: theme.Palette) -> QPalette:
    palette = QPalette()
    roles = QPalette.ColorRole
    for role, colour in (
        (roles.Window, colours.window),
        (roles.Base, colours.window),
        (roles.AlternateBase, colours.surface),
        (roles.Text, colours.text),
        (roles.WindowText, colours.text),
        (roles.ButtonText, colours.text),
        (roles.Button, colours.surface),
        (roles.Highlight, colours.accent),
        (roles.HighlightedText, colours.accent_text),
        (roles.PlaceholderText, colours.muted),
        (roles.Link, colours.accent),
    ):
        palette.setColor(role, QColor(colour))
    return palette
