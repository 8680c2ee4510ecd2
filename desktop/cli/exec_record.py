"""The history side of ``agentdesk exec``.

Supplies the history writer of ``exec``'s conversation: the recording itself is the window's
(``desktop.core.history.HistoryRecording``, attached by ``Conversation.record``), with the keys
the launch used redacted; ``--continue`` loads the stored conversation the ``Conversation``
continues (by the agent's own session id when it has one, otherwise by an ``init_history``
summary). The launch itself is ``desktop.core.launch``'s.

History faults never stop the run, and never pass silently: a damaged database is moved aside
(one sentence on stderr says where), a read-only data folder runs without history (and says so),
and a write that fails becomes an ``error`` event in the output (a ``notice`` when writing works
again); what is still unsaved at the end makes ``exec`` exit 1 (``failed``).
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path

from desktop.core.events import ErrorEvent, Notice, SessionEvent
from desktop.core.history import (
    ConversationNotFoundError,
    HistoryRecording,
    HistorySchemaError,
    HistoryStore,
    HistoryUnavailableError,
    HistoryWriter,
    StoredConversation,
)
from desktop.core.launch.spec import Launch
from desktop.core.traffic_log import Redactor, secret_values


class RecordingError(Exception):
    """The history could not be opened, or the conversation to continue was not found."""


class ExecRecording:
    """Everything ``exec`` needs from the history: its writer, the recording, the stored
    conversation to continue, and what to say when writes fail.

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
        #: The conversation's recording (``Conversation.record``; None: not recorded).
        self.recording: HistoryRecording | None = None
        self._sink: Callable[[SessionEvent], None] | None = None
        self._flush: Callable[[], None] = lambda: None
        self._undelivered: list[SessionEvent] = []
        #: Some of the conversation could not be saved (exit status 1).
        self.failed = False

    def report_to(self, sink: Callable[[SessionEvent], None], flush: Callable[[], None]) -> None:
        """Send history problems to ``sink`` (the output printer) as session events, each
        followed by ``flush`` (they may come after the session's output was flushed)."""
        self._sink, self._flush = sink, flush
        undelivered, self._undelivered = self._undelivered, []
        for event in undelivered:
            self._report(event)

    def _report(self, event: SessionEvent) -> None:
        if self._sink is None:
            self._undelivered.append(event)
            return
        self._sink(event)
        self._flush()

    def _on_trouble(self, error: str | None) -> None:
        if error is not None:
            self._report(
                ErrorEvent(
                    code="history_write_failed",
                    message=f"Saving this conversation to the history failed ({error}); "
                    "it is kept in memory and written when that works again.",
                    retryable=True,
                )
            )
        else:
            message = "The history is written again; nothing of this conversation is lost."
            self._report(Notice(message=message))

    @property
    def secrets(self) -> list[str]:
        """The key values the launch used (redacted from the history and the output)."""
        return list(self._secrets)

    async def open(self, conversation: str | None, launch: Launch) -> StoredConversation | None:
        """Prepare recording (a new or a continued conversation); returns the stored
        conversation to continue (``desktop.core.conversation.Conversation.continuing``).

        Raises:
            RecordingError: the history is unusable or the conversation is unknown.
        """
        if not self._enabled:
            if conversation:
                raise RecordingError("--continue needs the history; drop --no-history")
            return None
        try:
            self._writer = await asyncio.to_thread(HistoryWriter)
        except HistoryUnavailableError as exc:
            if conversation:
                raise RecordingError(f"--continue needs the history, but {exc}") from exc
            print(f"agentdesk: {exc} (this run goes on without it)", file=sys.stderr)
            return None
        except (HistorySchemaError, OSError) as exc:
            raise RecordingError(f"the history database is unusable: {exc}") from exc
        if self._writer.recovered:
            print(f"agentdesk: {self._writer.recovered}", file=sys.stderr)
        redactor = Redactor([*self._secrets, *secret_values(os.environ)])
        stored = continues = None
        if conversation is not None:
            try:
                stored, next_seq = await asyncio.to_thread(_load, conversation)
            except ConversationNotFoundError as exc:
                raise RecordingError(str(exc)) from exc
            continues = (stored.id, next_seq)
        # Recorded from the start (the window waits for the first prompt).
        self.recording = HistoryRecording(
            self._workspace,
            launch.name,
            redactor=redactor,
            continues=continues,
            wait_for_prompt=False,
            on_trouble=self._on_trouble,
        )
        self.recording.bind(self._writer)
        return stored

    async def close(self) -> None:
        """Write what is left and close the database (the session is closed: a write that
        fails or works again while the writer drains is still told)."""
        if self.recording is not None:
            self.recording.flush()
        if self._writer is None:
            return
        await asyncio.to_thread(self._writer.close)
        if self.recording is not None:
            self.recording.detach()
        status = self._writer.status
        if not status.ok:
            self.failed = True
            lost = status.unsaved + status.dropped
            self._report(
                ErrorEvent(
                    code="history_write_failed",
                    message=f"{lost} records of this conversation could not be saved to the "
                    f"history ({status.error or 'too many were waiting'}).",
                )
            )


def _load(conversation: str) -> tuple[StoredConversation, int]:
    store = HistoryStore()
    try:
        conv_id = store.resolve(conversation)
        return store.get(conv_id), store.next_seq(conv_id)
    finally:
        store.close()
