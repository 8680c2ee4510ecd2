"""A workspace window: conversations sidebar, the current conversation, menus, status bar.

Each window owns its conversations and their agents (working directory: the window's folder).
Closing the window closes every session first (pending approvals denied, turns stopped, agents
ended) without a nested event loop: the first close is ignored, the shutdown runs as a task, and
the window closes itself again when it is done (qasync's ``asyncClose`` busy-loops instead).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QLabel,
    QMainWindow,
    QMenu,
    QSplitter,
    QStackedWidget,
    QToolBar,
    QWidget,
)

from desktop.ui.placeholder import EmptyConversation
from desktop.ui.sidebar import WindowHistory

if TYPE_CHECKING:  # the core and the pane load after the first paint (``desktop.ui.startup``)
    from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
    from PySide6.QtWidgets import QDialog

    from desktop.core.session import BackendFactory
    from desktop.ui.pane import ConversationPane
    from desktop.ui.plugins import WindowPlugin
    from desktop.ui.qt_async import AsyncRuntime, TaskScope
    from desktop.ui.sidebar.lists import ConversationList
    from desktop.ui.sidebar.resume import AgentSource

log = logging.getLogger(__name__)


class WindowHost(Protocol):
    """What a window needs from the application (implemented by ``AppContext``)."""

    @property
    def runtime(self) -> AsyncRuntime:
        """The app's task runtime."""

    def agent_for(self, workspace: Path) -> tuple[str, BackendFactory | str]:
        """Agent name and a backend factory, or the name and why it cannot run."""

    def agents_for(self, workspace: Path) -> AgentSource:
        """The agents of the window of ``workspace`` by name, and their Settings."""

    def open_workspace(self, path: Path) -> WorkspaceWindow:
        """Open (or raise) the window of ``path``."""

    def choose_workspace(self, parent: QWidget) -> None:
        """Ask for a folder and open it."""

    def recent_workspaces(self) -> list[Path]:
        """Recently opened folders, newest first."""

    def windows(self) -> list[WorkspaceWindow]:
        """Open windows."""

    def notify(self, title: str, message: str) -> None:
        """A desktop notification."""


