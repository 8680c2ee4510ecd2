"""The window plug-in interface: what a part of the app may add to a workspace window.

A plug-in (the Settings add-ons: agent picker, Settings dialog, extensions) is installed on a
window once and then told of every conversation the window adds or removes, however it was
made (new, resumed from history, reopened): the window calls it, so nothing watches the
window's widgets from outside. Types only: the window shell imports it before the first paint.
The interface is generic in the window and pane types (``WorkspaceWindow`` binds them as
``WindowPlugin[WorkspaceWindow, ConversationPane]``), so it imports neither: the window
imports it.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

WindowT = TypeVar("WindowT", contravariant=True)
PaneT = TypeVar("PaneT", contravariant=True)


class WindowPlugin(Protocol[WindowT, PaneT]):
    """Something installed on a ``WorkspaceWindow`` that follows its conversations."""

    def install(self, window: WindowT) -> None:
        """Add the plug-in's widgets and actions to ``window`` (called once)."""

    def pane_added(self, pane: PaneT) -> None:
        """``pane`` joined the window (also called for the panes it had at install)."""

    def pane_removed(self, pane: PaneT) -> None:
        """``pane`` left the window (closed); it is deleted after this returns."""
