"""The window plug-in interface: what a part of the app may add to a workspace window.

A plug-in (the Settings add-ons: agent picker, Settings dialog, extensions) is installed on a
window once and then told of every conversation the window adds or removes, however it was
made (new, resumed from history, reopened): the window calls it, so nothing watches the
window's widgets from outside. Types only: the window shell imports it before the first paint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from desktop.ui.pane import ConversationPane
    from desktop.ui.window import WorkspaceWindow


class WindowPlugin(Protocol):
    """Something installed on a ``WorkspaceWindow`` that follows its conversations."""

    def install(self, window: WorkspaceWindow) -> None:
        """Add the plug-in's widgets and actions to ``window`` (called once)."""

    def pane_added(self, pane: ConversationPane) -> None:
        """``pane`` joined the window (also called for the panes it had at install)."""

    def pane_removed(self, pane: ConversationPane) -> None:
        """``pane`` left the window (closed); it is deleted after this returns."""
