"""What a workspace window needs from the application (``AppContext`` implements it).

The menus' part (``menu_window.MenuHost``: settings, folders, windows) plus the runtime, the
agents and desktop notifications. Types only: the window imports it, it imports no window.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from desktop.ui.menu_window import MenuHost

if TYPE_CHECKING:
    from desktop.core.session import BackendFactory
    from desktop.ui.qt_async import AsyncRuntime
    from desktop.ui.sidebar.resume import AgentSource


class WindowHost(MenuHost, Protocol):
    """The application, as one workspace window sees it."""

    @property
    def runtime(self) -> AsyncRuntime:
        """The app's task runtime."""

    def agent_for(self, workspace: Path) -> tuple[str, BackendFactory | str]:
        """Agent name and a backend factory, or the name and why it cannot run."""

    def agents_for(self, workspace: Path) -> AgentSource:
        """The agents of the window of ``workspace`` by name, and their Settings."""

    def notify(self, title: str, message: str) -> None:
        """A desktop notification."""
