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
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.placeholder import EmptyConversation
from desktop.ui.qt_async import AsyncRuntime

if TYPE_CHECKING:  # the core and the pane load after the first paint (``desktop.ui.app``)
    from desktop.core.session import BackendFactory
    from desktop.ui.pane import ConversationPane

log = logging.getLogger(__name__)


class WindowHost(Protocol):
    """What a window needs from the application (implemented by ``AppContext``)."""

    runtime: AsyncRuntime

    def agent_for(self, workspace: Path) -> tuple[str, BackendFactory | str]:
        """Agent name and a backend factory, or the name and why it cannot run."""

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
        self.scope = host.runtime.scope(f"window:{workspace}")
        self.panes: list[ConversationPane] = []
        self._closing = False
        self._closed_done = False
        self.setWindowTitle(f"{workspace.name or workspace} — Agent Desk")
        self.resize(1120, 780)
        self._build()
        self._build_menus()
        if first_conversation:  # else the app adds it after the first paint
            self.new_conversation()

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        sidebar = QWidget()
        sidebar.setObjectName("sidebar")
        sidebar.setMinimumWidth(200)
        column = QVBoxLayout(sidebar)
        column.setContentsMargins(0, 0, 0, 8)
        column.setSpacing(4)
        name = QLabel(self.workspace.name or str(self.workspace))
        name.setObjectName("workspaceName")
        name.setToolTip(str(self.workspace))
        column.addWidget(name)
        title = QLabel("CONVERSATIONS")
        title.setObjectName("sidebarTitle")
        column.addWidget(title)
        self.sidebar = QListWidget()
        self.sidebar.setObjectName("sidebarList")
        self.sidebar.setAccessibleName("Conversations")
        self.sidebar.currentRowChanged.connect(self._on_row)
        column.addWidget(self.sidebar, 1)
        new = QPushButton("+  New conversation")
        new.setAccessibleName("New conversation")
        new.clicked.connect(self.new_conversation)
        wrap = QVBoxLayout()
        wrap.setContentsMargins(10, 0, 10, 0)
        wrap.addWidget(new)
        column.addLayout(wrap)
        self.stack = QStackedWidget()
        self.stack.addWidget(EmptyConversation(self.workspace))  # until the first conversation
        splitter = QSplitter()
        splitter.addWidget(sidebar)
        splitter.addWidget(self.stack)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([240, 880])
        splitter.setHandleWidth(1)
        self.setCentralWidget(splitter)
        bar = self.statusBar()
        self.status_labels = {k: QLabel() for k in ("agent", "mode", "state", "tokens")}
        for key, label in self.status_labels.items():
            label.setAccessibleName(f"Status: {key}")
            bar.addPermanentWidget(label) if key == "tokens" else bar.addWidget(label)

    def _build_menus(self) -> None:
        menus = self.menuBar()
        file = menus.addMenu("&File")
        self._action(file, "&New Conversation", QKeySequence.StandardKey.New, self.new_conversation)
        self._action(file, "&Open Workspace…", QKeySequence.StandardKey.Open, self._on_open)
        self.recent_menu = file.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file.addSeparator()
        self._action(file, "&Close Window", QKeySequence.StandardKey.Close, self.close)
        self._action(file, "&Quit", QKeySequence.StandardKey.Quit, self._on_quit)
        conversation = menus.addMenu("&Conversation")
        self._action(conversation, "&Stop", QKeySequence("Ctrl+."), self.stop_current)
        self.window_menu = menus.addMenu("&Window")
        self.window_menu.aboutToShow.connect(self._fill_windows)

    def _action(
        self, menu: QMenu, text: str, keys: QKeySequence | QKeySequence.StandardKey, slot: object
    ) -> QAction:
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

    def _on_open(self) -> None:
        self.host.choose_workspace(self)

    def _on_quit(self) -> None:
        for window in self.host.windows():
            window.close()

    # ------------------------------------------------------------------ conversations
    @property
    def current(self) -> ConversationPane | None:
        """The conversation shown."""
        widget = self.stack.currentWidget()
        return widget if isinstance(widget, ConversationPane) else None

    def new_conversation(self) -> ConversationPane:
        """Add a conversation with the window's agent and show it."""
        from desktop.core.events import ErrorEvent
        from desktop.ui.pane import ConversationPane

        agent, factory = self.host.agent_for(self.workspace)
        title = f"Conversation {len(self.panes) + 1}"
        pane = ConversationPane(
            title=title,
            workspace=self.workspace,
            agent_name=agent,
            factory=_failing_factory(factory) if isinstance(factory, str) else factory,
            scope=self.host.runtime.scope(f"conversation:{self.workspace}:{title}"),
        )
        self.panes.append(pane)
        self.stack.addWidget(pane)
        item = QListWidgetItem(title)
        self.sidebar.addItem(item)
        pane.status_changed.connect(self._update_status)
        pane.approval_waiting.connect(self._on_approval_waiting)
        pane.composer.submitted.connect(self._on_first_prompt)
        self.sidebar.setCurrentRow(len(self.panes) - 1)
        if isinstance(factory, str):
            pane.transcript.on_error(ErrorEvent(code="agent_not_found", message=factory))
        else:
            pane.start()
        pane.composer.editor.setFocus()
        return pane

    def _on_first_prompt(self, text: str, _files: list[str]) -> None:
        pane = self.sender()
        for index, candidate in enumerate(self.panes):
            if candidate.composer is pane and candidate.title.startswith("Conversation "):
                candidate.title = " ".join(text.split())[:40]
                self.sidebar.item(index).setText(candidate.title)

    def _on_row(self, row: int) -> None:
        if 0 <= row < len(self.panes):
            self.stack.setCurrentWidget(self.panes[row])
            self._update_status()

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
