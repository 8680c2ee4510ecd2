"""The composition root: builds the ``AppContext`` and runs the window on the qasync loop.

Start-up (``run``): single-instance hand-off (a running Agent Desk opens the folder and this
process exits 0), then the first window, painted before anything heavy is imported
(``desktop.ui.startup``); then the qasync loop starts, the rest loads, and the first
conversation replaces the window's empty page and the agent starts.

Shutdown, in order: windows close their sessions (pending approvals denied, turns stopped,
agents ended and reaped), leftover tasks are cancelled, the loop closes (``asyncio.Runner``),
and only then are the Qt objects released.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget

from desktop.ui import startup_hints, theme
from desktop.ui.instance import InstanceServer, hand_off
from desktop.ui.startup import (
    finish_startup,
    initial_workspace,
    make_application,
    remembered_scheme,
    show_painted,
)
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
