"""The composition root: builds the ``AppContext`` and runs the window on the qasync loop.

Startup: single-instance hand-off (a running Agent Desk opens the folder and this process exits
0), then the first window, painted before anything heavy is imported: this module and the
window shell import only Qt and light UI modules (no asyncio, pydantic, core, Pygments,
markdown-it, diff or approval code). Once the window has painted, the qasync loop starts and
the rest loads in steps that yield to the loop (``finish_startup``); then the first conversation
replaces the window's empty page and the agent starts. ``benchmarks/gui_startup.py`` measures it.

Shutdown, in order: windows close their sessions (pending approvals denied, turns stopped,
agents ended and reaped), leftover tasks are cancelled, the loop closes (``asyncio.Runner``),
and only then are the Qt objects released.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from desktop.ui import startup_hints, theme
from desktop.ui.instance import InstanceServer, hand_off
from desktop.ui.window import WorkspaceWindow

if TYPE_CHECKING:
    import asyncio

    from PySide6.QtWidgets import QSystemTrayIcon

    from desktop.core.session import BackendFactory
    from desktop.core.settings import SettingsStore
    from desktop.ui.qt_async import AsyncRuntime
    from desktop.ui.settings.addons import WindowAddons
    from desktop.ui.settings.services import SettingsServices

log = logging.getLogger(__name__)

#: Loaded after the first paint, one per loop iteration (the window repaints in between).
_DEFERRED_MODULES = (
    "desktop.core.events",
    "desktop.core.session",
    "desktop.core.agents",
    "desktop.ui.conversation.view",
    "desktop.ui.approvals",
    "desktop.ui.pane",
)
#: Longest wait for the first paint before the loop starts anyway (a hidden or odd display).
_FIRST_PAINT_TIMEOUT_MS = 2000


class AppContext:
    """Everything the windows share: agent choice, recent folders, task runtime, tray."""

    def __init__(self, app: QApplication, options: argparse.Namespace) -> None:
        self.app = app
        self._runtime: AsyncRuntime | None = None
        self._settings: SettingsStore | None = None
        self._services: SettingsServices | None = None
        self._all_closed: asyncio.Event | None = None
        self._agent: str | None = getattr(options, "agent", None)
        self._agent_cmd: str | None = getattr(options, "agent_cmd", None)
        self._windows: dict[Path, WorkspaceWindow] = {}
        self._tray: QSystemTrayIcon | None = None
        self.server = InstanceServer(self._on_handoff)

    @property
    def runtime(self) -> AsyncRuntime:
        """Owner of every task scope (made on first use, after the first paint: its module
        applies ``pyside_fixes``, which loads ctypes)."""
        if self._runtime is None:
            from desktop.ui.qt_async import AsyncRuntime

            self._runtime = AsyncRuntime()
            self._runtime.task_failed.connect(self._on_task_failed)
        return self._runtime

    @property
    def settings(self) -> SettingsStore:
        """The settings store, loaded on first use (pydantic models: not before the paint)."""
        if self._settings is None:
            from desktop.core.settings import SettingsStore

            self._settings = SettingsStore()
        return self._settings

    @property
    def services(self) -> SettingsServices:
        """Settings, keys and agent resolution shared by the windows (built on first use)."""
        if self._services is None:
            from desktop.ui.settings.services import SettingsServices

            self._services = SettingsServices(self.settings, app=self.app)
        return self._services

    def addons_for(self, workspace: Path) -> WindowAddons | None:
        """The agent picker, Settings and extensions of the window of ``workspace``."""
        window = self._windows.get(workspace)
        if window is None:
            return None
        addons = getattr(window, "addons", None)
        if addons is None:
            from desktop.ui.settings.addons import WindowAddons

            scope = self.runtime.scope(f"settings:{workspace}")
            addons = WindowAddons(
                window, self.services, scope, agent=self._agent, agent_cmd=self._agent_cmd
            )
            window.addons = addons  # type: ignore[attr-defined]
        return addons

    @property
    def all_closed(self) -> asyncio.Event:
        """Set when the last window finished closing."""
        if self._all_closed is None:
            import asyncio

            self._all_closed = asyncio.Event()
        return self._all_closed

    # ------------------------------------------------------------------ WindowHost
    def agent_for(self, workspace: Path) -> tuple[str, BackendFactory | str]:
        """The agent from ``--agent-cmd``, else the window's agent picker (``--agent``, else the
        default agent), resolved from Settings when the conversation starts."""
        from desktop.core.agents import AgentNotFoundError, make_backend_factory, resolve_agent

        addons = self.addons_for(workspace)
        if not self._agent_cmd:
            default = self._agent or self.settings.settings.default_agent
            name = addons.chosen_agent() if addons is not None else default
            return name, self.services.factory_for(name, workspace)
        try:
            choice = resolve_agent(self._agent, self._agent_cmd)
            return choice.name, make_backend_factory(choice, workspace)
        except AgentNotFoundError as exc:
            return self._agent or "agent", f"The agent cannot run: {exc}"

    def open_workspace(self, path: Path, *, shell_only: bool = False) -> WorkspaceWindow:
        """Open the window of ``path``, or raise it when it is open.

        ``shell_only``: the window without its first conversation and without touching the
        settings (the first window, painted before the core loads; ``_main`` completes it).
        """
        path = path.expanduser().resolve()
        window = self._windows.get(path)
        if window is None:
            window = WorkspaceWindow(path, self, first_conversation=not shell_only)
            window.closed.connect(self._on_window_closed)
            self._windows[path] = window
            if not shell_only:
                self.addons_for(path)  # a shell window gets them with its first conversation
            if not shell_only:
                self.remember(path)
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    def choose_workspace(self, parent: QWidget) -> None:
        """Ask for a folder (``open()``, never ``exec()``: no nested loop) and open it."""
        from PySide6.QtWidgets import QFileDialog

        dialog = QFileDialog(parent, "Open Workspace")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.fileSelected.connect(self._on_folder_chosen)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def _on_folder_chosen(self, folder: str) -> None:
        if folder:
            self.open_workspace(Path(folder))

    def recent_workspaces(self) -> list[Path]:
        """Recently opened folders that still exist, newest first."""
        return [Path(p) for p in self.settings.settings.recent_workspaces if Path(p).is_dir()]

    def windows(self) -> list[WorkspaceWindow]:
        """Open windows, in opening order."""
        return list(self._windows.values())

    def notify(self, title: str, message: str) -> None:
        """A tray message, when the desktop has a tray."""
        from PySide6.QtGui import QIcon
        from PySide6.QtWidgets import QSystemTrayIcon

        if not QSystemTrayIcon.isSystemTrayAvailable():
            return
        if self._tray is None:
            self._tray = QSystemTrayIcon(QIcon.fromTheme("dialog-information"), self.app)
            self._tray.show()
        self._tray.showMessage(title, message)

    def remember(self, path: Path) -> None:
        """Put ``path`` first in the recent workspaces (and the start-up hints)."""
        try:
            settings = self.settings.settings.with_recent_workspace(str(path))
            self.settings.save(settings, "recent_workspaces")
        except OSError:
            log.warning("could not save the recent workspaces", exc_info=True)
        startup_hints.remember(workspace=path)

    # ------------------------------------------------------------------ internals

    def _on_handoff(self, path: Path) -> None:
        self.open_workspace(path)

    def _on_window_closed(self, window: WorkspaceWindow) -> None:
        self._windows.pop(window.workspace, None)
        if not self._windows:
            self.all_closed.set()

    def _on_task_failed(self, owner: str, message: str) -> None:
        log.error("background task of %s failed: %s", owner, message)

    def quit(self) -> None:
        """Close every window (their sessions close first); the loop ends after the last."""
        for window in self.windows():
            window.close()

    async def shutdown(self) -> None:
        """Close every window (each closes its sessions), then cancel what is left."""
        for window in self.windows():
            window.close()
        import asyncio

        if self._windows:
            await asyncio.wait_for(self.all_closed.wait(), 30)
        await self.runtime.aclose()
        self.server.close()
        if self._tray is not None:
            self._tray.hide()


def _confirm_scheme(app: QApplication) -> None:
    """Ask the desktop for its scheme now (the first paint used the remembered one)."""
    remembered = theme.assumed_scheme()
    dark = theme.confirm_scheme(app)
    if theme.forced_scheme() is None and dark != remembered:
        startup_hints.remember(dark=dark)


def remembered_scheme() -> bool | None:
    """The previous start's scheme (True: dark); None when unknown or forced by the
    environment (``AGENTDESK_THEME``)."""
    return None if theme.forced_scheme() is not None else startup_hints.remembered_scheme()


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
    """Show ``window`` and run Qt's own loop until it has painted (bounded).

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


