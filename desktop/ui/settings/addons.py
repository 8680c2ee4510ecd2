"""What a workspace window gains from Settings: the agent picker, Settings (Ctrl+,), extensions.

Installed on a window by the composition root, without the window knowing about it: a toolbar
with the agent for new conversations and a Settings button, a Settings menu action, and the
window's extension runtime. Conversations are found when the window adds them to its stack (a
child-added event), so every way a conversation is created (new, resumed) is covered by one
hook; each gets its extension bridge and a "Suggest" button in its composer.
"""

from __future__ import annotations

import shlex
from pathlib import PurePath
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLayout,
    QMainWindow,
    QMenu,
    QPushButton,
    QStackedWidget,
    QToolBar,
    QWidget,
)

from desktop.ui.extensions.window import SuggestionError, WindowExtensions
from desktop.ui.qt_async import TaskScope
from desktop.ui.settings.services import SettingsServices

if TYPE_CHECKING:
    from desktop.ui.pane import ConversationPane
    from desktop.ui.settings.dialog import SettingsDialog


def _row_with(layout: QLayout | None, widget: QWidget) -> QHBoxLayout | None:
    """The horizontal layout (under ``layout``) that holds ``widget``."""
    if layout is None:
        return None
    if isinstance(layout, QHBoxLayout) and layout.indexOf(widget) >= 0:
        return layout
    for index in range(layout.count()):
        item = layout.itemAt(index)
        child = item.layout() if item is not None else None
        found = _row_with(child, widget) if child is not None else None
        if found is not None:
            return found
    return None


def _short_command(command: str) -> str:
    """``python /long/path/agent.py --json-stream`` → ``python agent.py …``."""
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = command.split()
    short = " ".join(PurePath(arg).name if "/" in arg else arg for arg in argv[:2])
    return short + (" …" if len(argv) > 2 else "")


