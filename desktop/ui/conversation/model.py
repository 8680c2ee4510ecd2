"""The transcript of one conversation: ordered items built from session events.

The model keeps everything that was shown (nothing is lost when the agent exits or restarts) and
tells the view which item was added or changed; the view decides when to repaint. Streaming text
is kept as a list of pieces, because ``str +=`` over 200,000 deltas is quadratic.
"""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass, field
from enum import StrEnum

from PySide6.QtCore import QObject, Signal

from desktop.core.events import (
    AgentExited,
    AgentReady,
    ErrorEvent,
    Notice,
    ToolCancelled,
    ToolDecided,
    ToolFinished,
    ToolRequested,
    ToolStarted,
    TurnEnded,
    TurnEndReason,
    TurnStarted,
)

_ids = itertools.count(1)
#: aionrs notices that only repeat a tool card: "Tool call: Write", "[Write success] …".
_TOOL_ECHO = re.compile(r"^(?:Tool call: (?P<call>\S+)\s*$|\[(?P<done>\S+) (?:success|error)\])")


class ToolStatus(StrEnum):
    """What a tool card says about its call."""

    WAITING = "waiting for approval"
    APPROVED = "approved"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    DENIED = "denied"
    CANCELLED = "cancelled"


@dataclass(eq=False)
class Item:
    """Base of every transcript entry; ``key`` is unique within the process."""

    key: int = field(default_factory=lambda: next(_ids), init=False)


@dataclass(eq=False)
class UserItem(Item):
    """A prompt; ``queued`` while it waits for the running turn to end."""

    turn_id: str
    text: str
    files: list[str]
    queued: bool = False


@dataclass(eq=False)
class StreamItem(Item):
    """Assistant text or thinking, streamed in pieces."""

    thinking: bool = False
    pieces: list[str] = field(default_factory=list)
    consumed: int = 0  # pieces already handed to the view
    done: bool = False

    def take_new(self) -> str:
        """Text that arrived since the last call (the view renders only that)."""
        new = "".join(self.pieces[self.consumed :])
        if new:
            self.pieces[self.consumed :] = [new]
            self.consumed = len(self.pieces)
        return new

    @property
    def text(self) -> str:
        """The whole text so far."""
        return "".join(self.pieces)


@dataclass(eq=False)
class ToolItem(Item):
    """One tool call and what became of it."""

    request: ToolRequested
    status: ToolStatus
    decision: ToolDecided | None = None
    decided_at: float | None = None  # epoch seconds: when the decision arrived
    result: ToolFinished | None = None
    cancel_reason: str | None = None
    #: Run without a request: ``ToolStarted.unasked`` ("allowed", "warning"; None if asked).
    unasked: str | None = None


@dataclass(eq=False)
class MessageItem(Item):
    """An inline notice, warning or error."""

    level: str  # "info" | "warning" | "error"
    text: str


@dataclass(eq=False)
class ExitItem(Item):
    """The agent exited: exit code, stderr tail and a Restart button."""

    event: AgentExited
    restarted: bool = False


