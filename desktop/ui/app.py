"""The composition root: builds the ``AppContext`` and runs the window on the qasync loop.

Start-up (``run``): single-instance hand-off (a running Agent Desk opens the folder and this
process exits 0), then the first window, painted before anything heavy is imported
(``desktop.ui.startup``); then the qasync loop starts, the rest loads, and the first
conversation replaces the window's empty page (its agent starts with the first prompt).

Shutdown, in order: windows close their sessions (pending approvals denied, turns stopped,
agents ended and reaped), leftover tasks are cancelled, the loop closes (``asyncio.Runner``),
and only then are the Qt objects released.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QWidget

from desktop.ui import startup_hints, theme
from desktop.ui.instance import AgentOptions, InstanceServer, hand_off
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
    from desktop.ui.addons import WindowAddons
    from desktop.ui.qt_async import AsyncRuntime
    from desktop.ui.settings.services import SettingsServices

log = logging.getLogger(__name__)


class AppContext:
    """Everything the windows share: settings, recent folders, task runtime, tray.

    ``--agent``/``--agent-cmd`` belong to the window they were given for: the first window
    gets the command line's, a window handed over by a second ``agentdesk PATH`` gets that
    command's, and any other window (File ▸ Open Workspace, Open Recent) the settings' default.
    """

    def __init__(self, app: QApplication, options: argparse.Namespace) -> None:
        self.app = app
        self._runtime: AsyncRuntime | None = None
        self._settings: SettingsStore | None = None
        self._services: SettingsServices | None = None
        self._all_closed: asyncio.Event | None = None
        #: For the first window only (taken when it opens).
        self._launch_agent: AgentOptions | None = _agent_options(options)
        self._agents: dict[Path, AgentOptions] = {}  # per open window
        self._addons: dict[Path, WindowAddons] = {}  # per open window, made on first use
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
        addons = self._addons.get(workspace)
        if addons is None:
            from desktop.ui.addons import WindowAddons

            scope = self.runtime.scope(f"settings:{workspace}")
            agent = self.agent_options(workspace)
            addons = WindowAddons(
                workspace, self.services, scope, agent=agent.agent, agent_cmd=agent.agent_cmd
            )
            self._addons[workspace] = addons
            window.install_plugin(addons)
        return addons

    def agent_options(self, workspace: Path) -> AgentOptions:
        """``--agent``/``--agent-cmd`` of the window of ``workspace`` (both None: Settings)."""
        return self._agents.get(workspace, AgentOptions())

    @property
    def all_closed(self) -> asyncio.Event:
        """Set when the last window finished closing."""
        if self._all_closed is None:
            import asyncio

            self._all_closed = asyncio.Event()
        return self._all_closed

    # ------------------------------------------------------------------ WindowHost
    def agent_for(self, workspace: Path) -> tuple[str, BackendFactory | str]:
        """The window's ``--agent-cmd``, else its agent picker (its ``--agent``, else the
        default agent), resolved from Settings when the conversation starts."""
        from desktop.core.launch.factory import make_backend_factory
        from desktop.core.launch.resolve import command_launch
        from desktop.core.launch.spec import AgentNotFoundError

        addons = self.addons_for(workspace)
        options = self.agent_options(workspace)
        if not options.agent_cmd:
            default = options.agent or self.settings.settings.default_agent
            name = addons.chosen_agent() if addons is not None else default
            return name, self.services.factory_for(name, workspace)
        try:
            launch = command_launch(options.agent_cmd)
            return launch.name, make_backend_factory(launch, workspace)
        except AgentNotFoundError as exc:
            return "agent", QCoreApplication.translate(
                "AppContext", "The agent cannot run: {exc}"
            ).format(exc=exc)

    def agents_for(self, workspace: Path) -> WindowAgents:
        """The agents of the window of ``workspace`` (for conversations reopened from history)."""
        return WindowAgents(self, workspace)

    def open_workspace(
        self, path: Path, *, shell_only: bool = False, agent: AgentOptions | None = None
    ) -> WorkspaceWindow:
        """Open the window of ``path``, or raise it when it is open.

        ``agent``: its ``--agent``/``--agent-cmd`` (default: the command line's for the first
        window, else the settings' default agent); given for an open window, they replace its
        choice for new conversations. ``shell_only``: the window without its first conversation
        and without touching the settings (the first window, painted before the core loads;
        ``_main`` completes it).
        """
        path = path.expanduser().resolve()
        launch, self._launch_agent = self._launch_agent, None
        window = self._windows.get(path)
        if window is not None and agent is not None and any(agent):
            self._agents[path] = agent
            addons = self._addons.get(path)
            if addons is not None:
                addons.set_command_line(agent.agent, agent.agent_cmd)
        if window is None:
            self._agents[path] = agent or launch or AgentOptions()
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

        dialog = QFileDialog(parent, QCoreApplication.translate("AppContext", "Open Workspace"))
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

    def _on_handoff(self, path: Path, agent: AgentOptions, conversation: str | None) -> None:
        window = self.open_workspace(path, agent=agent)
        if conversation:  # ``agentdesk PATH --conversation ID`` while the app runs
            from desktop.ui.open_conversation import open_in

            window.scope.spawn(open_in(window, conversation), name="open-conversation")

    def _on_window_closed(self, window: WorkspaceWindow) -> None:
        self._windows.pop(window.workspace, None)
        self._agents.pop(window.workspace, None)
        self._addons.pop(window.workspace, None)
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


class WindowAgents:
    """The agents of one window (``desktop.ui.sidebar.resume.AgentSource``)."""

    def __init__(self, context: AppContext, workspace: Path) -> None:
        self._context, self._workspace = context, workspace

    def current(self) -> tuple[str, BackendFactory | str]:
        """The window's agent for new conversations."""
        return self._context.agent_for(self._workspace)

    async def named(self, name: str) -> BackendFactory | str:
        """The agent ``name`` (a stored conversation's): a factory, or why it is not
        available. The window's own agent is used as it is."""
        from desktop.ui.sidebar.resume import unavailable_reason

        window_agent, factory = self.current()
        if name == window_agent:
            return factory
        context = self._context
        reason = await unavailable_reason(context.settings.settings, context.services.secrets, name)
        return reason if reason is not None else context.services.factory_for(name, self._workspace)

    def open_settings(self, page: str | None = None) -> None:
        """Show the window's Settings (at ``page``)."""
        addons = self._context.addons_for(self._workspace)
        if addons is not None:
            addons.open_settings(page)

    def on_changed(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` after each change of the agents or profiles; returns an
        unsubscribe function."""

        def changed(section: str) -> None:
            if section in ("", "agents", "profiles", "default_agent"):
                listener()

        return self._context.settings.subscribe(changed)


async def _main(context: AppContext, first: WorkspaceWindow, stored: str | None = None) -> int:
    """The app after the first paint; ``stored``: the conversation ``--conversation`` opens."""
    from desktop.ui.garbage import settle_garbage
    from desktop.ui.open_conversation import open_in
    from desktop.ui.quit_signals import quit_on_signals

    first.finish_building()  # menus' actions: usable from the loop's first step
    context.server.listen()
    quit_on_signals(context.app, context.quit)
    await finish_startup()
    if first in context.windows():  # not closed while loading
        if stored is None or await open_in(first, stored) is None:
            first.new_conversation()
        context.remember(first.workspace)
    settle_garbage()
    log.info("started: %d window(s); nothing runs until something happens", len(context.windows()))
    await context.all_closed.wait()
    await context.shutdown()
    return 0


def _agent_options(options: argparse.Namespace) -> AgentOptions:
    return AgentOptions(getattr(options, "agent", None), getattr(options, "agent_cmd", None))


def run(options: argparse.Namespace) -> int:
    """Open the window for ``options.path`` (or hand it to a running instance); exit status."""
    stored = None
    if getattr(options, "conversation", None):
        from desktop.ui.open_conversation import StoredConversationError, stored_workspace

        given = Path(options.path) if options.path else None
        try:
            stored, home = stored_workspace(options.conversation, given)
        except StoredConversationError as exc:
            print(f"agentdesk: {exc}", file=sys.stderr)  # noqa: T201
            return 2
        options.path = options.path or str(home)
    first = initial_workspace(options)
    if not first.is_dir():
        print(f"agentdesk: {first} is not a folder", file=sys.stderr)  # noqa: T201
        return 2
    theme.assume_scheme(remembered_scheme())  # confirmed after the first paint
    app = make_application(icon=False)  # the icon is set after the first paint
    if hand_off(first, _agent_options(options), stored):
        return 0
    context = AppContext(app, options)
    window = context.open_workspace(first, shell_only=True)
    show_painted(app, window)
    from desktop.ui.qt_async import run_qt  # applies pyside_fixes before any Python emit

    status = run_qt(app, lambda: _main(context, window, stored))
    gc.collect()  # release Qt wrappers while the QApplication still exists
    return status
