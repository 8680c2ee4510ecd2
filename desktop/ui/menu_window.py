"""What the menu bar needs of its window and of the app: ``MenuWindow`` and ``MenuHost``.

``WorkspaceWindow`` (with its ``WindowHost``) implements them. They are Protocols so that
``desktop.ui.menus`` names the window by what it offers without importing it: the window makes
its menus, so it imports them. Types only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenuBar, QWidget

    from desktop.core.settings import SettingsStore
    from desktop.ui.pane import ConversationPane
    from desktop.ui.review.controller import ReviewController
    from desktop.ui.sidebar import WindowHistory


class MenuHost(Protocol):
    """The app, as the menus see it: workspaces, windows and the settings store."""

    @property
    def settings(self) -> SettingsStore:
        """The settings store (View ▸ Theme saves the theme choice there)."""

    def choose_workspace(self, parent: QWidget) -> None:
        """Ask for a folder and open it."""

    def recent_workspaces(self) -> list[Path]:
        """Recently opened folders, newest first."""

    def open_workspace(self, path: Path) -> object:
        """Open (or raise) the window of ``path``."""

    def windows(self) -> Sequence[MenuWindow]:
        """Open windows."""


class MenuWindow(Protocol):
    """A workspace window, as its menus see it."""

    @property
    def workspace(self) -> Path:
        """The window's folder."""

    @property
    def host(self) -> MenuHost:
        """The app."""

    @property
    def history(self) -> WindowHistory:
        """The conversations sidebar and its history."""

    @property
    def current(self) -> ConversationPane | None:
        """The conversation shown."""

    @property
    def review(self) -> ReviewController:
        """The review view's controller."""

    def window(self) -> QWidget:
        """The window itself as a widget (the parent of its actions and dialogs)."""

    def menuBar(self) -> QMenuBar:
        """The window's menu bar."""

    def close(self) -> bool:
        """File ▸ Close Window."""

    def new_conversation(self) -> object:
        """File ▸ New Conversation."""

    def zoom(self, steps: int) -> object:
        """View ▸ Zoom in (> 0), out (< 0), 100 % (0)."""

    def toggle_sidebar(self) -> None:
        """View ▸ Sidebar."""

    def show_sidebar(self, visible: bool) -> None:
        """Show or hide the conversations sidebar."""

    def stop_current(self) -> None:
        """Conversation ▸ Stop."""

    def show_shortcuts(self) -> object:
        """Help ▸ Keyboard Shortcuts."""

    def show_about(self) -> None:
        """Help ▸ About Agent Desk."""

    def show_message(self, text: str) -> None:
        """A status-bar message for a few seconds."""
