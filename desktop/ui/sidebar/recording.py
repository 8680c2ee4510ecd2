"""Recording one window conversation into the history while it streams.

A ``HistoryRecorder`` (the same one ``agentdesk exec`` uses) does the work. This wrapper adds
what the window needs: nothing is stored for a conversation nobody typed into (opening a window
must not leave an empty conversation behind), and events that arrive before the database is
open (the agent's ready event with its session id) are kept and written once it is. A history
write that fails (a full disk) is told in the conversation (``on_problem``), and again when
writing works once more: the writer keeps what it could not write and retries.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from desktop.core.events import Notice, SessionEvent, TurnStarted
from desktop.core.history import HistoryRecorder, HistoryWriter, WriterStatus
from desktop.core.session import Session

#: Events kept before the first prompt (a ready event, a few notices); more are not needed.
_MAX_EARLY = 64


class ConversationRecording:
    """Records ``session`` from its first prompt on.

    Args:
        session: The conversation's session.
        workspace: Its workspace folder.
        agent: The agent's name as stored (``ConversationSummary.agent``).
        redact: Applied to every text before it is written.
        on_created: Called with the new conversation id when its row is first written.
        recorder: Continue an existing stored conversation with this recorder instead.
        on_problem: Shows a notice in the conversation (history writes failing, then working).
    """

    def __init__(
        self,
        session: Session,
        workspace: Path,
        agent: str,
        *,
        redact: Callable[[str], str],
        on_created: Callable[[str], None] | None = None,
        recorder: HistoryRecorder | None = None,
        on_problem: Callable[[Notice], None] | None = None,
    ) -> None:
        self.workspace = workspace
        self.agent = agent
        self._redact = redact
        self._on_created = on_created
        self._recorder = recorder
        self._writer: HistoryWriter | None = None
        self._on_problem = on_problem
        self._unlisten: Callable[[], None] | None = None
        self._failing = False
        self._early: list[SessionEvent] = []
        self._prompted = False
        self._unsubscribe: Callable[[], None] | None = session.subscribe(self._on_event)

    @property
    def conversation_id(self) -> str | None:
        """The stored conversation's id (None until something was recorded)."""
        return self._recorder.conversation_id if self._recorder is not None else None

    def bind(self, writer: HistoryWriter) -> None:
        """The database is open: record through ``writer`` from now on."""
        self._writer = writer
        if self._on_problem is not None and self._unlisten is None:
            loop = asyncio.get_running_loop()

            def listener(status: WriterStatus) -> None:  # in the writer thread
                if not loop.is_closed():
                    loop.call_soon_threadsafe(self._status_changed, status)

            self._unlisten = writer.add_listener(listener)
        self._maybe_create()

    def _status_changed(self, status: WriterStatus) -> None:
        if self._on_problem is None or self._unsubscribe is None or self._recorder is None:
            return  # detached, or nothing of this conversation is being written
        if status.error is not None:
            self._failing = True
            message = (
                f"This conversation could not be saved to the history ({status.error}). "
                "Nothing shown here is lost; it is saved when that works again."
            )
        elif self._failing:
            self._failing = False
            message = "The history is saved again; nothing of this conversation was lost."
        else:
            return
        self._on_problem(Notice(level="warning" if self._failing else "info", message=message))

    def _on_event(self, event: SessionEvent) -> None:
        if self._recorder is not None:
            self._recorder.on_event(event)
            return
        if isinstance(event, TurnStarted):
            self._prompted = True
        if len(self._early) < _MAX_EARLY or self._prompted:
            self._early.append(event)
        self._maybe_create()

    def _maybe_create(self) -> None:
        if self._recorder is not None or self._writer is None or not self._prompted:
            return
        recorder = HistoryRecorder.start(
            self._writer, self.workspace, self.agent, redact=self._redact
        )
        self._recorder = recorder
        early, self._early = self._early, []
        for event in early:
            recorder.on_event(event)
        if self._on_created is not None:
            self._on_created(recorder.conversation_id)

    def detach(self) -> None:
        """Stop recording; what is open (streamed text) is written as it stands."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        if self._recorder is not None:
            self._recorder.flush()
