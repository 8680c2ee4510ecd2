"""Start-up: the application object, the first paint, and what loads right after it.

The first window paints before anything heavy is imported: this module, ``desktop.ui.app`` and
the window shell import only Qt and light UI modules (no asyncio, pydantic, core, Pygments,
markdown-it, diff or approval code; ``tests/ui/test_startup.py`` checks it). The workspace and
the colour scheme come from the start-up hints (``desktop.ui.startup_hints``). Once the window
has painted, the qasync loop starts and ``finish_startup`` loads the rest in steps that yield to
the loop. ``benchmarks/gui_startup.py`` measures the first paint against a bare PySide6 window.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from desktop.ui import i18n, startup_hints, theme

if TYPE_CHECKING:
    from desktop.core.settings import SettingsStore

#: Loaded after the first paint, one per loop iteration (the window repaints in between).
_DEFERRED_MODULES = (
    "desktop.core.events",
    "desktop.core.session",
    "desktop.core.launch.resolve",
    "desktop.ui.conversation.view",
    "desktop.ui.approvals",
    "desktop.ui.pane",
)
#: Longest wait for the first paint before the loop starts anyway (a hidden or odd display).
_FIRST_PAINT_TIMEOUT_MS = 2000


def confirm_scheme(app: QApplication) -> None:
    """Ask the desktop for its scheme now (the first paint used the remembered one)."""
    remembered = theme.assumed_scheme()
    dark = theme.confirm_scheme(app)
    if theme.forced_scheme() is None and dark != remembered:
        startup_hints.remember(dark=dark)


def remembered_scheme() -> bool | None:
    """The previous start's scheme (True: dark); None when unknown or forced by the
    environment (``AGENTDESK_THEME``)."""
    return None if theme.forced_scheme() is not None else startup_hints.remembered_scheme()


#: The start-up hint holding Settings ▸ Appearance ▸ Theme (the settings are not loaded before
#: the first paint, and a light or dark choice must already colour the first frame).
_THEME_HINT = "startup/theme"


def remember_theme(choice: str) -> None:
    """Keep the theme choice for the next start's first frame."""
    hints = startup_hints.store()
    if hints.value(_THEME_HINT) != choice:
        hints.setValue(_THEME_HINT, choice)
        hints.sync()


def remembered_theme() -> str:
    """The theme chosen at the previous run (``system`` when unknown)."""
    value = startup_hints.store().value(_THEME_HINT)
    return value if isinstance(value, str) else theme.Choice.SYSTEM.value


def initial_workspace(options: argparse.Namespace, store: SettingsStore | None = None) -> Path:
    """PATH from the command line, else the last workspace, else the current folder."""
    given = getattr(options, "path", None)
    if given:
        return Path(given).expanduser().resolve()
    if store is None:
        cached = startup_hints.last_workspace()
        if cached is not None:
            return cached
        from desktop.core.settings import SettingsStore

        store = SettingsStore()
    for folder in store.settings.recent_workspaces:
        if Path(folder).is_dir():
            return Path(folder)
    return Path.cwd()


class _FirstPaint(QObject):
    """Quits ``loop`` at the first paint of the window it filters.

    Installed on the window only, never on the application: an application-wide Python filter
    sees Qt's private objects too, and converting the first one to Python makes PySide build
    every lazily created class of the loaded modules (~140 enums, a tenth of the start-up).
    The window itself paints first (its style-sheet background), before its children.
    """

    def __init__(self, loop: QEventLoop) -> None:
        super().__init__()
        self._loop = loop

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self._loop.quit()
        return False


def show_painted(app: QApplication, window: QWidget) -> None:
    """Show ``window`` and run Qt's own loop until it has painted (bounded), then resume
    automatic garbage collection (``desktop.cli.main`` pauses it until the first paint).

    No asyncio loop exists yet, so this is not a nested loop: it is the first stretch of the
    process's only Qt loop, before asyncio and the core are even imported.
    """
    loop = QEventLoop()
    watcher = _FirstPaint(loop)
    window.installEventFilter(watcher)
    QTimer.singleShot(_FIRST_PAINT_TIMEOUT_MS, loop.quit)
    window.show()
    window.raise_()
    window.activateWindow()
    loop.exec()
    window.removeEventFilter(watcher)
    gc.enable()


def _warm_renderers() -> None:
    """Load Pygments' lexer table, styles and markdown-it now, not at the first reply or diff."""
    from desktop.ui.conversation.markdown import renderer
    from desktop.ui.diff.syntax import lexer_for

    renderer(theme.current().dark).render("```python\nx = 1\n```\n")
    lexer_for("warm.py")


async def finish_startup() -> None:
    """Load what the first paint went without, one step per loop iteration, then freeze the GC.

    First the colour scheme is confirmed (the first paint used the previous run's) and the
    window icon set (its module loads ``platform`` and ``QMessageBox``), then the buttons'
    icons (``desktop.ui.icons``).

    ``gc.freeze`` moves everything loaded so far (pydantic schemas, Pygments, Qt wrappers) out
    of the collector's reach: a full collection over them took ~50 ms, a visible stall while
    text streams (``benchmarks/gui_stream.py``).
    """
    import asyncio

    from desktop.ui.about import app_icon

    app = QApplication.instance()
    if isinstance(app, QApplication):
        confirm_scheme(app)
        app.setWindowIcon(app_icon())
    await asyncio.sleep(0)
    if isinstance(app, QApplication):
        from desktop.ui import icons

        icons.load(app)  # the buttons' icons (one font file; the shell painted without them)
        await asyncio.sleep(0)
    for name in _DEFERRED_MODULES:
        importlib.import_module(name)
        await asyncio.sleep(0)
    _warm_renderers()
    await asyncio.sleep(0)
    gc.collect()
    gc.freeze()


def make_application(*, icon: bool = True) -> QApplication:
    """The ``QApplication`` (created once), with the theme applied.

    ``icon=False``: the caller sets the window icon later (``run`` does, after the first paint).
    A new application gets the Fusion style from its arguments: ``setStyle`` returns the style,
    and its Python wrapper builds every ``QStyle`` enum (~5 ms before the first paint).
    """
    os.environ.setdefault("QT_API", "pyside6")
    # Qt's raster engine hands every fill of 96 rows or more (a scroll bar's groove, a tall
    # background) to its GUI thread pool in pieces and waits for them: the hand-off cost more
    # than the fill, and a busy machine keeps the GUI thread waiting for pool threads to be
    # scheduled. Qt's own switch (read once, at the first such fill) keeps fills on the GUI
    # thread: the plain stream of benchmarks/gui_stream.py took 11-14 s of GUI time, not 16-17.
    os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
        app.setStyle("Fusion")
    else:
        app = QApplication([*sys.argv[:1], "-style", "Fusion"])
    app.setApplicationName("Agent Desk")
    app.setOrganizationName("agentdesk")
    app.setDesktopFileName("agentdesk")
    if icon:
        from desktop.ui.about import app_icon

        app.setWindowIcon(app_icon())
    app.setQuitOnLastWindowClosed(False)  # the loop ends when every window finished closing
    if existing is None:  # the system's language, before any window is built
        i18n.install(app)
    theme.choose(remembered_theme())  # Settings ▸ Appearance confirms it once loaded
    theme.apply(app, style=False)
    return app
