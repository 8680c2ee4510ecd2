"""``HistoryRecording``: the recording collaborator of a ``desktop.core.conversation.Conversation``.

The window and ``agentdesk exec`` record a conversation through this one class; each supplies
its own history writer (the window's shared ``HistoryService``, ``exec``'s own) and says how a
failing write is told (a notice in the window, an ``error`` event in ``exec``'s output). A
``HistoryRecorder`` does the writing. This class adds what both need around it:

- events that arrive before the database is open (the agent's ready event with its session id)
  are kept and written once it is (``bind``);
- with ``wait_for_prompt`` nothing is stored until the first prompt (opening a window must not
  leave an empty conversation behind); ``exec`` records its conversation at once;
- a history write that fails (a full disk) is reported through ``on_trouble`` with the error,
  and again with ``None`` when writing works once more (the writer keeps what it could not write
  and retries).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from desktop.core.events import SessionEvent
from desktop.core.history.recorder import HistoryRecorder
from desktop.core.history.writer import HistoryWriter, WriterStatus
from desktop.core.redaction import Redactor
from desktop.core.session import Session

#: Events kept before the first prompt (a ready event, a few notices); more are not needed.
_MAX_EARLY = 64

#: Told of history writes failing (the error) and working again (``None``).
TroubleListener = Callable[[str | None], None]


class HistoryRecording:
    """Records one conversation's session.

    Args:
        workspace: The conversation's workspace folder.
        agent: The agent's name as stored (``ConversationSummary.agent``).
        redactor: Removes known keys from every text before it is written.
        continues: The stored conversation this one continues and its next sequence number
            (``HistoryStore.next_seq``); else a new conversation is created through the writer.
        wait_for_prompt: Create a new conversation only at its first prompt.
        on_created: Called with the new conversation's id when its row is first written.
        on_trouble: Told of history writes failing and working again.
    """

    def __init__(
        self,
        workspace: Path,
        agent: str,
        *,
        redactor: Redactor,
        continues: tuple[str, int] | None = None,
        wait_for_prompt: bool = True,
        on_created: Callable[[str], None] | None = None,
        on_trouble: TroubleListener | None = None,
    ) -> None:
        self.workspace = workspace
        self.agent = agent
        self._redactor = redactor
        self._continues = continues
        self._recorder: HistoryRecorder | None = None
        self._prompted = not wait_for_prompt or continues is not None
        #: Called with the new conversation's id when its row is first written.
        self.on_created = on_created
        self._on_trouble = on_trouble
        self._writer: HistoryWriter | None = None
        self._unlisten: Callable[[], None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._failing = False
        self._early: list[SessionEvent] = []

    @property
    def conversation_id(self) -> str | None:
        """The stored conversation's id (None until something was recorded)."""
        return self._recorder.conversation_id if self._recorder is not None else None

    def attach(self, session: Session) -> None:
        """Record every event ``session`` publishes from now on (``Conversation.record``)."""
        if self._unsubscribe is None:
            self._unsubscribe = session.subscribe(self._on_event)

    def bind(self, writer: HistoryWriter) -> None:
        """The database is open: record through ``writer`` from now on."""
        self._writer = writer
        if self._on_trouble is not None and self._unlisten is None:
            loop = asyncio.get_running_loop()

            def listener(status: WriterStatus) -> None:  # in the writer thread
                if not loop.is_closed():
                    loop.call_soon_threadsafe(self._status_changed, status)

            self._unlisten = writer.add_listener(listener)
        self._maybe_create()

    def _status_changed(self, status: WriterStatus) -> None:
        if self._on_trouble is None or self._unsubscribe is None or self._recorder is None:
            return  # detached, or nothing of this conversation is being written
        if status.error is not None:
            self._failing = True
            self._on_trouble(status.error)
        elif self._failing:
            self._failing = False
            self._on_trouble(None)

    def _on_event(self, event: SessionEvent) -> None:
        if self._recorder is not None:
            self._recorder.on_event(event)
            return
        if event.type == "turn_started":
            self._prompted = True
        if len(self._early) < _MAX_EARLY or self._prompted:
            self._early.append(event)
        self._maybe_create()

    def _maybe_create(self) -> None:
        if self._recorder is not None or self._writer is None or not self._prompted:
            return
        if self._continues is not None:
            conv_id, next_seq = self._continues
            recorder = HistoryRecorder(
                self._writer, conv_id, next_seq=next_seq, has_title=True, redactor=self._redactor
            )
        else:
            recorder = HistoryRecorder.start(
                self._writer, self.workspace, self.agent, redactor=self._redactor
            )
        self._recorder = recorder
        early, self._early = self._early, []
        for event in early:
            recorder.on_event(event)
        if self._continues is None and self.on_created is not None:
            self.on_created(recorder.conversation_id)

    def flush(self) -> None:
        """Hand what is open (streamed text) to the writer now, as it stands."""
        if self._recorder is not None:
            self._recorder.flush()

    def detach(self) -> None:
        """Stop recording; what is open (streamed text) is written as it stands."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        self.flush()
