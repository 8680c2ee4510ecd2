"""How a conversation reopened from history starts its agent.

The plan (``desktop.core.history.resume.plan_resume``) says: resume the agent's own session with
``--resume SESSION`` when the agent has sessions and one is stored, otherwise send an
``init_history`` summary of the stored transcript. Agents do not always cooperate, so this falls
back to the summary when the stored session is gone (the agent refuses to start with it) or when
the agent came up with a different session than the one asked for.

A conversation continues with the agent it was recorded with, never silently with another:
when that agent is not available here (``unavailable_reason``), ``PendingAgent`` holds the start
until the user chooses (the window's agent, or the recorded one once Settings made it work).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from desktop.core.backend import AgentBackend, AgentStartError
from desktop.core.events import Notice
from desktop.core.history import (
    ResumePlan,
    StoredConversation,
    apply_history,
    build_resume_summary,
    plan_resume,
)
from desktop.core.launch.resolve import resolve
from desktop.core.launch.spec import AgentNotFoundError, AgentRef, MissingKeyError
from desktop.core.secrets import SecretStore, SecretStoreError
from desktop.core.session import BackendFactory, Session
from desktop.core.settings import Settings

log = logging.getLogger(__name__)


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


class ResumeStarter:
    """Starts a session for a stored conversation (``ConversationPane.starter``).

    Args:
        conversation: The stored conversation being continued.
        plan: How to continue it; the session was created with ``resume_id=plan.resume_id``.
        notify: Shows a notice in the transcript (not recorded: it is about this window).
    """

    def __init__(
        self,
        conversation: StoredConversation,
        plan: ResumePlan,
        notify: Callable[[Notice], None] | None = None,
    ) -> None:
        self.conversation = conversation
        self.plan = plan
        self.used: ResumePlan | None = None  # what was actually done (tests, diagnostics)
        self._notify = notify

    async def __call__(self, session: Session) -> None:
        """Start ``session`` and bring the agent up to date with the conversation.

        Raises:
            AgentStartError: the agent cannot start at all.
        """
        plan = self.plan
        try:
            ready = await session.start()
        except AgentStartError:
            if plan.resume_id is None:
                raise
            log.info("the agent could not resume session %s; sending a summary", plan.resume_id)
            session.agent_session_id = None
            ready = await session.start()
            plan = self._summary_plan()
        else:
            if plan.resume_id is not None and ready.session_id != plan.resume_id:
                plan = self._summary_plan()
        self.used = plan
        await apply_history(session, plan)
        if plan.init_history and self._notify is not None:
            self._notify(
                Notice(message="The agent got a summary of this conversation to continue from.")
            )

    def _summary_plan(self) -> ResumePlan:
        return ResumePlan(init_history=build_resume_summary(self.conversation))


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
        conversation: The stored conversation.
        notify: Shows a notice in the transcript.
    """

    def __init__(
        self, conversation: StoredConversation, notify: Callable[[Notice], None] | None = None
    ) -> None:
        self.conversation = conversation
        self.notify = notify
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
        self.starter = ResumeStarter(self.conversation, self._plan, notify=self.notify)
        await self.starter(session)

    def _event(self) -> asyncio.Event:
        if self._chosen is None:
            self._chosen = asyncio.Event()
        return self._chosen
