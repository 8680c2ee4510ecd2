"""``HistoryRecorder``: writes a session's transcript to the history database while it streams.

The recorder keeps a ``desktop.core.transcript.Transcript`` of the session's events and hands
each entry that changed to the ``HistoryWriter`` as typed JSON: completed entries (a prompt, a
finished tool call, an error, the end of a turn) whole and at once; streamed assistant text and
thinking as the text added since the last write, at most every ``flush_interval`` seconds (0.25 s
by default). A crash therefore loses at most that much streamed text and never a completed entry.

Streamed text is appended, not rewritten: rewriting (and redacting) a long answer whole at every
write made each write cost as much as the answer so far (2.4 MB at the end of a long one), on the
event loop and in the writer thread beside it. A piece is redacted as it is written
(``StreamRedaction``: a secret split across two pieces is held back until it is whole). The
recorder runs on the event loop but never touches SQLite itself.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from desktop.core.entries import FINAL, Added, Appended, Item, StreamItem, ToolItem
from desktop.core.events import SessionEvent
from desktop.core.history.items import clip_output, entry_json, search_text
from desktop.core.history.titles import title_from_prompt
from desktop.core.history.writer import (
    CreateConversation,
    HistoryWriter,
    ItemWrite,
    UpdateConversation,
)
from desktop.core.redaction import Redactor, StreamRedaction
from desktop.core.session import Session
from desktop.core.transcript import Transcript


class HistoryRecorder:
    """Records one conversation.

    Args:
        writer: The shared database writer.
        conversation_id: An existing conversation (see ``start``/``resume`` to make one).
        next_seq: Sequence number of the next item (``HistoryStore.next_seq`` when resuming).
        has_title: Whether the conversation already has a title (else the first prompt gives it).
        flush_interval: Longest time streamed text waits before it is written.
        redactor: Removes known API keys (and key-shaped strings) from every text written.
    """

    def __init__(
        self,
        writer: HistoryWriter,
        conversation_id: str,
        *,
        next_seq: int = 0,
        has_title: bool = False,
        flush_interval: float = 0.25,
        redactor: Redactor | None = None,
    ) -> None:
        self.conversation_id = conversation_id
        self._writer = writer
        self._first_seq = next_seq
        self._has_title = has_title
        self._interval = flush_interval
        self._redactor = redactor or Redactor(())
        self._redact = self._redactor.text
        self._transcript = Transcript()
        self._created: list[float] = []  # by entry key: when it was added
        self._open: set[int] = set()  # keys of tool calls written while still open
        self._open_items: dict[int, ToolItem] = {}  # what was written of each open call
        self._stream: int | None = None  # key of the stream with text not written yet
        self._pieces: list[str] = []  # its text not written yet
        self._redaction = StreamRedaction(self._redactor)  # its text written, redacted
        self._timer: asyncio.TimerHandle | None = None
        self._unsubscribe: Callable[[], None] | None = None

    @classmethod
    def start(
        cls, writer: HistoryWriter, workspace: Path | str, agent: str, **options: Any
    ) -> HistoryRecorder:
        """A recorder for a new conversation (its row is created through the writer)."""
        conv_id = uuid.uuid4().hex
        writer.submit(CreateConversation(conv_id, str(workspace), agent))
        return cls(writer, conv_id, **options)

    def attach(self, session: Session) -> None:
        """Record every event ``session`` publishes from now on."""
        self.detach()
        self._unsubscribe = session.subscribe(self.on_event)

    def detach(self) -> None:
        """Stop recording (what is open is written as it stands)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.flush()

    def flush(self) -> None:
        """Hand everything streamed so far to the writer now, as it stands (the recording or the
        session ends: the text held back in case it starts a secret is written too)."""
        self._flush(whole=True)

    def _flush(self, *, whole: bool = False) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._stream is not None and (self._pieces or whole):
            self._write_text(self._transcript.peek(self._stream), whole=whole)

    # ------------------------------------------------------------------ events

    def on_event(self, event: SessionEvent) -> None:
        """Session subscriber: apply one event to the transcript and write what changed."""
        # ``event.type``, not ``isinstance``: this runs for every text delta, and ``isinstance``
        # on a pydantic model runs Python code.
        if event.type == "agent_ready" and event.session_id:
            update = UpdateConversation(self.conversation_id, agent_session_id=event.session_id)
            self._writer.submit(update)
        elif event.type == "turn_started" and not self._has_title:
            self._has_title = True
            title = self._redact(title_from_prompt(event.prompt))
            self._writer.submit(UpdateConversation(self.conversation_id, title=title))
        elif event.type == "turn_ended":
            # A call still open when its turn ends never finishes: it is written as it stands.
            for key in sorted(self._open):
                if self._transcript.peek(key).turn_id in (None, event.turn_id):
                    self._open.discard(key)
                    self._write(self._transcript.item(key), complete=True)
        for change in self._transcript.apply(event):
            if isinstance(change, Appended):  # a plain class: a fast check
                self._streamed(change)
            else:
                if isinstance(change, Added):
                    self._created.append(time.time())
                self._changed(change.item)

    def _streamed(self, change: Appended) -> None:
        self._stream = change.key  # the transcript closes a stream before it opens the next
        self._pieces.append(change.text)
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self._flush()
                return
            self._timer = loop.call_later(self._interval, self._flush)

    def _changed(self, item: Item) -> None:
        if isinstance(item, StreamItem):
            if item.done and item.key == self._stream:  # closed: written complete now
                self._flush(whole=True)
            return  # an open stream is written by ``_flush``
        if isinstance(item, ToolItem) and item.status not in FINAL:
            if _same_but_live(item, self._open_items.get(item.key)):
                return  # only its live output moved (not stored: the result holds it)
            self._open_items[item.key] = item
            self._open.add(item.key)
        else:
            self._open.discard(item.key)
            self._open_items.pop(item.key, None)
        self._write(item)

    def _write_text(self, stream: Item, *, whole: bool) -> None:
        """Append the text ``stream`` received since it was last written; unless ``whole``, the
        end of it that may be the start of a secret is held back."""
        assert isinstance(stream, StreamItem)
        written = self._redaction.add("".join(self._pieces))
        self._pieces.clear()
        if whole:
            written += self._redaction.end()
        if stream.done:
            self._stream = None
        self._writer.submit(
            ItemWrite(
                conversation_id=self.conversation_id,
                seq=self._first_seq + stream.key,
                kind=stream.type,
                text=written,
                data=self._redact(entry_json(stream)),  # its text is not in it
                complete=stream.done,
                created_at=self._created[stream.key],
                turn_id=stream.turn_id,
                append=True,
            )
        )
        if stream.done:
            self._writer.submit(UpdateConversation(self.conversation_id))

    def _write(self, item: Item, *, complete: bool | None = None) -> None:
        if isinstance(item, ToolItem):
            item = clip_output(item)
        if complete is None:
            complete = not isinstance(item, ToolItem) or item.status in FINAL
        self._writer.submit(
            ItemWrite(
                conversation_id=self.conversation_id,
                seq=self._first_seq + item.key,
                kind=item.type,
                text=search_text(item),
                data=entry_json(item),
                redact=self._redact,
                complete=complete,
                created_at=self._created[item.key],
                turn_id=item.turn_id,
                call_id=item.request.call_id if isinstance(item, ToolItem) else None,
            )
        )
        if complete:
            self._writer.submit(UpdateConversation(self.conversation_id))


#: Fields of a tool entry that change while its command streams output (never stored).
_LIVE = frozenset({"live_output", "live_chars"})


def _same_but_live(item: ToolItem, written: ToolItem | None) -> bool:
    """Whether ``item`` differs from the entry last ``written`` only in its live output (a
    transcript update copies the entry, so every other field is the very same object)."""
    if written is None:
        return False
    now, then = item.__dict__, written.__dict__
    return all(now[name] is then[name] for name in now if name not in _LIVE)
