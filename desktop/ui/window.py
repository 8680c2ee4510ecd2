"""A workspace window: conversations sidebar, the current conversation, menus, status bar.

Each window owns its conversations and their agents (working directory: the window's folder).
Closing the window closes every session first (pending approvals denied, turns stopped, agents
ended) without a nested event loop: the first close is ignored, the shutdown runs as a task, and
the window closes itself again when it is done (qasync's ``asyncClose`` busy-loops instead).
"""

from __future__ import annotations

import logging
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter, QStackedWidget, QWidget

from desktop.ui import window_state
from desktop.ui.agent_bar import add_agent_bar
from desktop.ui.menus import WindowMenus
from desktop.ui.placeholder import EmptyConversation
from desktop.ui.sidebar import WindowHistory
from desktop.ui.status_bar import WindowStatus

if TYPE_CHECKING:  # the core and the pane load after the first paint (``desktop.ui.startup``)
    from PySide6.QtGui import QAction, QCloseEvent, QResizeEvent
    from PySide6.QtWidgets import QDialog

    from desktop.core.session import BackendFactory
    from desktop.ui.pane import ConversationPane
    from desktop.ui.plugins import WindowPlugin
    from desktop.ui.qt_async import AsyncRuntime, TaskScope
    from desktop.ui.review.controller import ReviewController
    from desktop.ui.sidebar.lists import ConversationList
    from desktop.ui.sidebar.resume import AgentSource
    from desktop.ui.window_host import WindowHost

