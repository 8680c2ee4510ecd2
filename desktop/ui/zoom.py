"""Zoom: one app-wide scale for every text and spacing (View ▸ Zoom, Ctrl+= / Ctrl+- / Ctrl+0).

Widgets take their sizes from style sheets written in points (``desktop.ui.theme``), so a
bigger application font alone would leave most of them as they are. Instead the style sheet
is scaled: every ``pt`` size and every spacing of 3 px or more is multiplied by the factor
(1 px and 2 px borders stay crisp). ``theme.apply`` scales the application's sheet and the
widgets' own sheets (``theme.follow``) with ``scaled``, so every widget follows without knowing
about zoom; after a change of level the window re-applies the theme.

The factor is the zoom level times the Appearance font size over the default size (the
Settings' "Font size" is the same mechanism). The zoom level is kept in the start-up hints
(``window.ini``) and read before the first paint, so the first frame is already at its size.
"""

from __future__ import annotations

import re

from desktop.ui import startup_hints

#: The zoom steps (as browsers and editors offer them).
LEVELS = (0.67, 0.75, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)
#: The Appearance font size the style sheet is written for (``Appearance.font_size``).
DEFAULT_FONT_PT = 11

_KEY = "view/zoom"
_SIZE = re.compile(r"(?<![\w.#-])(\d+(?:\.\d+)?)(pt|px)\b")


class _State:
    """The Appearance font-size scale (the zoom level is read from the hints, which cache it)."""

    font_scale = 1.0


def level() -> float:
    """The zoom level (1.0: 100 %), as remembered from the previous run."""
    value = startup_hints.store().value(_KEY)
    try:
        return _nearest(float(str(value))) if value is not None else 1.0
    except ValueError:
        return 1.0


def factor() -> float:
    """The scale applied to sizes: zoom level × Appearance font size / default size."""
    return level() * _State.font_scale


def scaled(sheet: str, by: float | None = None) -> str:
    """``sheet`` with its point sizes and its spacings of 3 px or more scaled (by ``factor``)."""
    scale = factor() if by is None else by
    if abs(scale - 1.0) < 1e-6:
        return sheet

    def one(match: re.Match[str]) -> str:
        value, unit = float(match.group(1)), match.group(2)
        if unit == "px":
            return f"{round(value * scale) if value >= 3 else int(value)}px"
        return f"{value * scale:.2f}pt"

    return _SIZE.sub(one, sheet)


def set_level(value: float) -> float:
    """Zoom to ``value`` (the nearest step) and remember it; returns the new level.

    The caller restyles the application (``theme.apply``), which scales with ``scaled``.
    """
    new = _nearest(value)
    if new != level():
        store = startup_hints.store()
        store.setValue(_KEY, f"{new:g}")
        store.sync()
    return new


def step(steps: int) -> float:
    """Zoom in (``steps`` > 0) or out by steps, or back to 100 % (0); returns the new level."""
    if steps == 0:
        return set_level(1.0)
    index = LEVELS.index(level()) + steps
    return set_level(LEVELS[max(0, min(len(LEVELS) - 1, index))])


def set_font_size(points: float) -> None:
    """The Appearance font size: every size scales by ``points`` / ``DEFAULT_FONT_PT``
    (from the next ``theme.apply``)."""
    _State.font_scale = max(0.25, points / DEFAULT_FONT_PT)


def _nearest(value: float) -> float:
    return min(LEVELS, key=lambda step: abs(step - value))
