"""One conversation: its session, how it starts, its recording and its extensions.

The window and ``exec`` build it the same way: a ``Conversation`` (new, or ``continuing`` a stored
one), then ``record`` (a ``desktop.core.history.recording.HistoryRecording`` over the front
end's history writer) and ``extend`` (a ``desktop.core.extensions.link.ExtensionLink`` over the
front end's extension runtime), so the two cannot diverge on what is recorded or how extensions
see the conversation. ``detach`` ends both (what is open is written).

A new conversation starts its agent plainly. A continued one (reopened from history in the
window, ``agentdesk exec --continue``) follows one resume plan (``ResumeStarter``): resume the
agent's own session when the agent has sessions and one is stored, otherwise send an
``init_history`` summary of the stored transcript. Agents do not always cooperate, so it falls
back to the summary when the stored session is gone (the agent refuses to start with it) or when
the agent came up with a different session than the one asked for. Both front ends build a
``Conversation`` and call ``start``, so they cannot diverge on this.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Protocol

from desktop.core.backend import AgentStartError
from desktop.core.entries import Item
from desktop.core.events import ApprovalMode, Notice
from desktop.core.history.models import ItemKind, StoredConversation, StoredItem
from desktop.core.history.resume import (
    ResumePlan,
    apply_history,
    build_resume_summary,
    plan_resume,
)
from desktop.core.launch.deferred import LazyBackend
from desktop.core.session import BackendFactory, Session
from desktop.core.texts import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

#: Starts a conversation's session in place of ``Session.start`` (a continued conversation).
Starter = Callable[[Session], Awaitable[object]]


class Collaborator(Protocol):
    """Something a conversation attaches to its session and detaches when it ends: its
    recording (``HistoryRecording``) and its extensions (``ExtensionLink``)."""

    def attach(self, session: Session) -> None:
        """Follow ``session`` from now on."""

    def detach(self) -> None:
        """Stop following it (what is open is finished as it stands)."""


class ResumeStarter:
    """Starts a session for a stored conversation.

    Args:
        conversation: The stored conversation being continued.
        plan: How to continue it; the session was created with ``resume_id=plan.resume_id``.
        notify: Shows a notice (not recorded: it is about this run, not the conversation).
        whole: When ``conversation`` holds only its last items, the whole conversation to come
            (the start waits for it: a summary is made of all of it).
    """

    def __init__(
        self,
        conversation: StoredConversation,
        plan: ResumePlan,
        notify: Callable[[Notice], None] | None = None,
        *,
        whole: Awaitable[StoredConversation] | None = None,
    ) -> None:
        self.conversation = conversation
        self.plan = plan
        self.used: ResumePlan | None = None  # what was actually done (tests, diagnostics)
        self.notify = notify
        self._whole = whole

    @classmethod
    def planned(
        cls,
        conversation: StoredConversation,
        *,
        agent_has_sessions: bool,
        notify: Callable[[Notice], None] | None = None,
    ) -> ResumeStarter:
        """The starter of ``conversation`` continued by an agent that keeps sessions (its own
        recorded agent) or not (another agent, or one without sessions: it gets a summary)."""
        return cls(
            conversation, plan_resume(conversation, agent_has_sessions=agent_has_sessions), notify
        )

    async def __call__(self, session: Session) -> None:
        """Start ``session`` and bring the agent up to date with the conversation.

        Raises:
            AgentStartError: the agent cannot start at all.
        """
        if self._whole is not None:
            self.conversation, self._whole = await self._whole, None
            if self.plan.init_history is not None:
                self.plan = self._summary_plan()
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
        if plan.init_history and self.notify is not None:
            text = QT_TRANSLATE_NOOP(
                "Resume", "The agent got a summary of this conversation to continue from."
            )
            self.notify(Notice(message=text.english, i18n=text))

    def _summary_plan(self) -> ResumePlan:
        return ResumePlan(init_history=build_resume_summary(self.conversation))


class Conversation:
    """A conversation's session, its starter, its recording and its extensions.

    Args:
        factory: The agent's backend factory (``desktop.core.launch``).
        workspace: The folder the agent works in.
        mode: The initial approval mode.
        resume_id: The agent session to resume (a continued conversation's plan says which).
        starter: Starts the session instead of ``Session.start``.
    """

    def __init__(
        self,
        factory: BackendFactory,
        *,
        workspace: Path,
        mode: ApprovalMode = ApprovalMode.DEFAULT,
        resume_id: str | None = None,
        starter: Starter | None = None,
    ) -> None:
        self.session = Session(factory, workspace=workspace, mode=mode, resume_id=resume_id)
        #: Starts the session instead of ``Session.start`` (a continued conversation, or the
        #: window's ``PendingAgent`` waiting for the user to choose an agent).
        self.starter = starter
        #: Records the conversation into the history (``record``; None: not recorded).
        self.recording: Collaborator | None = None
        #: Connects it to extensions (``extend``; None: no extensions).
        self.extensions: Collaborator | None = None
        #: Records the workspace around its turns (``checkpoint``; None: no checkpoints).
        self.checkpoints: Collaborator | None = None

    def record(self, recording: Collaborator) -> None:
        """Record the conversation with ``recording`` (it sees every event from now on)."""
        self.recording = recording
        recording.attach(self.session)

    def extend(self, extensions: Collaborator) -> None:
        """Connect the conversation to extensions through ``extensions``."""
        self.extensions = extensions
        extensions.attach(self.session)

    def checkpoint(self, checkpoints: Collaborator) -> None:
        """Record the workspace around each turn with ``checkpoints`` (a
        ``desktop.core.checkpoints.recorder.CheckpointRecorder``), as the window and ``exec`` do."""
        self.checkpoints = checkpoints
        checkpoints.attach(self.session)

    def detach(self) -> None:
        """Detach the recording (what is open is written), the extensions and the checkpoints."""
        for collaborator in (self.extensions, self.recording, self.checkpoints):
            if collaborator is not None:
                collaborator.detach()
        self.extensions = self.recording = self.checkpoints = None

    @classmethod
    def continuing(
        cls,
        factory: BackendFactory,
        stored: StoredConversation,
        *,
        agent_has_sessions: bool,
        workspace: Path,
        mode: ApprovalMode = ApprovalMode.DEFAULT,
        notify: Callable[[Notice], None] | None = None,
    ) -> Conversation:
        """Continue ``stored`` with the agent of ``factory``: it resumes its own session when it
        keeps sessions (``agent_has_sessions``: it is the recorded agent), else gets a summary."""
        resume = ResumeStarter.planned(stored, agent_has_sessions=agent_has_sessions, notify=notify)
        return cls(
            factory, workspace=workspace, mode=mode, resume_id=resume.plan.resume_id, starter=resume
        )

    async def check(self) -> None:
        """Find, without starting the agent, whether it can start (a deferred agent resolves its
        program and key): a problem is published as its start would publish it, so the window
        offers the fix before the first prompt. The agent itself starts with that prompt."""
        backend = self.session.factory(None)
        if isinstance(backend, LazyBackend):
            try:
                await backend.resolved()
            except AgentStartError as exc:
                self.session.publish(exc.event())

    async def suspend(self, transcript: Sequence[Item]) -> bool:
        """Stop the agent of an idle conversation to free its memory (False: not idle). The next
        ``start`` continues the conversation with the resume plan a conversation reopened from
        history gets (``ResumeStarter``): the agent's own session, else a summary of
        ``transcript`` (the conversation so far)."""
        if not await self.session.suspend():
            return False
        so_far = StoredConversation(
            id="",
            workspace=str(self.session.workspace),
            title="",
            agent="",
            agent_session_id=self.session.agent_session_id,
            created_at=0,
            updated_at=0,
            items=[
                StoredItem(id=n, seq=n, kind=ItemKind(item.type), entry=item, created_at=0)
                for n, item in enumerate(transcript)
            ],
        )
        self.starter = ResumeStarter.planned(so_far, agent_has_sessions=True)
        return True

    async def start(self) -> None:
        """Start the agent: plainly, or as the starter says.

        Raises:
            AgentStartError: the agent cannot start.
        """
        if self.starter is not None:
            await self.starter(self.session)
        else:
            await self.session.start()