def _warm_renderers() -> None:
    """Load Pygments' lexer table, styles and markdown-it now, not at the first reply or diff."""
    from desktop.ui.conversation.markdown import renderer
    from desktop.ui.diff.syntax import lexer_for

    renderer(theme.current().dark).render("```python\nx = 1\n```\n")
    lexer_for("warm.py")


async def finish_startup() -> None:
    """Load what the first paint went without, one step per loop iteration, then freeze the GC.

    First the colour scheme is confirmed (the first paint used the previous run's) and the
    window icon set (its module loads ``platform`` and ``QMessageBox``).

    ``gc.freeze`` moves everything loaded so far (pydantic schemas, Pygments, Qt wrappers) out
    of the collector's reach: a full collection over them took ~50 ms, a visible stall while
    text streams (``benchmarks/gui_stream.py``).
    """
    import asyncio

    from desktop.ui.about import app_icon

    app = QApplication.instance()
    if isinstance(app, QApplication):
        _confirm_scheme(app)
        app.setWindowIcon(app_icon())
    await asyncio.sleep(0)
    for name in _DEFERRED_MODULES:
        importlib.import_module(name)
        await asyncio.sleep(0)
    _warm_renderers()
    await asyncio.sleep(0)
    gc.collect()
    gc.freeze()