class WorkspaceWindow(QMainWindow):
    """The window of one workspace folder.

    Signals:
        closed(WorkspaceWindow): the window finished shutting down and is gone.
    """

    closed = Signal(object)

    def __init__(
        self, workspace: Path, host: WindowHost, *, first_conversation: bool = True
    ) -> None:
        super().__init__()
        self.workspace = workspace
        self.host = host
        self._scope: TaskScope | None = None
        self.panes: list[ConversationPane] = []
        self.plugins: list[WindowPlugin] = []
        self._closing = False
        self._closed_done = False
        self._menu_actions_added = False
        self.setWindowTitle(f"{workspace.name or workspace} — Agent Desk")
        self.resize(1120, 780)
        self._build(lazy=not first_conversation)
        self._build_menus()
        if first_conversation:  # else the app adds it after the first paint
            self.new_conversation()
        else:  # the window holds the focus, so no field shows a focus ring until the composer
            self.setFocus()

    def finish_building(self) -> None:
        """Add the menus' actions and shortcuts (once): a first window paints with the menu
        titles only (actions and shortcuts cost a tenth of a start-up); the app calls this
        right after that paint, and the first conversation does in any case."""
        if self._menu_actions_added:
            return
        self._menu_actions_added = True
        self._add_menu_actions()

    # ------------------------------------------------------------------ layout
    def _build(self, *, lazy: bool) -> None:
        # The sidebar lists the workspace's stored conversations (desktop.ui.sidebar); a window
        # painted before its first conversation makes the lists with it (``lazy``).
        # Built top-down, each widget made in its final parent: moving a subtree that Qt has
        # already polished (a splitter measures its children) re-polishes all of it against the
        # style sheet, a visible part of the start-up.
        self._build_agent_bar()
        splitter = QSplitter()
        splitter.setHandleWidth(1)
        self.setCentralWidget(splitter)
        self.history = WindowHistory(self, splitter, lazy=lazy)
        self.history.sidebar.new_requested.connect(self.new_conversation)
        self.stack = QStackedWidget(splitter)
        # A splitter takes in the child widgets it is given at once; these keep them in place
        # (addWidget would move a child that is already in, at a cost).
        splitter.insertWidget(0, self.history.sidebar)
        splitter.insertWidget(1, self.stack)
        # Until the first conversation:
        self.stack.addWidget(EmptyConversation(self.workspace, self.stack))
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([240, 880])
        bar = self.statusBar()
        self.status_labels = {k: QLabel(bar) for k in ("agent", "mode", "state", "tokens")}
        for key, label in self.status_labels.items():
            label.setAccessibleName(f"Status: {key}")
            bar.addPermanentWidget(label) if key == "tokens" else bar.addWidget(label)

    def _build_agent_bar(self) -> None:
        """The toolbar with the agent for new conversations, its picker still empty.

        The Settings add-ons (a plug-in: ``desktop.ui.settings.addons``) fill the picker and add
        the Settings button after the first paint; the bar exists from the first frame so the
        conversation does not move down when they arrive.
        """
        self.agent_bar = QToolBar("Agent", self)
        self.agent_bar.setObjectName("agentToolbar")
        self.agent_bar.setMovable(False)
        self.agent_bar.addWidget(QLabel("  Agent for new conversations: "))
        self.agent_picker = QComboBox()
        self.agent_picker.setObjectName("agentPicker")
        self.agent_picker.setAccessibleName("Agent for new conversations")
        self.agent_picker.setToolTip("Agent for new conversations")
        self.agent_picker.setMinimumContentsLength(18)
        self.agent_picker.setEnabled(False)  # until the add-ons have filled it
        self.agent_bar.addWidget(self.agent_picker)
        self.addToolBar(self.agent_bar)

    def _build_menus(self) -> None:
        menus = self.menuBar()
        self._menus = [menus.addMenu(title) for title in ("&File", "&Conversation")]
        self.window_menu = menus.addMenu("&Window")
        self.window_menu.aboutToShow.connect(self._fill_windows)
        self._menus.append(menus.addMenu("&Help"))

    def _add_menu_actions(self) -> None:
        from PySide6.QtGui import QKeySequence  # not before the first paint (its enums)

        file, conversation, help_menu = self._menus
        self._action(file, "&New Conversation", QKeySequence.StandardKey.New, self.new_conversation)
        open_ = QKeySequence.StandardKey.Open
        self._action(file, "&Open Workspace…", open_, lambda: self.host.choose_workspace(self))
        self.recent_menu = file.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file.addSeparator()
        # Not StandardKey.Close/Quit: Ctrl+F4 first on some desktops, none on Windows.
        self._action(file, "&Close Window", QKeySequence("Ctrl+W"), self.close)
        self._action(file, "&Quit", QKeySequence("Ctrl+Q"), self._on_quit)
        self._action(conversation, "&Stop", QKeySequence("Ctrl+."), self.stop_current)
        conversation.addSeparator()
        history = self.history
        self._action(conversation, "Searc&h…", QKeySequence("Ctrl+Shift+F"), history.focus_search)
        self._action(conversation, "&Rename", QKeySequence("F2"), history.rename_current)
        none = QKeySequence()
        self._action(conversation, "Export as &Markdown…", none, lambda: history.export(None, "md"))
        self._action(conversation, "Export as &JSON…", none, lambda: history.export(None, "json"))
        self._action(conversation, "&Delete…", none, lambda: history.ask_delete(None))
        self._action(help_menu, "&Keyboard Shortcuts…", QKeySequence("F1"), self.show_shortcuts)
        self._action(help_menu, "&About Agent Desk", none, self._on_about)

    def show_shortcuts(self) -> QDialog:
        """Help ▸ Keyboard Shortcuts (non-modal, one per window)."""
        from desktop.ui.shortcuts import show_shortcuts

        self._shortcuts = show_shortcuts(self, getattr(self, "_shortcuts", None))
        return self._shortcuts

    def _on_about(self) -> None:
        from desktop.ui.about import show_about

        self._about = show_about(self)

    def _action(
        self, menu: QMenu, text: str, keys: QKeySequence | QKeySequence.StandardKey, slot: object
    ) -> QAction:
        from PySide6.QtGui import QAction

        action = QAction(text, self)
        action.setShortcut(keys)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.host.recent_workspaces():
            action = self.recent_menu.addAction(str(path))
            action.setData(str(path))
            action.triggered.connect(self._on_recent)
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction("(none)").setEnabled(False)

    def _on_recent(self) -> None:
        action = self.sender()
        from PySide6.QtGui import QAction

        if isinstance(action, QAction):
            self.host.open_workspace(Path(str(action.data())))

    def _fill_windows(self) -> None:
        self.window_menu.clear()
        for window in self.host.windows():
            action = self.window_menu.addAction(str(window.workspace))
            action.setCheckable(True)
            action.setChecked(window is self)
            action.setData(str(window.workspace))
            action.triggered.connect(self._on_recent)

    def _on_quit(self) -> None:
        for window in self.host.windows():
            window.close()

    # ------------------------------------------------------------------ conversations
    @property
    def sidebar(self) -> ConversationList:
        """The sidebar's list of conversations."""
        return self.history.sidebar.list

    @property
    def current(self) -> ConversationPane | None:
        """The conversation shown."""
        widget = self.stack.currentWidget()
        return next((pane for pane in self.panes if pane is widget), None)

    def new_conversation(self) -> ConversationPane:
        """Add a conversation with the window's agent and show it."""
        from desktop.core.events import ErrorEvent

        self.finish_building()
        agent, factory = self.host.agent_for(self.workspace)
        pane = self.add_pane(f"Conversation {len(self.panes) + 1}", agent, factory)
        self.history.track(pane, agent)
        self.show_pane(pane)
        if isinstance(factory, str):
            pane.transcript.on_error(ErrorEvent(code="agent_not_found", message=factory))
        else:
            pane.start()
        pane.composer.editor.setFocus()
        return pane

    def add_pane(
        self, title: str, agent: str, factory: BackendFactory | str, resume_id: str | None = None
    ) -> ConversationPane:
        """A conversation pane (not started yet) in this window."""
        from desktop.ui.pane import ConversationPane

        pane = ConversationPane(
            title=title,
            workspace=self.workspace,
            agent_name=agent,
            factory=_failing_factory(factory) if isinstance(factory, str) else factory,
            scope=self.host.runtime.scope(f"conversation:{self.workspace}:{title}"),
            resume_id=resume_id,
        )
        self.panes.append(pane)
        self.stack.addWidget(pane)
        pane.status_changed.connect(self._update_status)
        pane.approval_waiting.connect(self._on_approval_waiting)
        for plugin in self.plugins:
            plugin.pane_added(pane)
        return pane

    def install_plugin(self, plugin: WindowPlugin) -> None:
        """Install ``plugin``; it is told of the panes the window already has."""
        self.plugins.append(plugin)
        plugin.install(self)
        for pane in self.panes:
            plugin.pane_added(pane)

    def show_pane(self, pane: ConversationPane) -> None:
        """Show ``pane`` (and select its sidebar row)."""
        self.stack.setCurrentWidget(pane)
        self.history.select(pane)
        self._update_status()

    def remove_pane(self, pane: ConversationPane) -> None:
        """Take a closed pane out of the window (a new conversation replaces the last one)."""
        if pane in self.panes:
            self.panes.remove(pane)
            self.stack.removeWidget(pane)
            for plugin in self.plugins:
                plugin.pane_removed(pane)
            pane.deleteLater()
        if not self.panes and not self._closing:
            self.new_conversation()
        elif self.current is not None:
            self.show_pane(self.current)

    @property
    def runtime(self) -> AsyncRuntime:
        """The app's task runtime."""
        return self.host.runtime

    @property
    def scope(self) -> TaskScope:
        """The window's tasks (made on first use: the task runtime loads after the first paint)."""
        if self._scope is None:
            self._scope = self.host.runtime.scope(f"window:{self.workspace}")
        return self._scope

    def agent_for_workspace(self) -> tuple[str, BackendFactory | str]:
        """The agent conversations of this window use."""
        return self.host.agent_for(self.workspace)

    @property
    def agents(self) -> AgentSource:
        """Agents by name and their Settings (for conversations reopened from history)."""
        return self.host.agents_for(self.workspace)

    def show_message(self, text: str) -> None:
        """A status-bar message for a few seconds."""
        self.statusBar().showMessage(text, 6000)

    def stop_current(self) -> None:
        """Stop the shown conversation's turn."""
        if self.current is not None:
            self.current.stop()

    def _update_status(self) -> None:
        pane = self.current
        if pane is None:
            return
        usage = pane.usage
        self.status_labels["agent"].setText(f"Agent: {pane.agent_name}")
        self.status_labels["mode"].setText(f"Mode: {pane.session.mode.value}")
        self.status_labels["state"].setText(f"State: {pane.session.state.value}")
        self.status_labels["tokens"].setText(
            f"Tokens in {usage.input_tokens:,} · out {usage.output_tokens:,} · "
            f"cache {usage.cache_read_tokens + usage.cache_write_tokens:,}"
        )

    def _on_approval_waiting(self, tool: str) -> None:
        if not self.isActiveWindow():
            QApplication.alert(self)
            self.host.notify("Approval needed", f"{tool} in {self.workspace.name} waits for you")

    # ------------------------------------------------------------------ shutdown
    def closeEvent(self, event: QCloseEvent) -> None:
        if self._closed_done:
            event.accept()
            return
        event.ignore()
        if not self._closing:
            self._closing = True
            self.hide()
            self.scope.spawn(self.shutdown(), name="shutdown")

    async def shutdown(self) -> None:
        """Close every conversation (in parallel), then the window."""
        import asyncio

        await asyncio.gather(*(pane.aclose() for pane in self.panes), return_exceptions=True)
        await self.history.aclose()
        self._closed_done = True
        self.closed.emit(self)
        self.close()
        self.deleteLater()


def _failing_factory(message: str) -> BackendFactory:
    """A factory for an agent that cannot run: starting reports ``message`` inline."""
    from desktop.core.backend import AgentBackend, AgentStartError

    def factory(_resume: str | None) -> AgentBackend:
        raise AgentStartError(message)

    return factory
