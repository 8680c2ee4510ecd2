"""What the history sidebar needs of its window: ``HistoryWindow``, which ``WorkspaceWindow``
implements.

A Protocol at the bottom of ``desktop.ui.sidebar`` so the engine, its row actions and the
controller name the window without importing it (the window imports them).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from desktop.core.session import BackendFactory
    from desktop.ui.pane import ConversationPane
    from desktop.ui.qt_async import AsyncRuntime, TaskScope
    from desktop.ui.sidebar.resume import AgentSource


class HistoryWindow(Protocol):
    """What ``WindowHistory`` needs from its window (``WorkspaceWindow``)."""

    workspace: Path

    @property
    def scope(self) -> TaskScope:
        """The window's task scope."""

    @property
    def runtime(self) -> AsyncRuntime:
        """The app's task runtime."""

    def agent_for_workspace(self) -> tuple[str, BackendFactory | str]:
        """The window's agent: its name and factory (or why it cannot run)."""

    @property
    def agents(self) -> AgentSource:
        """The window's agents by name (a stored conversation continues with its own)."""

    def add_pane(
        self, title: str, agent: str, factory: BackendFactory | str, resume_id: str | None = None
    ) -> ConversationPane:
        """Make a conversation pane (not started) and add it to the window."""

    def show_pane(self, pane: ConversationPane) -> None:
        """Show ``pane``."""

    def remove_pane(self, pane: ConversationPane) -> None:
        """Take a closed ``pane`` out of the window."""

    def show_message(self, text: str) -> None:
        """A short status-bar message."""