async def _main(context: AppContext, first: WorkspaceWindow) -> int:
    first.finish_building()  # menus' actions: usable from the loop's first step
    context.server.listen()
    _quit_on_signals(context)
    await finish_startup()
    if first in context.windows():  # not closed while loading
        first.new_conversation()
        context.remember(first.workspace)
    await context.all_closed.wait()
    await context.shutdown()
    return 0


def _quit_on_signals(context: AppContext) -> QTimer:
    """SIGTERM/SIGINT close every window cleanly (exit status 0, agents ended).

    Python runs signal handlers only between bytecodes; while Qt waits in C nothing runs, so a
    cheap timer wakes the interpreter four times a second.
    """
    import asyncio
    import signal

    loop = asyncio.get_running_loop()

    def handler(_signum: int, _frame: object) -> None:
        loop.call_soon_threadsafe(context.quit)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, handler)
    timer = QTimer(context.app)
    timer.start(250)
    timer.timeout.connect(_noop)
    return timer


def _noop() -> None:
    """Gives Python a chance to run pending signal handlers."""


def make_application(*, icon: bool = True) -> QApplication:
    """The ``QApplication`` (created once), with the theme applied.

    ``icon=False``: the caller sets the window icon later (``run`` does, after the first paint).
    A new application gets the Fusion style from its arguments: ``setStyle`` returns the style,
    and its Python wrapper builds every ``QStyle`` enum (~5 ms before the first paint).
    """
    os.environ.setdefault("QT_API", "pyside6")
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
    theme.apply(app, style=False)
    return app


def run(options: argparse.Namespace) -> int:
    """Open the window for ``options.path`` (or hand it to a running instance); exit status."""
    first = initial_workspace(options)
    if not first.is_dir():
        print(f"agentdesk: {first} is not a folder", file=sys.stderr)  # noqa: T201
        return 2
    theme.assume_scheme(remembered_scheme())  # confirmed after the first paint
    app = make_application(icon=False)  # the icon is set after the first paint
    if hand_off(first):
        return 0
    context = AppContext(app, options)
    window = context.open_workspace(first, shell_only=True)
    show_painted(app, window)
    from desktop.ui.qt_async import run_qt  # applies pyside_fixes before any Python emit

    status = run_qt(app, lambda: _main(context, window))
    gc.collect()  # release Qt wrappers while the QApplication still exists
    return status
