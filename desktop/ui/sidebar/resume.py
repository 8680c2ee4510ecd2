"""How a conversation reopened from history starts its agent.

The plan (``desktop.core.history.resume.plan_resume``) says: resume the agent's own session with
``--resume SESSION`` when the agent has sessions and one is stored, otherwise send an
``init_history`` summary of the stored transcript. Agents do not always cooperate, so this falls
back to the summary when the stored session is gone (the agent refuses to start with it) or when
the agent came up with a different session than the one asked for.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from desktop.core.backend import AgentStartError
from desktop.core.events import Notice
from desktop.core.history import (
    ResumePlan,
    StoredConversation,
    apply_history,
    build_resume_summary,
)
from desktop.core.session import Session

log = logging.getLogger(__name__)


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
