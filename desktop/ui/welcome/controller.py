"""Which face a conversation shows: empty state, transcript, welcome panel or problem banner.

A conversation opens on its empty state ("<agent> is ready", mode, keys, folder) and turns to the
transcript with its first item. When its agent cannot start for a reason the user can fix
(``ErrorEvent.fix``, kept once as ``TranscriptModel.problem``), an empty conversation shows the
welcome panel instead; one with content shows a banner with a button to the fix. While a
problem stands the controller listens to the settings store and to key changes (from the panel
or from Settings) and starts the agent again after each; the problem clears when it is ready.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QStackedWidget

from desktop.core.events import AgentReady, ErrorEvent, ModeChanged, StartFix
from desktop.core.start_problem import StartProblem
from desktop.ui.qt_async import TaskScope
from desktop.ui.settings.services import SettingsServices
from desktop.ui.welcome.banner import FixBanner
from desktop.ui.welcome.empty import EmptyState
from desktop.ui.welcome.panel import WelcomePanel
from desktop.ui.welcome.setup import with_default_agent

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QWidget

    from desktop.core.session import Session
    from desktop.ui.bridge import SessionSignals
    from desktop.ui.composer import Composer
    from desktop.ui.conversation.model import TranscriptModel

log = logging.getLogger(__name__)

#: Causes the welcome panel fixes (a key or an agent to choose or install).
WELCOME_PROBLEMS = (
    StartProblem.MISSING_KEY,
    StartProblem.MISSING_PROGRAM,
    StartProblem.UNKNOWN_PROFILE,
    StartProblem.UNKNOWN_AGENT,
)


class SettingsAccess(Protocol):
    """What the welcome panel uses of its window's Settings add-ons (``WindowAddons``, which
    sets itself as ``WelcomeController.settings_access`` of each conversation it is told of)."""

    def open_settings(self, page: str | None = None) -> object:
        """Show the window's Settings dialog (at ``page``)."""

    def choose_agent(self, agent: str) -> None:
        """Make ``agent`` the one new conversations of the window use."""


class WelcomedPane(Protocol):
    """What the controller uses of the conversation it switches (``ConversationPane``, which
    makes it: the pane imports this module, so its type is named here by what it offers)."""

    agent_name: str

    @property
    def session(self) -> Session:
        """The conversation's session (its mode, whether it closed)."""

    @property
    def transcript(self) -> TranscriptModel:
        """The shown transcript (its items and standing problem)."""

    @property
    def bridge(self) -> SessionSignals:
        """The session's events as Qt signals."""

    @property
    def view(self) -> QWidget:
        """The transcript's view (one of ``body``'s faces)."""

    @property
    def composer(self) -> Composer:
        """The prompt box (off while the welcome panel shows)."""

    @property
    def scope(self) -> TaskScope:
        """The conversation's task scope."""

    @property
    def destroyed(self) -> SignalInstance:
        """The pane is gone."""

    def window(self) -> QWidget:
        """The window the pane is in."""

    def isVisible(self) -> bool:
        """Whether the pane is shown."""

    def start(self) -> None:
        """Start (again) the conversation's agent."""

    async def aclose(self) -> None:
        """Close the conversation."""


def banner_text(fix: StartFix) -> tuple[str, str]:
    """(sentence, button) of the banner for ``fix``."""
    agent = fix.agent or QCoreApplication.translate("FixBanner", "The agent")
    if fix.problem == StartProblem.MISSING_KEY:
        return QCoreApplication.translate(
            "FixBanner", "{agent} needs an API key before it can start."
        ).format(agent=agent), QCoreApplication.translate("FixBanner", "Add key…")
    if fix.problem == StartProblem.MISSING_PROGRAM:
        return QCoreApplication.translate("FixBanner", "{agent} is not installed.").format(
            agent=agent
        ), QCoreApplication.translate("FixBanner", "Set up…")
    if fix.problem == StartProblem.KEYRING_LOCKED:
        return QCoreApplication.translate(
            "FixBanner", "The system keyring is locked, so the API key could not be read."
        ), QCoreApplication.translate("FixBanner", "Try again")
    return QCoreApplication.translate("FixBanner", "{agent} is not configured.").format(
        agent=agent
    ), QCoreApplication.translate("FixBanner", "Open Settings…")


