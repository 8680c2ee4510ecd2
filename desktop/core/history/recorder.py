"""``HistoryRecorder``: writes a session's events to the history database while they stream.

Each conversation item is kept in memory in its current state and handed to the
``HistoryWriter`` as a whole: completed items (a prompt, a finished tool call, an error, the end
of a turn) at once; streamed assistant text and thinking at most every ``flush_interval`` seconds
(0.25 s by default). A crash therefore loses at most that much streamed text and never a completed
item. The recorder runs on the event loop but never touches SQLite itself.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop.core.events import (
    AgentExited,
    AgentReady,
    ErrorEvent,
    Notice,
    SessionEvent,
    TextDelta,
    ThinkingDelta,
    ToolCancelled,
    ToolDecided,
    ToolFinished,
    ToolRequested,
    ToolStarted,
    TurnEnded,
    TurnStarted,
)
from desktop.core.history.models import ItemKind
from desktop.core.history.store import title_from_prompt
from desktop.core.history.writer import (
    CreateConversation,
    HistoryWriter,
    ItemWrite,
    UpdateConversation,
    dumps,
)
from desktop.core.session import Session

#: Tool output beyond this many characters is cut (the agent's own log keeps the rest).
MAX_OUTPUT = 256 * 1024


@dataclass
class _Item:
    seq: int
    kind: ItemKind
    turn_id: str | None = None
    call_id: str | None = None
    text: str = ""
    chunks: list[str] = field(default_factory=list)  # streamed text not yet joined into text
    data: dict[str, Any] = field(default_factory=dict)
    complete: bool = False
    created_at: float = field(default_factory=time.time)


class HistoryRecorder:
    """Records one conversation.

    Args:
        writer: The shared database writer.
        conversation_id: An existing conversation (see ``start``/``resume`` to make one).
        next_seq: Sequence number of the next item (``HistoryStore.next_seq`` when resuming).
        has_title: Whether the conversation already has a title (else the first prompt gives it).
        flush_interval: Longest time streamed text waits before it is written.
        redact: Applied to every text before it is written (e.g. removes known API keys).
    """

    def __init__(
        self,
        writer: HistoryWriter,
        conversation_id: str,
        *,
        next_seq: int = 0,
        has_title: bool = False,
        flush_interval: float = 0.25,
        redact: Callable[[str], str] | None = None,
    ) -> None:
        self.conversation_id = conversation_id
        self._writer = writer
        self._seq = next_seq
        self._has_title = has_title
        self._interval = flush_interval
        self._redact = redact or (lambda text: text)
        self._stream: _Item | None = None
        self._tools: dict[str, _Item] = {}
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
        """Hand the streaming item's current text to the writer now."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._stream is not None:
            self._write(self._stream)

    # ------------------------------------------------------------------ events

    def on_event(self, event: SessionEvent) -> None:
        """Session subscriber: turn one event into item writes."""
        if isinstance(event, TextDelta | ThinkingDelta):
            self._delta(event)
            return
        if isinstance(event, AgentReady):
            if event.session_id:
                self._writer.submit(
                    UpdateConversation(self.conversation_id, agent_session_id=event.session_id)
                )
            return
        if isinstance(event, ToolDecided | ToolStarted):
            self._tool_update(event)
            return
        if isinstance(
            event,
            (
                TurnStarted | ToolRequested | ToolFinished | ToolCancelled | TurnEnded,
                ErrorEvent | Notice | AgentExited,
            ),
        ):
            self._end_stream()
            self._complete_event(event)

    def _complete_event(self, event: SessionEvent) -> None:
        if isinstance(event, TurnStarted):
            self._add(ItemKind.USER, event.turn_id, text=event.prompt, data={"files": event.files})
            if not self._has_title:
                self._has_title = True
                self._writer.submit(
                    UpdateConversation(
                        self.conversation_id, title=self._redact(title_from_prompt(event.prompt))
                    )
                )
        elif isinstance(event, ToolRequested):
            self._tool_requested(event)
        elif isinstance(event, ToolFinished | ToolCancelled):
            self._tool_done(event)
        elif isinstance(event, TurnEnded):
            for item in list(self._tools.values()):
                if item.turn_id in (None, event.turn_id):
                    item.data.setdefault("status", "cancelled")
                    self._finish(item)
            usage = event.usage.model_dump() if event.usage is not None else None
            data: dict[str, Any] = {
                "reason": event.reason.value,
                "usage": usage,
                "message": event.message,
            }
            self._add(ItemKind.TURN_END, event.turn_id, text=event.message or "", data=data)
        elif isinstance(event, ErrorEvent):
            data = {"code": event.code, "retryable": event.retryable}
            self._add(ItemKind.ERROR, event.turn_id, text=event.message, data=data)
        elif isinstance(event, Notice):
            self._add(
                ItemKind.NOTICE, event.turn_id, text=event.message, data={"level": event.level}
            )
        elif isinstance(event, AgentExited) and not event.expected:
            data = {"exit_code": event.exit_code, "signal": event.signal}
            self._add(ItemKind.AGENT_EXITED, None, text="The agent exited.", data=data)

    def _delta(self, event: TextDelta | ThinkingDelta) -> None:
        kind = ItemKind.ASSISTANT if isinstance(event, TextDelta) else ItemKind.THINKING
        if self._stream is not None and (
            self._stream.kind != kind or self._stream.turn_id != event.turn_id
        ):
            self._end_stream()
        if self._stream is None:
            self._stream = self._new(kind, event.turn_id)
        self._stream.chunks.append(event.text)  # joined once per flush: O(n), not O(n²)
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self._write(self._stream)
                return
            self._timer = loop.call_later(self._interval, self.flush)

    def _end_stream(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._stream is not None:
            self._finish(self._stream)
            self._stream = None

    def _tool_requested(self, event: ToolRequested) -> None:
        item = self._tools.get(event.call_id) or self._new(
            ItemKind.TOOL, event.turn_id, call_id=event.call_id
        )
        self._tools[event.call_id] = item
        preview = event.preview.model_dump() if event.preview is not None else None
        item.data.update(
            name=event.name,
            category=event.category.value,
            args=event.args,
            description=event.description,
            preview=preview,
            status="requested",
        )
        item.text = _tool_text(item.data)
        self._write(item)

    def _tool_update(self, event: ToolDecided | ToolStarted) -> None:
        item = self._tools.get(event.call_id)
        if item is None:
            self._end_stream()
            item = self._new(ItemKind.TOOL, event.turn_id, call_id=event.call_id)
            self._tools[event.call_id] = item
        if isinstance(event, ToolDecided):
            item.data["decision"] = {
                "decision": event.decision.value,
                "source": event.source.value,
                "source_name": event.source_name,
                "reason": event.reason,
                "at": time.time(),  # the card says when it was decided
            }
        else:
            item.data.setdefault("name", event.name)
            if event.args is not None:
                item.data.setdefault("args", event.args)
            item.data["status"] = "running"
        item.text = _tool_text(item.data)
        self._write(item)

    def _tool_done(self, event: ToolFinished | ToolCancelled) -> None:
        item = self._tools.get(event.call_id) or self._new(
            ItemKind.TOOL, event.turn_id, call_id=event.call_id
        )
        self._tools[event.call_id] = item
        if isinstance(event, ToolFinished):
            item.data.setdefault("name", event.name)
            item.data.update(
                status=event.status,
                output=event.output[:MAX_OUTPUT],
                output_truncated=len(event.output) > MAX_OUTPUT,
                output_type=event.output_type,
                diff=event.diff,
                file_path=event.file_path,
            )
        else:
            item.data.update(status="cancelled", reason=event.reason)
        item.text = _tool_text(item.data)
        self._finish(item)

    # ------------------------------------------------------------------ items

    def _new(self, kind: ItemKind, turn_id: str | None, *, call_id: str | None = None) -> _Item:
        item = _Item(seq=self._seq, kind=kind, turn_id=turn_id, call_id=call_id)
        self._seq += 1
        return item

    def _add(self, kind: ItemKind, turn_id: str | None, *, text: str, data: dict[str, Any]) -> None:
        item = self._new(kind, turn_id)
        item.text = text
        item.data = data
        self._finish(item)

    def _finish(self, item: _Item) -> None:
        item.complete = True
        if item.call_id is not None:
            self._tools.pop(item.call_id, None)
        self._write(item)
        self._writer.submit(UpdateConversation(self.conversation_id))

    def _write(self, item: _Item) -> None:
        if item.chunks:
            item.text += "".join(item.chunks)
            item.chunks.clear()
        self._writer.submit(
            ItemWrite(
                conversation_id=self.conversation_id,
                seq=item.seq,
                kind=item.kind.value,
                text=item.text,
                data=dumps(item.data),
                redact=self._redact,
                complete=item.complete,
                created_at=item.created_at,
                turn_id=item.turn_id,
                call_id=item.call_id,
            )
        )


def _tool_text(data: dict[str, Any]) -> str:
    """What full-text search sees of a tool call: name, arguments, description and output."""
    parts = [
        str(data.get("name", "")),
        dumps(data.get("args", {})),
        str(data.get("description", "")),
    ]
    if data.get("output"):
        parts.append(str(data["output"]))
    return "\n".join(p for p in parts if p and p != "{}")