class Transcript(QObject):
    """Ordered transcript items of one conversation.

    Signals:
        item_added(Item): a new item at the end.
        item_changed(Item): an existing item changed (streaming text, tool status).
    """

    item_added = Signal(object)
    item_changed = Signal(object)
    #: The start problem the user can fix (an ``ErrorEvent`` with ``fix``), or None once solved.
    problem_changed = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: The standing start problem the user can fix from the window (not a transcript item).
        self.problem: ErrorEvent | None = None
        self.items: list[Item] = []
        self._users: dict[str, UserItem] = {}
        self._tools: dict[str, ToolItem] = {}
        self._stream: StreamItem | None = None

    def _add(self, item: Item) -> None:
        self.items.append(item)
        self.item_added.emit(item)

    def _close_stream(self) -> None:
        if self._stream is not None:
            self._stream.done = True
            self.item_changed.emit(self._stream)
            self._stream = None

    # ------------------------------------------------------------------ prompts
    def add_prompt(self, turn_id: str, text: str, files: list[str], *, queued: bool) -> None:
        """A prompt the user sent (queued until its turn starts)."""
        item = UserItem(turn_id=turn_id, text=text, files=files, queued=queued)
        self._users[turn_id] = item
        self._add(item)

    def rekey_prompt(self, old: str, turn_id: str) -> None:
        """A prompt held back by the window got its session turn id."""
        item = self._users.pop(old, None)
        if item is not None:
            item.turn_id = turn_id
            self._users[turn_id] = item

    def on_turn_started(self, event: TurnStarted) -> None:
        """The prompt left the queue."""
        self._close_stream()
        item = self._users.get(event.turn_id)
        if item is None:
            self.add_prompt(event.turn_id, event.prompt, list(event.files), queued=False)
        elif item.queued:
            item.queued = False
            self.item_changed.emit(item)

    # ------------------------------------------------------------------ streaming
    def on_text(self, text: str) -> None:
        """A text delta (hot path: no allocation beyond the list append)."""
        self._append(text, thinking=False)

    def on_thinking(self, text: str) -> None:
        """A thinking delta."""
        self._append(text, thinking=True)

    def _append(self, text: str, *, thinking: bool) -> None:
        stream = self._stream
        if stream is None or stream.thinking != thinking:
            self._close_stream()
            stream = self._stream = StreamItem(thinking=thinking)
            self._add(stream)
        stream.pieces.append(text)
        self.item_changed.emit(stream)

    # ------------------------------------------------------------------ tools
    def on_tool_requested(self, event: ToolRequested) -> None:
        """A tool call (pending: waits for a decision)."""
        self._close_stream()
        status = ToolStatus.WAITING if event.pending else ToolStatus.APPROVED
        item = ToolItem(request=event, status=status)
        self._tools[event.call_id] = item
        self._add(item)

    def tool(self, call_id: str) -> ToolItem | None:
        """The item of ``call_id``."""
        return self._tools.get(call_id)

    def on_tool_decided(self, event: ToolDecided, at: float | None = None) -> None:
        """Approved or denied, by someone (``at``: when, epoch seconds; now if not given)."""
        item = self._tools.get(event.call_id)
        if item is not None:
            item.decision = event
            item.decided_at = time.time() if at is None else at
            item.status = ToolStatus.DENIED if event.decision == "deny" else ToolStatus.APPROVED
            self.item_changed.emit(item)

    def on_tool_started(self, event: ToolStarted) -> None:
        """The tool runs (agents may skip the request for tools they auto-run)."""
        item = self._tools.get(event.call_id)
        if item is None:
            self._close_stream()
            request = ToolRequested(
                call_id=event.call_id,
                name=event.name,
                category=event.category or "info",
                args=event.args or {},
                pending=False,
            )
            item = ToolItem(request=request, status=ToolStatus.RUNNING, unasked=event.unasked)
            self._tools[event.call_id] = item
            self._add(item)
        else:
            item.status = ToolStatus.RUNNING
            self.item_changed.emit(item)

    def on_tool_finished(self, event: ToolFinished) -> None:
        """The tool finished with output (text or a diff)."""
        item = self._tools.get(event.call_id)
        if item is None:
            self.on_tool_started(ToolStarted(call_id=event.call_id, name=event.name))
            item = self._tools[event.call_id]
        item.result = event
        item.status = ToolStatus.SUCCEEDED if event.status == "success" else ToolStatus.FAILED
        self.item_changed.emit(item)

    def on_tool_cancelled(self, event: ToolCancelled) -> None:
        """The call will not run."""
        item = self._tools.get(event.call_id)
        if item is not None:
            denied = item.decision is not None and item.decision.decision == "deny"
            item.status = ToolStatus.DENIED if denied else ToolStatus.CANCELLED
            item.cancel_reason = event.reason or None
            self.item_changed.emit(item)

    # ------------------------------------------------------------------ the rest
    def on_turn_ended(self, event: TurnEnded) -> None:
        """Close the stream; say why a turn ended when it was not a normal completion."""
        self._close_stream()
        if event.reason == TurnEndReason.STOPPED:
            self._add(MessageItem(level="info", text=event.message or "Stopped."))
        elif event.reason != TurnEndReason.COMPLETED and event.message:
            if self.problem is not None and event.reason == TurnEndReason.ERROR:
                return  # the agent could not start: the standing problem says why, with its fix
            self._add(MessageItem(level="error", text=event.message))

    def on_notice(self, event: Notice) -> None:
        """Inline notice, unless it only echoes a tool call that has (or is about to get) its
        own card; the echo stays in the session's events (history, ``exec``)."""
        echo = _TOOL_ECHO.match(event.message)
        if echo is not None and (
            echo["call"] or any(t.request.name == echo["done"] for t in self._tools.values())
        ):
            return
        self._close_stream()
        self._add(MessageItem(level=event.level, text=event.message))

    def on_error(self, event: ErrorEvent) -> None:
        """Inline error; a start error the user can fix (``event.fix``) is no row but the
        ``problem``, announced once however often the start is retried (the window shows it
        with its fix) and cleared by ``on_agent_ready``."""
        self._close_stream()
        if event.fix is not None:
            if self.problem is None or self.problem.fix != event.fix:
                self.problem = event
                self.problem_changed.emit(event)
            return
        self._add(MessageItem(level="error", text=event.message))

    def on_agent_ready(self, _event: AgentReady) -> None:
        """The agent started: a standing start problem is solved."""
        if self.problem is not None:
            self.problem = None
            self.problem_changed.emit(None)

    def on_agent_exited(self, event: AgentExited) -> None:
        """An unexpected exit gets an exit panel with Restart; a clean one says nothing."""
        self._close_stream()
        if not event.expected:
            self._add(ExitItem(event=event))

    def mark_restarted(self, item: ExitItem) -> None:
        """The user restarted the agent from ``item``."""
        item.restarted = True
        self.item_changed.emit(item)
