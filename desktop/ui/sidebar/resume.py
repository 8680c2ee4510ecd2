"""How a conversation reopened from history gets its agent in the window.

It starts as ``exec --continue`` does (``desktop.core.conversation.ResumeStarter``: the agent's
own session, else a summary). A conversation continues with the agent it was recorded with,
never silently with another: when that agent is not available here (``unavailable_reason``),
``PendingAgent`` holds the start until the user chooses (the window's agent, or the recorded one
once Settings made it work).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

from desktop.core.backend import AgentBackend, AgentStartError
from desktop.core.conversation import ResumeStarter
from desktop.core.events import Notice
from desktop.core.history import ResumePlan, StoredConversation, plan_resume
from desktop.core.launch.resolve import resolve
from desktop.core.launch.spec import AgentNotFoundError, AgentRef, MissingKeyError
from desktop.core.secrets import SecretStore, SecretStoreError
from desktop.core.session import BackendFactory, Session
from desktop.core.settings import Settings


class AgentSource(Protocol):
    """The agents a window can give a reopened conversation (``WorkspaceWindow.agents``)."""

    def current(self) -> tuple[str, BackendFactory | str]:
        """The window's agent for new conversations: name, factory or why it cannot run."""

    async def named(self, name: str) -> BackendFactory | str:
        """The agent ``name``: a factory, or why it is not available here."""

    def open_settings(self, page: str | None = None) -> None:
        """Show the window's Settings (at ``page``)."""

    def on_changed(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` when agents or profiles change; returns an unsubscribe function."""


async def unavailable_reason(settings: Settings, secrets: SecretStore, agent: str) -> str | None:
    """Why the agent named ``agent`` cannot run here (unknown name, program or profile
    missing), else None.

    A missing key or a locked keyring is no reason: starting the agent says so, where the user
    can fix it. Remote runtimes are assumed reachable (they are tried when the agent starts).
    """
    config = settings.agent(agent)
    if config is not None and config.kind == "remote":
        return None
    try:
        await resolve(AgentRef(agent), settings, secrets)
    except (MissingKeyError, SecretStoreError):
        return None
    except (AgentNotFoundError, ValueError) as exc:
        return str(exc)
    return None


class PendingAgent:
    """The agent of a reopened conversation whose recorded agent is not available.

    The pane is made with ``factory``, and this is its starter; nothing starts (a prompt
    typed meanwhile waits, shown as queued) until ``choose`` names the agent to continue with.

    Args:
        conversation: The stored conversation (its last items, when ``whole`` comes).
        notify: Shows a notice in the transcript.
        whole: The whole conversation to come (``ResumeStarter``'s).
    """

    def __init__(
        self,
        conversation: StoredConversation,
        notify: Callable[[Notice], None] | None = None,
        *,
        whole: Awaitable[StoredConversation] | None = None,
    ) -> None:
        self.conversation = conversation
        self.notify = notify
        self._whole = whole
        self._factory: BackendFactory | str | None = None
        self._plan: ResumePlan | None = None
        self._chosen: asyncio.Event | None = None
        self.starter: ResumeStarter | None = None  # the one used, once chosen (tests)

    @property
    def chosen(self) -> bool:
        """Whether an agent was chosen."""
        return self._factory is not None

    def choose(self, factory: BackendFactory | str, *, recorded: bool) -> None:
        """Continue with ``factory`` (or fail to start with the message), the recorded agent
        (its own session may be resumed) or another one (it gets a summary)."""
        self._factory = factory
        self._plan = plan_resume(self.conversation, agent_has_sessions=recorded)
        self._event().set()

    def factory(self, resume_id: str | None) -> AgentBackend:
        """The session's backend factory: the chosen agent's."""
        if self._factory is None:
            raise AgentStartError("no agent was chosen for this conversation")
        if isinstance(self._factory, str):
            raise AgentStartError(self._factory)
        return self._factory(resume_id)

    async def __call__(self, session: Session) -> None:
        """The pane's starter: wait for the choice, then start as a resumed conversation."""
        await self._event().wait()
        assert self._plan is not None
        session.agent_session_id = self._plan.resume_id
        self.starter = ResumeStarter(
            self.conversation, self._plan, notify=self.notify, whole=self._whole
        )
        await self.starter(session)

    def _event(self) -> asyncio.Event:
        if self._chosen is None:
            self._chosen = asyncio.Event()
        return self._chosen