class WindowAddons(QObject):
    """Agent picker, Settings and extensions for one window."""

    def __init__(
        self,
        window: QMainWindow,
        services: SettingsServices,
        scope: TaskScope,
        *,
        agent: str | None = None,
        agent_cmd: str | None = None,
    ) -> None:
        super().__init__(window)
        self._initial_agent = agent
        self._agent_cmd = agent_cmd
        self.window = window
        self.services = services
        self.scope = scope
        workspace = getattr(window, "workspace")  # noqa: B009 - WorkspaceWindow attribute
        self.extensions = WindowExtensions(workspace, services.store, scope)
        self.dialog: SettingsDialog | None = None
        # The window makes its agent bar with the first frame (``WorkspaceWindow.agent_bar``).
        bar: QToolBar = getattr(window, "agent_bar")  # noqa: B009 - WorkspaceWindow attribute
        self.picker: QComboBox = getattr(window, "agent_picker")  # noqa: B009 - the same
        self._fill_picker()
        self.picker.currentIndexChanged.connect(self._on_picked)
        self.settings_action = QAction("&Settings…", window)
        self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        self.settings_action.triggered.connect(self.open_settings)
        bar.addSeparator()
        bar.addAction(self.settings_action)
        menus = window.menuBar().actions()
        first = menus[0].menu() if menus else None
        if isinstance(first, QMenu):
            first.addAction(self.settings_action)
        else:
            window.addAction(self.settings_action)
        services.store.subscribe(self._on_settings)
        stack = getattr(window, "stack", None)
        if isinstance(stack, QStackedWidget):
            stack.installEventFilter(self)
            for index in range(stack.count()):
                self._maybe_pane(stack.widget(index))
        closed = getattr(window, "closed", None)
        if closed is not None:
            closed.connect(self._on_window_closed)
        self.extensions.start_if_needed()

    def _on_window_closed(self) -> None:
        """The window's conversations are closed: stop its extension runtime."""
        if self.dialog is not None:
            self.dialog.close()
        # Finished, not cancelled, at quit: half-stopped, the runtime's job queue would be
        # left running and be destroyed pending with the loop.
        self.scope.spawn(self.aclose(), name="extensions close", finish=True)

    # ------------------------------------------------------------------ agent picker
    def chosen_agent(self) -> str:
        """The agent new conversations use."""
        return str(self.picker.currentData() or self.services.store.settings.default_agent)

    def set_command_line(self, agent: str | None, agent_cmd: str | None) -> None:
        """A later ``agentdesk PATH --agent NAME | --agent-cmd CMD`` for this window."""
        self._agent_cmd = agent_cmd
        self._initial_agent = agent
        if agent and not agent_cmd:
            self.picker.clear()  # the new name wins over the current choice
        self._fill_picker()

    def _fill_picker(self) -> None:
        if self._agent_cmd:  # ``--agent-cmd``: every new conversation runs that command
            self.picker.clear()
            self.picker.addItem(f"{_short_command(self._agent_cmd)} (--agent-cmd)", None)
            self.picker.setToolTip(f"Set on the command line: {self._agent_cmd}")
            self.picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            self.picker.setEnabled(False)
            return
        self.picker.setEnabled(True)
        current = (
            self.picker.currentData()
            or self._initial_agent
            or self.services.store.settings.default_agent
        )
        self.picker.blockSignals(True)
        self.picker.clear()
        for name, label in self.services.agent_names():
            self.picker.addItem(label, name)
        index = self.picker.findData(current)
        self.picker.setCurrentIndex(max(index, 0))
        self.picker.blockSignals(False)

    def _on_picked(self, _index: int) -> None:
        self.picker.setToolTip(f"Agent for new conversations: {self.picker.currentText()}")

    def _on_settings(self, section: str) -> None:
        if section in ("", "agents", "default_agent"):
            self._fill_picker()

    # ------------------------------------------------------------------ settings dialog
    def open_settings(self, page: str | None = None) -> SettingsDialog:
        """Show the (non-modal) Settings dialog of this window."""
        from desktop.ui.extensions.page import ExtensionsPage
        from desktop.ui.settings.dialog import SettingsDialog

        if self.dialog is None:
            page_widget = ExtensionsPage(self.extensions)
            self.dialog = SettingsDialog(self.services, self.scope, self.window, page_widget)
            self.dialog.destroyed.connect(self._on_dialog_gone)
        if isinstance(page, str):
            self.dialog.show_page(page)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def _on_dialog_gone(self) -> None:
        self.dialog = None

    # ------------------------------------------------------------------ conversations
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ChildAdded:
            child = event.child()  # type: ignore[attr-defined]
            if isinstance(child, QWidget):
                self._maybe_pane(child)
        return False

    def _maybe_pane(self, widget: QWidget | None) -> None:
        from desktop.ui.pane import ConversationPane

        if isinstance(widget, ConversationPane) and widget.property("addons") is None:
            widget.setProperty("addons", True)
            self.extensions.add_pane(widget)
            self._add_suggest(widget)

    def _add_suggest(self, pane: ConversationPane) -> None:
        composer = pane.composer
        button = QPushButton("Suggest")
        button.setObjectName("suggestButton")
        button.setAccessibleName("Suggest next prompt")
        button.setToolTip("Ask the extensions for a next prompt (it goes into the editor)")
        button.clicked.connect(lambda: self.suggest(pane, button))
        frame = composer.send.parentWidget()
        row = _row_with(frame.layout() if frame is not None else None, composer.send)
        if row is not None:
            row.insertWidget(max(row.indexOf(composer.send) - 1, 0), button)
        pane.setProperty("suggest", button)

    def suggest(self, pane: ConversationPane, button: QPushButton | None = None) -> None:
        """ "Suggest next prompt": the suggestion replaces the editor's text."""
        self.scope.spawn(self._suggest(pane, button), name="suggest")

    async def _suggest(self, pane: ConversationPane, button: QPushButton | None) -> None:
        if button is not None:
            button.setEnabled(False)
            button.setText("Suggesting…")
        draft = pane.composer.editor.toPlainText().strip() or None
        try:
            text = await self.extensions.suggest(pane, draft)
        except SuggestionError as exc:
            pane.composer.editor.setPlaceholderText(str(exc))
            from desktop.core.events import Notice

            pane.transcript.on_notice(Notice(level="info", message=str(exc)))
        else:
            pane.composer.editor.setPlainText(text)
            pane.composer.editor.setFocus()
        finally:
            if button is not None:
                button.setEnabled(True)
                button.setText("Suggest")

    async def aclose(self) -> None:
        """Stop the window's extension runtime (after its conversations closed)."""
        await self.extensions.aclose()
