"""The history side of ``agentdesk exec``.

Records the run in the history database (with the keys the launch used redacted) and continues
a stored conversation with ``--continue`` (by the agent's own session id when it has one,
otherwise by an ``init_history`` summary). The launch itself is ``exec_launch``'s.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from desktop.core.agents import AgentChoice
from desktop.core.history import (
    ConversationNotFoundError,
    HistoryRecorder,
    HistorySchemaError,
    HistoryStore,
    HistoryWriter,
    ResumePlan,
    StoredConversation,
    apply_history,
    plan_resume,
)
from desktop.core.session import Session
from desktop.core.traffic_log import Redactor, secret_values


class RecordingError(Exception):
    """The history could not be opened, or the conversation to continue was not found."""


class ExecRecording:
    """Everything ``exec`` needs from the history: record and resume.

    Args:
        workspace: The folder the agent works in (the conversation's workspace).
        enabled: Record the run (``--no-history`` turns it off).
        secrets: Key values the launch put into the agent's environment (redacted).
    """

    def __init__(self, workspace: Path, *, enabled: bool, secrets: list[str] | None = None) -> None:
        self._workspace = workspace
        self._enabled = enabled
        self._secrets = list(secrets or [])
        self._writer: HistoryWriter | None = None
        self._recorder: HistoryRecorder | None = None
        self._plan = ResumePlan()

    async def open(self, conversation: str | None, choice: AgentChoice) -> str | None:
        """Prepare recording (a new or a continued conversation); returns the id to resume.

        Raises:
            RecordingError: the history is unusable or the conversation is unknown.
        """
        if not self._enabled:
            if conversation:
                raise RecordingError("--continue needs the history; drop --no-history")
            return None
        try:
            self._writer = await asyncio.to_thread(HistoryWriter)
        except (HistorySchemaError, OSError) as exc:
            raise RecordingError(f"the history database is unusable: {exc}") from exc
        redact = Redactor([*self._secrets, *secret_values(os.environ)]).text

        if conversation is None:
            self._recorder = HistoryRecorder.start(
                self._writer, self._workspace, choice.name, redact=redact
            )
            return None
        try:
            stored, next_seq = await asyncio.to_thread(_load, conversation)
        except ConversationNotFoundError as exc:
            raise RecordingError(str(exc)) from exc
        same_agent = stored.agent == choice.name and choice.resume_flag is not None
        self._plan = plan_resume(stored, agent_has_sessions=same_agent)
        self._recorder = HistoryRecorder(
            self._writer, stored.id, next_seq=next_seq, has_title=True, redact=redact
        )
        return self._plan.resume_id

    def attach(self, session: Session) -> None:
        """Record ``session``'s events."""
        if self._recorder is not None:
            self._recorder.attach(session)

    async def after_start(self, session: Session) -> None:
        """Send the ``init_history`` summary when the conversation is continued without a
        session id."""
        await apply_history(session, self._plan)

    async def close(self) -> None:
        """Write what is left and close the database."""
        if self._recorder is not None:
            self._recorder.detach()
        if self._writer is not None:
            await asyncio.to_thread(self._writer.close)


def _load(conversation: str) -> tuple[StoredConversation, int]:
    store = HistoryStore()
    try:
        conv_id = store.resolve(conversation)
        return store.get(conv_id), store.next_seq(conv_id)
    finally:
        store.close()
