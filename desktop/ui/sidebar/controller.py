"""``WindowHistory``: what a workspace window holds of the history, cheap to create.

The window builds it (and so the sidebar widget) before the first paint, when neither the event
loop nor the core is loaded yet. The working part, ``HistoryEngine`` (database, recording,
reopening), is imported and made when the window gets its first conversation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6 import QtCore

from desktop.ui.sidebar.panel import HistorySidebar

if TYPE_CHECKING:
    from PySide6.QtWidgets import QFileDialog, QWidget

    from desktop.ui.pane import ConversationPane
    from desktop.ui.sidebar.engine import HistoryEngine
    from desktop.ui.sidebar.entries import Entry
    from desktop.ui.sidebar.host import HistoryWindow

    class SidebarWindow(HistoryWindow, Protocol):
        """The window as the sidebar sees it: the history's needs and the shown pane."""

        @property
        def current(self) -> ConversationPane | None:
            """The conversation shown."""


class WindowHistory:
    """The conversations sidebar of one window and, once started, its history engine.

    Args:
        window: The workspace window.
        parent: Parent of the sidebar widget.
        lazy: Make the sidebar's lists on first use (a window painted before the history loads).
    """

    def __init__(
        self, window: SidebarWindow, parent: QWidget | None = None, *, lazy: bool = False
    ) -> None:
        self.window = window
        name = window.workspace.name or str(window.workspace)
        self.sidebar = HistorySidebar(name, str(window.workspace), parent, lazy=lazy)
        self.sidebar.leave_requested.connect(self._to_composer)
        self.engine: HistoryEngine | None = None

    def _to_composer(self) -> None:
        """Esc in the empty search field: the shown conversation's composer takes the keys."""
        pane = self.window.current
        if pane is not None:
            pane.composer.editor.setFocus(QtCore.Qt.FocusReason.ShortcutFocusReason)

    def start(self) -> HistoryEngine:
        """The engine (made on first use; needs the running event loop)."""
        if self.engine is None:
            from desktop.ui.sidebar.engine import HistoryEngine

            self.engine = HistoryEngine(self.window, self.sidebar)
        return self.engine

    def track(self, pane: ConversationPane, agent: str) -> None:
        """A new conversation in the window: list it and record it."""
        self.start().track(pane, agent)

    def select(self, pane: ConversationPane) -> None:
        """Mark ``pane``'s row as the current one."""
        if self.engine is not None:
            self.engine.select(pane)

    def focus_search(self) -> None:
        """Ctrl+Shift+F: the search field."""
        self.sidebar.focus_search()

    def rename_current(self) -> None:
        """F2: edit the selected conversation's title in place."""
        self.sidebar.list.setFocus()
        self.sidebar.list.rename_current()

    def ask_delete(self, entry: Entry | None = None) -> None:
        """Ask (inline) before deleting the selected conversation."""
        if self.engine is not None:
            self.engine.actions.ask_delete(entry)

    def export(self, entry: Entry | None, fmt: str) -> QFileDialog | None:
        """Export the selected conversation (``md`` or ``json``) through a file dialog."""
        return self.engine.actions.export(entry, fmt) if self.engine is not None else None

    async def aclose(self) -> None:
        """The window closes: stop recording and release the database."""
        if self.engine is not None:
            await self.engine.aclose()
