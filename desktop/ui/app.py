"""The composition root: builds the ``AppContext`` and runs the window on the qasync loop.

Startup: single-instance hand-off (a running Agent Desk opens the folder and this process exits
0), then the first window. Shutdown, in order: windows close their sessions (pending approvals
denied, turns stopped, agents ended and reaped), leftover tasks are cancelled, the loop closes
(``asyncio.Runner``), and only then are the Qt objects released.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import signal
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QFileDialog, QSystemTrayIcon, QWidget

from desktop.core.agents import AgentNotFoundError, make_backend_factory, resolve_agent
from desktop.core.session import BackendFactory
from desktop.core.settings import SettingsStore
from desktop.ui import theme
from desktop.ui.instance import InstanceServer, hand_off
from desktop.ui.qt_async import AsyncRuntime, run_qt
from desktop.ui.window import WorkspaceWindow

log = logging.getLogger(__name__)


class AppContext:
    """Everything the windows share: agent choice, recent folders, task runtime, tray."""

    def __init__(self, app: QApplication, options: argparse.Namespace) -> None:
        self.app = app
        self.runtime = AsyncRuntime()
        self.settings = SettingsStore()
        self._agent: str | None = getattr(options, "agent", None)
        self._agent_cmd: str | None = getattr(options, "agent_cmd", None)
        self._windows: dict[Path, WorkspaceWindow] = {}
        self._tray: QSystemTrayIcon | None = None
        self.all_closed = asyncio.Event()
        self.server = InstanceServer(self._on_handoff)
        self.runtime.task_failed.connect(self._on_task_failed)

    # ------------------------------------------------------------------ WindowHost
    def agent_for(self, workspace: Path) -> tuple[str, BackendFactory | str]:
        """The agent from ``--agent``/``--agent-cmd`` (else the default), as a factory."""
        try:
            choice = resolve_agent(self._agent, self._agent_cmd)
            return choice.name, make_backend_factory(choice, workspace)
        except AgentNotFoundError as exc:
            return self._agent or "agent", f"The agent cannot run: {exc}"

    def open_workspace(self, path: Path) -> WorkspaceWindow:
        """Open the window of ``path``, or raise it when it is open."""
        path = path.expanduser().resolve()
        window = self._windows.get(path)
        if window is None:
            window = WorkspaceWindow(path, self)
            window.closed.connect(self._on_window_closed)
            self._windows[path] = window
            self._remember(path)
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    def choose_workspace(self, parent: QWidget) -> None:
        """Ask for a folder (``open()``, never ``exec()``: no nested loop) and open it."""
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
        if not QSystemTrayIcon.isSystemTrayAvailable():
            return
        if self._tray is None:
            self._tray = QSystemTrayIcon(QIcon.fromTheme("dialog-information"), self.app)
            self._tray.show()
        self._tray.showMessage(title, message)

    # ------------------------------------------------------------------ internals
    def _remember(self, path: Path) -> None:
        try:
            settings = self.settings.settings.with_recent_workspace(str(path))
            self.settings.save(settings, "recent_workspaces")
        except OSError:
            log.warning("could not save the recent workspaces", exc_info=True)

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
        if self._windows:
            await asyncio.wait_for(self.all_closed.wait(), 30)
        await self.runtime.aclose()
        self.server.close()
        if self._tray is not None:
            self._tray.hide()


def initial_workspace(options: argparse.Namespace, store: SettingsStore | None = None) -> Path:
    """PATH from the command line, else the last workspace, else the current folder."""
    given = getattr(options, "path", None)
    if given:
        return Path(given).expanduser().resolve()
    recent = (store or SettingsStore()).settings.recent_workspaces
    for folder in recent:
        if Path(folder).is_dir():
            return Path(folder)
    return Path.cwd()


async def _main(app: QApplication, options: argparse.Namespace, first: Path) -> int:
    context = AppContext(app, options)
    context.server.listen()
    context.open_workspace(first)
    _quit_on_signals(context)
    await context.all_closed.wait()
    await context.shutdown()
    return 0


def _quit_on_signals(context: AppContext) -> QTimer:
    """SIGTERM/SIGINT close every window cleanly (exit status 0, agents ended).

    Python runs signal handlers only between bytecodes; while Qt waits in C nothing runs, so a
    cheap timer wakes the interpreter four times a second.
    """
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


def make_application() -> QApplication:
    """The ``QApplication`` (created once), with the theme applied."""
    os.environ.setdefault("QT_API", "pyside6")
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("Agent Desk")
    app.setOrganizationName("agentdesk")
    app.setDesktopFileName("agentdesk")
    app.setQuitOnLastWindowClosed(False)  # the loop ends when every window finished closing
    theme.apply(app)
    return app


def run(options: argparse.Namespace) -> int:
    """Open the window for ``options.path`` (or hand it to a running instance); exit status."""
    store = SettingsStore()
    first = initial_workspace(options, store)
    if not first.is_dir():
        print(f"agentdesk: {first} is not a folder", file=sys.stderr)  # noqa: T201
        return 2
    app = make_application()
    if hand_off(first):
        return 0
    status = run_qt(app, lambda: _main(app, options, first))
    gc.collect()  # release Qt wrappers while the QApplication still exists
    return status
