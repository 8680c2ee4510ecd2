"""One conversation's transcript: typed entries built from session events, the only one.

The window's conversation model, the history recorder and the extension bridge each keep a
``Transcript`` and feed it the session's events through ``apply``; the history stores its entries
as typed JSON and a reopened conversation is loaded from those same entries, so a streamed and a
reloaded conversation are the same list of entries by construction.

Entries (``desktop.core.entries``) are frozen pydantic models with a ``type`` field (the
history's item kind). ``apply`` returns what changed (``Added``, ``Changed``, or ``Appended``
for a piece of streamed text), so a consumer renders or writes only that. Streamed text is kept
in pieces while it grows (``StreamText``: ``str +=`` over 200,000 deltas is quadratic); its
entry's ``text`` is joined when somebody reads it (``items``, ``item``, ``turn_text``), not when
the stream closes: the entry of a stream that closed (its ``Changed``) and ``peek`` may lag. A
megabyte reply's join costs milliseconds (fresh memory), and each consumer of a session joins its
own: done as the turn ended, they made that turn of the window's loop too long (issue 19).

The transcript keeps the list: keys, the open stream, which entry is whose tool call, prompt or
plan. What goes into an entry, made from an event, is ``desktop.core.event_entries``'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, assert_never

from desktop.core import event_entries as made
from desktop.core.entries import (
    FINAL,
    Added,
    Appended,
    Change,
    Changed,
    Item,
    PlanItem,
    StreamItem,
    ToolItem,
    ToolStatus,
    UserItem,
)
from desktop.core.events import (
    AgentExited,
    AgentReady,
    ChoicesChanged,
    CommandsChanged,
    ErrorEvent,
    McpStatus,
    ModeChanged,
    Notice,
    PlanUpdated,
    RulesChanged,
    SessionEvent,
    StateChanged,
    TextDelta,
    ThinkingDelta,
    ToolCancelled,
    ToolDecided,
    ToolFinished,
    ToolOutputDelta,
    ToolRequested,
    ToolStarted,
    TurnEnded,
    TurnStarted,
)
from desktop.core.stream_text import StreamText


class Transcript:
    """The ordered entries of one conversation, updated by ``apply``.

    Args:
        clock: When a decision arrived (epoch seconds); tests pass their own.
    """

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._items: list[Item] = []
        self._first = 0  # the key of ``_items[0]`` (below 0 once earlier entries were prepended)
        self._clock = clock
        #: Streamed text not joined into its entry yet, and the key of that entry: the open
        #: stream, or the last one, closed, until its text is read.
        self._text = StreamText()
        self._text_key: int | None = None
        self._open: tuple[str, str | None] | None = None  # the open stream's type and turn
        self._open_key = 0
        self._tools: dict[str, int] = {}  # call id -> key of its latest entry
        self._users: dict[str, int] = {}  # turn id -> key of its prompt
        self._tool_names: set[str] = set()
        self._early: dict[str, dict[str, Any]] = {}  # call id -> its decision, before its request
        self._plans: dict[str | None, int] = {}  # turn id -> key of its plan

    # ------------------------------------------------------------------ reading
    @property
    def items(self) -> Sequence[Item]:
        """Every entry, in order (the open stream's text joined so far)."""
        self._join()
        return self._items

    @property
    def first_key(self) -> int:
        """The key of the first entry (below 0 once earlier entries were prepended)."""
        return self._first

    def item(self, key: int) -> Item:
        """The entry at ``key`` as it stands."""
        if key == self._text_key:
            self._join()
        return self.peek(key)

    def peek(self, key: int) -> Item:
        """The entry at ``key`` without joining streamed text (cheap; its ``text`` may lag)."""
        if key < self._first:
            raise IndexError(f"no entry {key} (the first is {self._first})")
        return self._items[key - self._first]

    def tool(self, call_id: str) -> ToolItem | None:
        """The latest entry of tool call ``call_id``."""
        key = self._tools.get(call_id)
        item = self._items[key - self._first] if key is not None else None
        return item if isinstance(item, ToolItem) else None

    def prompt(self, turn_id: str | None) -> str:
        """The prompt of ``turn_id`` ("" if unknown)."""
        key = self._users.get(turn_id or "")
        item = self._items[key - self._first] if key is not None else None
        return item.text if isinstance(item, UserItem) else ""

    def last_turn(self) -> str | None:
        """The turn id of the last prompt that started."""
        for item in reversed(self._items):
            if isinstance(item, UserItem) and not item.queued:
                return item.turn_id
        return None

    def turn_text(self, turn_id: str | None) -> str:
        """Everything the assistant wrote in ``turn_id`` (read back from the end to its prompt:
        a turn's end in a long conversation does not walk all of it)."""
        parts: list[str] = []
        for item in reversed(self.items):
            if isinstance(item, StreamItem) and not item.thinking and item.turn_id == turn_id:
                parts.append(item.text)
            elif isinstance(item, UserItem) and item.turn_id == turn_id and turn_id is not None:
                break
        return "".join(reversed(parts))

    # ------------------------------------------------------------------ writing
    def apply(self, event: SessionEvent) -> list[Change]:
        """Update the transcript with one session event; returns what changed."""
        if type(event) is TextDelta:  # the hot path, before the slower class patterns below
            return self._append(event.text, "assistant", event.turn_id)
        if type(event) is ToolOutputDelta:  # a command's output: many small pieces
            return self._tool_output(event)
        match event:
            case TextDelta():
                return self._append(event.text, "assistant", event.turn_id)
            case ThinkingDelta():
                return self._append(event.text, "thinking", event.turn_id)
            case TurnStarted():
                return self._turn_started(event)
            case ToolRequested():
                return self._tool_requested(event)
            case ToolDecided():
                return self._tool_decided(event)
            case ToolStarted():
                return self._tool_started(event)
            case ToolFinished():
                return self._tool_finished(event)
            case ToolCancelled():
                tool = self.tool(event.call_id)
                if tool is None:
                    return []
                return self._update_tool(event.call_id, **made.cancelled(tool, event))
            case TurnEnded():
                return [*self._close(), self._add(made.turn_end(event))]
            case Notice():
                return [*self._close(), self._add(made.notice(event, self._tool_names))]
            case ErrorEvent():
                return [*self._close(), self._add(made.error(event))]
            case AgentExited():
                if event.expected:
                    return self._close()
                return [*self._close(), self._add(made.agent_exit(event))]
            case PlanUpdated():
                return self._plan(event)
            case ToolOutputDelta():
                return self._tool_output(event)
            case ChoicesChanged():
                return []  # the status bar's model picker
            case CommandsChanged():
                return []  # the composer's / menu
            case AgentReady() | StateChanged() | ModeChanged() | RulesChanged() | McpStatus():
                return []  # MCP servers: the conversation's status bar, beside its notices
            case _:
                assert_never(event)

    def add_prompt(
        self, turn_id: str, text: str, files: list[str], *, queued: bool
    ) -> list[Change]:
        """A prompt the user sent, before its turn starts (``queued`` while it waits)."""
        changes = self._close()
        changes.append(self._add(UserItem(turn_id=turn_id, text=text, files=files, queued=queued)))
        return changes

    def rekey_prompt(self, old: str, turn_id: str) -> None:
        """A prompt held back by the window got its session turn id."""
        key = self._users.pop(old, None)
        if key is not None:
            self._items[key - self._first] = self._items[key - self._first].model_copy(
                update={"turn_id": turn_id}
            )
            self._users[turn_id] = key

    def update(self, key: int, **changes: Any) -> Changed:
        """Change fields of entry ``key`` (a restarted exit, an extension's message)."""
        item = self.item(key).model_copy(update=changes)
        self._items[key - self._first] = item
        return Changed(item)

    def load(self, items: Iterable[Item]) -> list[Change]:
        """Append stored entries as they are (a conversation reopened from history); events
        that follow never change them (agents reuse call ids)."""
        changes = self._close()
        for item in items:
            changes.append(self._add(item, live=False))
        return changes

    @staticmethod
    def keyed_before(items: Iterable[Item], end: int) -> list[Item]:
        """``items`` keyed to end just below key ``end``, for ``prepend`` (pure: a long
        conversation's beginning is prepared off the event loop)."""
        listed = list(items)
        start = end - len(listed)
        return [item.model_copy(update={"key": start + n}) for n, item in enumerate(listed)]

    def prepend(self, items: Sequence[Item]) -> None:
        """Stored entries that come before the first one, keyed by ``keyed_before(items,
        first_key)``: a long conversation reopened from history loads its end first (``load``)
        and its beginning after. Like ``load``'s, later events never change them.

        Raises:
            ValueError: ``items`` are not keyed to end just below ``first_key``.
        """
        if not items:
            return
        if items[-1].key != self._first - 1 or items[0].key != self._first - len(items):
            raise ValueError("earlier entries must be keyed to end just below the first key")
        self._items[0:0] = items
        self._first = items[0].key
        self._tool_names.update(i.request.name for i in items if isinstance(i, ToolItem))

    # ------------------------------------------------------------------ internals
    def _add(self, item: Item, *, live: bool = True) -> Added:
        item = item.model_copy(update={"key": self._first + len(self._items)})
        self._items.append(item)
        if isinstance(item, ToolItem):
            self._tool_names.add(item.request.name)
            if live:
                self._tools[item.request.call_id] = item.key
        elif isinstance(item, UserItem) and item.turn_id is not None and live:
            self._users[item.turn_id] = item.key
        return Added(item)

    def _join(self) -> None:
        key = self._text_key
        if key is not None and self._text:
            stream = self._items[key - self._first]
            assert isinstance(stream, StreamItem)
            text = self._text.take(stream.text)
            self._items[key - self._first] = stream.model_copy(update={"text": text})
        if self._open is None:
            self._text_key = None  # closed: all its text is in its entry

    def _close(self) -> list[Change]:
        if self._open is None or self._text_key is None:
            return []
        item = self._items[self._text_key - self._first].model_copy(update={"done": True})
        self._items[item.key - self._first] = item
        self._open = None
        if not self._text:
            self._text_key = None
        return [Changed(item)]  # its text is joined when read

    def _append(
        self, text: str, kind: Literal["assistant", "thinking"], turn: str | None
    ) -> list[Change]:
        if self._open == (kind, turn):  # the open stream goes on (the hot path)
            self._text.add(text)
            return [Appended(self._open_key, text)]
        changes = self._close()
        self._join()  # the last stream's text, before its pieces make way for this one's
        added = self._add(StreamItem(type=kind, turn_id=turn))
        self._open, self._open_key = (kind, turn), added.item.key
        self._text_key = added.item.key
        self._text.add(text)
        changes += [added, Appended(added.item.key, text)]
        return changes

    def _turn_started(self, event: TurnStarted) -> list[Change]:
        changes = self._close()
        key = self._users.get(event.turn_id)
        if key is None:
            user = UserItem(turn_id=event.turn_id, text=event.prompt, files=list(event.files))
            changes.append(self._add(user))
        elif getattr(self._items[key - self._first], "queued", False):
            changes.append(self.update(key, queued=False))
        return changes

    def _tool_requested(self, event: ToolRequested) -> list[Change]:
        fields = made.requested(event)
        fields.update(self._early.pop(event.call_id, {}))
        open_call = self.tool(event.call_id)
        if open_call is not None and open_call.status not in FINAL:
            return self._update_tool(event.call_id, **fields)
        return [*self._close(), self._add(ToolItem(turn_id=event.turn_id, **fields))]

    def _tool_decided(self, event: ToolDecided) -> list[Change]:
        fields = made.decided(event, self._clock())
        tool = self.tool(event.call_id)
        if tool is None or tool.status in FINAL:
            # Decided before the request reached this consumer (a subscriber that decides
            # while the request is published): kept for the request.
            self._early[event.call_id] = fields
            return []
        return self._update_tool(event.call_id, **fields)

    def _tool_started(self, event: ToolStarted) -> list[Change]:
        tool = self.tool(event.call_id)
        if tool is not None and tool.status not in FINAL:
            return self._update_tool(event.call_id, status=ToolStatus.RUNNING)
        return [*self._close(), self._add(made.unasked(event))]

    def _tool_finished(self, event: ToolFinished) -> list[Change]:
        changes: list[Change] = []
        if self.tool(event.call_id) is None:
            started = ToolStarted(turn_id=event.turn_id, call_id=event.call_id, name=event.name)
            changes += self._tool_started(started)
        return changes + self._update_tool(event.call_id, **made.finished(event))

    def _plan(self, event: PlanUpdated) -> list[Change]:
        fields = {"entries": event.entries, "explanation": event.explanation}
        key = self._plans.get(event.turn_id)
        if key is not None:
            return [self.update(key, **fields)]
        changes = self._close()
        added = self._add(PlanItem(turn_id=event.turn_id, **fields))
        self._plans[event.turn_id] = added.item.key
        return [*changes, added]

    def _tool_output(self, event: ToolOutputDelta) -> list[Change]:
        tool = self.tool(event.call_id)
        if tool is None or tool.status in FINAL or not event.text:
            return []
        item = made.with_output(tool, event)
        self._items[item.key - self._first] = item
        return [Changed(item)]

    def _update_tool(self, call_id: str, **changes: Any) -> list[Change]:
        key = self._tools.get(call_id)
        if key is None:
            return []
        return [self.update(key, **changes)]
