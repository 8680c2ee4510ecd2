"""Where a workspace window opens and what it remembers: geometry per workspace, the sidebar.

A window always fits the screen it opens on: a remembered geometry (or the default size) is
clamped to that screen's available area, which already accounts for ``QT_SCALE_FACTOR`` (at
200 % a 1920×1080 screen offers 960×540 device-independent pixels), and moved onto it when the
screen it was on is gone. The geometry is remembered per workspace folder, the sidebar's
visibility and width for all windows. A maximized window opens maximized again (its normal
geometry kept for when it is restored). All of it lives in the start-up hints file
(``window.ini``), read before the first paint so the first frame is already where and as large
as it will stay.
"""

from __future__ import annotations

import binascii
from pathlib import Path
from typing import NamedTuple

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QGuiApplication

from desktop.ui import startup_hints

#: The size of a new window when the screen has room for it.
DEFAULT_SIZE = (1120, 780)
#: The smallest window the layout is made for.
MIN_SIZE = (640, 420)
#: Room kept for the window manager's title bar and borders (the frame is unknown before the
#: window is shown; at worst the window is that much smaller than it could be).
FRAME = (2, 34)

_SIDEBAR_VISIBLE = "view/sidebar-visible"
_SIDEBAR_WIDTH = "view/sidebar-width"


class Box(NamedTuple):
    """A rectangle (x, y, width, height) in device-independent pixels."""

    x: int
    y: int
    width: int
    height: int


def fit(wanted: Box | None, available: Box, frame: tuple[int, int] = FRAME) -> Box:
    """The client geometry for ``wanted`` (None: the default size, centred) inside ``available``.

    ``frame`` is the window manager's decoration (width, height: a title bar on top, the rest
    split evenly). The size is cut to the available area less the frame (never below
    ``MIN_SIZE`` unless the screen itself is smaller); the window is moved so that, frame
    included, all of it is on the screen.
    """
    left, top = frame[0] // 2, frame[1] - frame[0] // 2
    room_w, room_h = available.width - frame[0], available.height - frame[1]
    if wanted is None:
        w, h = min(DEFAULT_SIZE[0], room_w), min(DEFAULT_SIZE[1], room_h)
        x = available.x + left + (room_w - w) // 2
        y = available.y + top + (room_h - h) // 2
        return Box(x, y, w, h)
    w = min(max(wanted.width, min(MIN_SIZE[0], room_w)), room_w)
    h = min(max(wanted.height, min(MIN_SIZE[1], room_h)), room_h)
    x = min(max(wanted.x, available.x + left), available.x + left + room_w - w)
    y = min(max(wanted.y, available.y + top), available.y + top + room_h - h)
    return Box(x, y, w, h)


def _key(workspace: Path) -> str:
    """The settings group of ``workspace`` (hex: a path's slashes are key separators)."""
    return "geometry/" + binascii.hexlify(str(workspace).encode()).decode()


def stored_geometry(workspace: Path) -> Box | None:
    """The geometry ``workspace``'s window had when it last closed (None: never, or unreadable)."""
    value = startup_hints.store().value(_key(workspace))
    try:
        parts = [int(p) for p in str(value).split(",")] if value is not None else []
    except ValueError:
        return None
    return Box(*parts) if len(parts) == 4 and parts[2] > 0 and parts[3] > 0 else None


def remember_geometry(workspace: Path, box: Box, *, maximized: bool = False) -> None:
    """Keep ``box`` as ``workspace``'s window geometry (its size when not maximized) and
    whether the window was maximized."""
    store = startup_hints.store()
    store.setValue(_key(workspace), ",".join(str(v) for v in box))
    store.setValue(_maximized_key(workspace), "true" if maximized else "false")
    store.sync()


def stored_maximized(workspace: Path) -> bool:
    """Whether ``workspace``'s window was maximized when it last closed."""
    return str(startup_hints.store().value(_maximized_key(workspace), "false")).lower() == "true"


def _maximized_key(workspace: Path) -> str:
    return "maximized/" + _key(workspace).removeprefix("geometry/")


def initial_geometry(workspace: Path) -> QRect:
    """Where ``workspace``'s window opens: as it was (on a screen that still shows its centre),
    else the default size centred on the primary screen; always fitting that screen."""
    wanted = stored_geometry(workspace)
    screen = None
    if wanted is not None:
        centre = QPoint(wanted.x + wanted.width // 2, wanted.y + wanted.height // 2)
        screen = QGuiApplication.screenAt(centre)
    if screen is None:
        screen = QGuiApplication.primaryScreen()
        if wanted is not None:  # its screen is gone: the same size, centred on this one
            area = screen.availableGeometry()
            x = area.x() + (area.width() - wanted.width) // 2
            y = area.y() + (area.height() - wanted.height) // 2
            wanted = wanted._replace(x=x, y=y)
    area = screen.availableGeometry()
    return QRect(*fit(wanted, Box(area.x(), area.y(), area.width(), area.height())))


def box_of(rect: QRect) -> Box:
    """A ``QRect`` as a ``Box``."""
    return Box(rect.x(), rect.y(), rect.width(), rect.height())


def sidebar_visible() -> bool:
    """Whether windows show the conversations sidebar (View ▸ Sidebar, Ctrl+B)."""
    return str(startup_hints.store().value(_SIDEBAR_VISIBLE, "true")).lower() != "false"


def sidebar_width() -> int | None:
    """The sidebar's width as last left (None: the default)."""
    value = startup_hints.store().value(_SIDEBAR_WIDTH)
    try:
        return int(str(value)) if value is not None else None
    except ValueError:
        return None


def remember_sidebar(*, visible: bool | None = None, width: int | None = None) -> None:
    """Keep the sidebar's visibility and/or width."""
    store = startup_hints.store()
    if visible is not None:
        store.setValue(_SIDEBAR_VISIBLE, "true" if visible else "false")
    if width is not None and width > 0:
        store.setValue(_SIDEBAR_WIDTH, str(width))
    store.sync()
