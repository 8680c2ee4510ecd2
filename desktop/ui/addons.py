"""What a workspace window gains from Settings: the agent picker, Settings (Ctrl+,), extensions.

A window plug-in (``desktop.ui.plugins.WindowPlugin``) the composition root installs: it fills
the window's agent picker, adds a Settings button and menu action, and owns the window's
extension runtime. The window tells it of every conversation it adds (new, resumed, reopened)
or removes; each gets its extension bridge and a "Suggest" button in its composer.
"""

from __future__ import annotations

import shlex
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QComboBox, QPushButton, QToolButton

from desktop.ui.extensions.window import SuggestionError, WindowExtensions
from desktop.ui.icons import Icon, decorate
from desktop.ui.qt_async import TaskScope
from desktop.ui.settings.services import SettingsServices

if TYPE_CHECKING:
    from desktop.ui.pane import ConversationPane
    from desktop.ui.settings.dialog import SettingsDialog
    from desktop.ui.window import WorkspaceWindow


def _short_command(command: str) -> str:
    """``python /long/path/agent.py --json-stream`` → ``python agent.py …``."""
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = command.split()
    short = " ".join(PurePath(arg).name if "/" in arg else arg for arg in argv[:2])
    return short + (" …" if len(argv) > 2 else "")


class WindowAddons(QObject):
    """Agent picker, Settings and extensions for one window (a ``WindowPlugin``).

    Made and installed at once (``WorkspaceWindow.install_plugin``): ``window`` and ``picker``
    are the window's, set by ``install``.
    """

    window: WorkspaceWindow
    picker: QComboBox

    def __init__(
        self,
        workspace: Path,
        services: SettingsServices,
        scope: TaskScope,
        *,
        agent: str | None = None,
        agent_cmd: str | None = None,
    ) -> None:
        super().__init__()
        self._initial_agent = agent
        self._agent_cmd = agent_cmd
        self.services = services
        self.scope = scope
        self.extensions = WindowExtensions(workspace, services.store, scope)
        self.dialog: SettingsDialog | None = None

    # ------------------------------------------------------------------ WindowPlugin
    def install(self, window: WorkspaceWindow) -> None:
        """Fill the window's agent picker (its bar is made with the first frame), add the
        Settings button and menu action, and start the extensions when some could load."""
        self.setParent(window)
        self.window = window
        self.picker = window.agent_picker
        self._fill_picker()
        self.picker.currentIndexChanged.connect(self._on_picked)
        # Edit ▸ Settings… (Ctrl+,; the Preferences item where each platform expects it)
        self.settings_action = window.preferences_action
        self.settings_action.triggered.connect(self.open_settings)
        self.settings_action.setEnabled(True)
        window.agent_bar.addSeparator()
        window.agent_bar.addAction(self.settings_action)
        settings_button = window.agent_bar.widgetForAction(self.settings_action)
        if isinstance(settings_button, QToolButton):  # a gear; the name and key in its tooltip
            decorate(settings_button, Icon.SETTINGS, role="muted", size=18)
            settings_button.setToolTip(self.tr("Settings (Ctrl+,)"))
            settings_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # in the Tab order
        self.services.store.subscribe(self._on_settings)
        window.closed.connect(self._on_window_closed)
        self.extensions.start_if_needed()

    def pane_added(self, pane: ConversationPane) -> None:
        """Connect the conversation to the extensions; give its composer "Suggest" and its
        welcome panel this window's Settings and agent picker."""
        self.extensions.add_pane(pane)
        pane.welcome.settings_access = self
        button = pane.composer.add_action(
            "suggest",
            self.tr("Suggest"),
            accessible=self.tr("Suggest next prompt"),
            tip=self.tr("Ask the extensions for a next prompt (it goes into the editor)"),
        )
        decorate(button, Icon.SUGGEST, role="muted")
        button.clicked.connect(lambda: self.suggest(pane, button))

    def pane_removed(self, pane: ConversationPane) -> None:
        """Detach the closed conversation from the extensions."""
        self.extensions.remove_pane(pane)

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

    def choose_agent(self, agent: str) -> None:
        """Pick ``agent`` for new conversations (when the picker lists it)."""
        index = self.picker.findData(agent)
        if index >= 0:
            self.picker.setCurrentIndex(index)

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
            self.picker.addItem(
                self.tr("{command} (--agent-cmd)").format(command=_short_command(self._agent_cmd)),
                None,
            )
            self.picker.setToolTip(
                self.tr("Set on the command line: {command}").format(command=self._agent_cmd)
            )
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
        self.picker.setToolTip(
            self.tr("Agent for new conversations: {agent}").format(agent=self.picker.currentText())
        )

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
            self.dialog = SettingsDialog(
                self.services, self.scope, self.window, page_widget, self.window.workspace
            )
            self.dialog.destroyed.connect(self._on_dialog_gone)
        if isinstance(page, str):
            self.dialog.show_page(page)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def _on_dialog_gone(self) -> None:
        self.dialog = None

    # ------------------------------------------------------------------ suggestions
    def suggest(self, pane: ConversationPane, button: QPushButton | None = None) -> None:
        """ "Suggest next prompt": the suggestion replaces the editor's text."""
        self.scope.spawn(self._suggest(pane, button), name="suggest")

    async def _suggest(self, pane: ConversationPane, button: QPushButton | None) -> None:
        if button is not None:
            button.setEnabled(False)
            button.setText(self.tr("Suggesting…"))
        draft = pane.composer.editor.toPlainText().strip() or None
        try:
            text = await self.extensions.suggest(pane, draft)
        except SuggestionError as exc:
            pane.composer.editor.setPlaceholderText(str(exc))
            from desktop.core.events import Notice

            pane.transcript.apply(Notice(level="info", message=str(exc)))
        else:
            pane.composer.editor.setPlainText(text)
            pane.composer.editor.setFocus()
        finally:
            if button is not None:
                button.setEnabled(True)
                button.setText(self.tr("Suggest"))

    async def aclose(self) -> None:
        """Stop the window's extension runtime (after its conversations closed)."""
        await self.extensions.aclose()