log = logging.getLogger(__name__)


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
        self.plugins: list[WindowPlugin[WorkspaceWindow, ConversationPane]] = []
        self._closing = False
        self._closed_done = False
        self._menu_actions_added = False
        self.setWindowTitle(
            self.tr("{workspace} — Agent Desk").format(workspace=workspace.name or workspace)
        )
        self.setMinimumSize(*window_state.MIN_SIZE)
        self.setGeometry(window_state.initial_geometry(workspace))  # fits the screen
        if window_state.stored_maximized(workspace):  # shown maximized, restored to the above
            from PySide6.QtCore import Qt  # only here: Qt's enums cost the first paint

            self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
        self._build(lazy=not first_conversation)
        self.menus = WindowMenus(self)  # the titles; the actions after the first paint
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
        self.menus.add_actions()

    @property
    def preferences_action(self) -> QAction:
        """Edit ▸ Settings… (Ctrl+,), disabled until a plug-in connects and enables it."""
        self.finish_building()
        return self.menus.actions["preferences"]

    # ------------------------------------------------------------------ layout
    def _build(self, *, lazy: bool) -> None:
        # The sidebar lists the workspace's stored conversations (desktop.ui.sidebar); a window
        # painted before its first conversation makes the lists with it (``lazy``).
        # Built top-down, each widget made in its final parent: moving a subtree that Qt has
        # already polished (a splitter measures its children) re-polishes all of it against the
        # style sheet, a visible part of the start-up.
        # The agent for new conversations, its picker filled after the first paint (agent_bar).
        self.agent_bar, self.agent_picker = add_agent_bar(self)
        self.splitter = splitter = QSplitter()
        splitter.setHandleWidth(1)
        splitter.setChildrenCollapsible(False)  # hidden only by View ▸ Sidebar (Ctrl+B)
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
        sidebar = window_state.sidebar_width() or 264
        splitter.setSizes([sidebar, max(self.width() - sidebar, 1)])
        self.history.sidebar.setVisible(window_state.sidebar_visible())
        self.status = WindowStatus(self.statusBar())
        #: The status bar's labels by name (state, agent, mode, tokens).
        self.status_labels = self.status.labels

    def show_shortcuts(self) -> QDialog:
        """Help ▸ Keyboard Shortcuts (non-modal, one per window)."""
        from desktop.ui.shortcuts import show_shortcuts

        self._shortcuts = show_shortcuts(self, getattr(self, "_shortcuts", None))
        return self._shortcuts

    def show_about(self) -> None:
        """Help ▸ About Agent Desk."""
        from desktop.ui.about import show_about

        self._about = show_about(self)

    # ------------------------------------------------------------------ view
    def zoom(self, steps: int) -> float:
        """View ▸ Zoom in (> 0), out (< 0), 100 % (0): every window follows; the new level."""
        from desktop.ui import theme, zoom

        before = zoom.level()
        level = zoom.step(steps)
        app = QApplication.instance()
        if level != before and isinstance(app, QApplication):
            theme.apply(app, style=False)
        return level

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_sidebar()

    def _fit_sidebar(self) -> None:
        """A narrow window takes room from the sidebar (to its minimum) before the conversation
        gets less than it needs (the splitter would keep the sidebar's width)."""
        side, main = self.splitter.sizes()
        sidebar = self.history.sidebar
        short = self.stack.minimumSizeHint().width() - main
        give = min(short, side - sidebar.minimumWidth())
        if give > 0 and sidebar.isVisibleTo(self):
            self.splitter.setSizes([side - give, main + give])

    def toggle_sidebar(self) -> None:
        """View ▸ Sidebar (Ctrl+B): hide or show the conversations sidebar (remembered)."""
        self.show_sidebar(not self.history.sidebar.isVisibleTo(self))

    def show_sidebar(self, visible: bool) -> None:
        """Show or hide the conversations sidebar (remembered for every window)."""
        sidebar, action = self.history.sidebar, self.menus.actions.get("sidebar")
        if sidebar.isVisibleTo(self) == visible:
            return
        if not visible:
            window_state.remember_sidebar(width=sidebar.width())
            focused = QApplication.focusWidget()
            if focused is not None and sidebar.isAncestorOf(focused) and self.current is not None:
                self.current.composer.editor.setFocus()
        sidebar.setVisible(visible)
        window_state.remember_sidebar(visible=visible)
        if action is not None:
            action.setChecked(visible)

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
            pane.transcript.apply(ErrorEvent(code="agent_not_found", message=factory))
        else:
            pane.check()  # the agent starts with the first prompt
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
            parent=self.stack,
        )
        self.review.pane_added(pane)  # before the list grows: made once, then told of each
        self.panes.append(pane)
        self.stack.addWidget(pane)
        pane.idle_stop.limit = lambda: self.host.settings.settings.stop_idle_agents_after * 60
        pane.status_changed.connect(self._update_status)
        pane.approval_waiting.connect(self._on_approval_waiting)
        for plugin in self.plugins:
            plugin.pane_added(pane)
        return pane

    _review: ReviewController | None = None

    @property
    def review(self) -> ReviewController:
        """The review view's controller (made with the first conversation: the core's loaded)."""
        if self._review is None:
            from desktop.ui.review.controller import ReviewController

            self._review = ReviewController(self.stack, self)
            self.install_plugin(self._review)
            from desktop.ui.checkpoints.controller import CheckpointsController

            self.install_plugin(CheckpointsController(self._review, self))  # turns' changes
        return self._review

    def open_review(self, pane: ConversationPane, diff: str, title: str) -> None:
        """Show ``diff`` (e.g. a finished edit's) full-window in place of ``pane``; Esc returns."""
        self.review.open(pane, diff, title)

    def install_plugin(self, plugin: WindowPlugin[WorkspaceWindow, ConversationPane]) -> None:
        """Install ``plugin``; it is told of the panes the window already has."""
        self.plugins.append(plugin)
        plugin.install(self)
        for pane in self.panes:
            plugin.pane_added(pane)
        self._order_tabs()  # its toolbar button in the toolbar's place

    def show_pane(self, pane: ConversationPane) -> None:
        """Show ``pane`` (and select its sidebar row)."""
        self.stack.setCurrentWidget(pane)
        self.history.select(pane)
        self._update_status()
        self._order_tabs()

    def _order_tabs(self) -> None:
        """Tab goes toolbar → sidebar → conversation → composer, whatever was made first (the
        Settings button and the lists arrive after the first paint)."""
        pane = self.current
        if pane is None:
            return
        settings = self.agent_bar.widgetForAction(self.preferences_action)
        chain = [self.agent_picker, *([settings] if settings is not None else [])]
        chain += [*self.history.sidebar.tab_chain(), pane.view, pane.composer.editor]
        for first, second in pairwise(chain):
            QWidget.setTabOrder(first, second)

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
        if self.current is not None:
            self.status.show(self.current)

    def _on_approval_waiting(self, tool: str) -> None:
        if not self.isActiveWindow():
            QApplication.alert(self)
            self.host.notify(
                QCoreApplication.translate("WorkspaceWindow", "Approval needed"),
                QCoreApplication.translate(
                    "WorkspaceWindow", "{tool} in {name} waits for you"
                ).format(tool=tool, name=self.workspace.name),
            )

    # ------------------------------------------------------------------ shutdown
    def closeEvent(self, event: QCloseEvent) -> None:
        if self._closed_done:
            event.accept()
            return
        event.ignore()
        if not self._closing:
            self._closing = True
            self._remember_layout()
            self.hide()
            self.scope.spawn(self.shutdown(), name="shutdown")

    def _remember_layout(self) -> None:
        """Keep this workspace's geometry (as it is when not maximized) and the sidebar width."""
        box = window_state.box_of(self.normalGeometry())
        window_state.remember_geometry(self.workspace, box, maximized=self.isMaximized())
        if self.history.sidebar.isVisibleTo(self):
            window_state.remember_sidebar(width=self.history.sidebar.width())

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