class WelcomeController(QObject):
    """Switches ``body`` between empty state, transcript and welcome panel for ``pane``.

    The empty state is made when it is first shown (``shown``: the pane appears without items),
    so a stored conversation, filled before it is shown, never builds it."""

    def __init__(
        self,
        pane: WelcomedPane,
        body: QStackedWidget,
        workspace: Path,
        banner: FixBanner,
    ) -> None:
        super().__init__(body)  # the pane's child: goes with the pane
        self.pane = pane
        self.body = body
        self.workspace = workspace
        self.banner = banner
        self.panel: WelcomePanel | None = None
        self._empty: EmptyState | None = None
        #: The window's Settings add-ons (None: a window without them).
        self.settings_access: SettingsAccess | None = None
        self._unsubscribe: list[Callable[[], None]] = []
        transcript = pane.transcript
        transcript.problem_changed.connect(self._on_problem)
        transcript.item_added.connect(self._on_item)
        pane.bridge.agent_ready.connect(self._on_ready)
        pane.bridge.mode_changed.connect(self._on_mode)
        banner.fix_requested.connect(self._on_fix_requested)
        unsubscribe = self._unsubscribe  # not ``self``: it goes with the pane
        pane.destroyed.connect(lambda *_: [stop() for stop in unsubscribe])

    # ------------------------------------------------------------------ faces
    @property
    def empty(self) -> EmptyState:
        """The empty state (made now if it never showed)."""
        if self._empty is None:
            empty = self._empty = EmptyState(self.workspace)
            empty.show_agent(self.pane.agent_name, ready=True)  # it starts with the first prompt
            empty.show_mode(self.pane.session.mode.value)
            self.body.addWidget(empty)
        return self._empty

    def shown(self) -> None:
        """The pane appears: without items (and no welcome panel), the empty state shows."""
        if not self.pane.transcript.items and self.body.currentWidget() is self.pane.view:
            self.body.setCurrentWidget(self.empty)

    @property
    def services(self) -> SettingsServices | None:
        """The app's settings services (none for a window without an ``AppContext`` host)."""
        host = getattr(self.pane.window(), "host", None)
        services = getattr(host, "services", None)
        return services if isinstance(services, SettingsServices) else None

    def _on_item(self, _item: object) -> None:
        if self._empty is not None and self.body.currentWidget() is self._empty:
            self.body.setCurrentWidget(self.pane.view)

    def _on_ready(self, _event: AgentReady) -> None:
        if self._empty is not None:
            self._empty.show_agent(self.pane.agent_name, ready=True)

    def _on_mode(self, _event: ModeChanged) -> None:
        if self._empty is not None:
            self._empty.show_mode(self.pane.session.mode.value)

    def _on_problem(self, event: ErrorEvent | None) -> None:
        if event is None or event.fix is None:
            self._solved()
            return
        self._listen()
        fix = event.fix
        empty = not self.pane.transcript.items
        if empty and fix.problem in WELCOME_PROBLEMS and self.services is not None:
            self.show_welcome(fix)
        else:
            self.banner.show_problem(*banner_text(fix))

    def show_welcome(self, fix: StartFix | None = None) -> WelcomePanel | None:
        """Show the welcome panel in place of the conversation."""
        services = self.services
        if services is None:
            return None
        if self.panel is None:
            self.panel = WelcomePanel(services, self.pane.scope, self.pane.agent_name)
            self.panel.configured.connect(self._on_configured)
            self.panel.agent_chosen.connect(self._on_agent_chosen)
            self.panel.settings_requested.connect(self._open_settings)
            self.body.addWidget(self.panel)
        problem = self.pane.transcript.problem
        self.panel.show_fix(fix or (problem.fix if problem is not None else None))
        self.body.setCurrentWidget(self.panel)
        self.banner.setVisible(False)
        self.pane.composer.setEnabled(False)
        return self.panel

    def _solved(self) -> None:
        self._stop_listening()
        self.banner.setVisible(False)
        self.pane.composer.setEnabled(True)
        if self.panel is not None:
            self.body.removeWidget(self.panel)
            self.panel.deleteLater()
            self.panel = None
        self.body.setCurrentWidget(self.pane.view if self.pane.transcript.items else self.empty)
        if self.pane.isVisible():
            self.pane.composer.editor.setFocus()

    # ------------------------------------------------------------------ fixing
    def _on_fix_requested(self) -> None:
        problem = self.pane.transcript.problem
        fix = problem.fix if problem is not None else None
        if fix is None or fix.problem == StartProblem.KEYRING_LOCKED:
            self._retry()
        elif fix.problem in WELCOME_PROBLEMS and self.services is not None:
            self.show_welcome(fix)
        else:
            self._open_settings("Agents")

    def _open_settings(self, page: str) -> None:
        if self.settings_access is not None:
            self.settings_access.open_settings(page)

    def _listen(self) -> None:
        services = self.services
        if self._unsubscribe or services is None:
            return
        self._unsubscribe += [
            services.store.subscribe(self._on_changed),
            services.secrets.subscribe(self._on_changed),
        ]

    def _stop_listening(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()

    def _on_changed(self, _what: str) -> None:
        """Settings or a key changed while the agent could not start: try again."""
        self._retry()

    def _retry(self) -> None:
        if not self.pane.session.closed:
            self.pane.start()

    def _on_configured(self, agent: str) -> None:
        if agent == self.pane.agent_name:
            self._retry()
        else:
            self._switch(agent)

    def _on_agent_chosen(self, agent: str) -> None:
        services = self.services
        if services is not None:
            services.store.save(with_default_agent(services.store.settings, agent), "agents")
        if agent == self.pane.agent_name:
            self._retry()
        else:
            self._switch(agent)

    def _switch(self, agent: str) -> None:
        """Make ``agent`` the window's agent and replace this (empty) conversation with one."""
        window = self.pane.window()
        if self.settings_access is not None:
            self.settings_access.choose_agent(agent)
        new_conversation = getattr(window, "new_conversation", None)
        scope = getattr(window, "scope", None)
        if new_conversation is None or not isinstance(scope, TaskScope):
            return
        self._stop_listening()
        new_conversation()
        scope.spawn(self._close_pane(window), name="replace conversation")

    async def _close_pane(self, window: object) -> None:
        pane = self.pane
        await pane.aclose()
        remove = getattr(window, "remove_pane", None)
        if remove is not None:
            remove(pane)
