"""Apply Settings → Appearance (theme and font size) to the running application, live.

The theme choice goes to ``desktop.ui.theme`` (``choose``), which styles every widget and dialog
from the one palette it resolves to; a light or dark choice wins over ``AGENTDESK_THEME`` and the
desktop's scheme, "system" follows the desktop live. The choice is also kept as a start-up hint,
so the next start paints its first frame in it (``desktop.ui.startup.remember_theme``). The font
size scales every size of every style sheet as zoom does (``desktop.ui.zoom.set_font_size``), so
the prompt, the status bar and headings grow with the text. View ▸ Theme saves its choice here
(``choose_theme``).
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from desktop.core.settings import Appearance, SettingsStore, Theme
from desktop.ui import theme, zoom
from desktop.ui.startup import remember_theme


def palette_for(choice: Theme) -> theme.Palette:
    """The palette of a theme choice (``system`` follows the desktop)."""
    if choice == Theme.LIGHT:
        return theme.LIGHT
    if choice == Theme.DARK:
        return theme.DARK
    return theme.DARK if theme.system_is_dark() else theme.LIGHT


def apply(app: QApplication, appearance: Appearance) -> theme.Palette:
    """Restyle ``app`` for ``appearance``; returns the palette in use."""
    theme.choose(appearance.theme.value)
    remember_theme(appearance.theme.value)
    zoom.set_font_size(appearance.font_size)
    return theme.apply(app, style=False)  # nothing redone when palette and sizes are the same


def choose_theme(store: SettingsStore, choice: Theme) -> None:
    """Save ``choice`` as the theme (View ▸ Theme): the store's listeners apply it at once."""
    settings = store.settings
    if settings.appearance.theme != choice:
        appearance = settings.appearance.model_copy(update={"theme": choice})
        store.save(settings.model_copy(update={"appearance": appearance}), "appearance")
