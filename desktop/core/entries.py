"""The typed entries of a conversation's transcript (``desktop.core.transcript``).

One frozen pydantic model per kind of entry (a prompt, assistant text or thinking, a tool call
with its status and decision, a notice or error, a turn's end, the agent's plan, an unexpected
exit), each with a ``type`` field: the history stores them as this JSON (``item_adapter``) and
the window shows them. ``key`` is an entry's place in its transcript and is not stored.
``Added``, ``Changed`` and ``Appended`` say what ``Transcript.apply`` changed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from enum import StrEnum
from typing import Annotated, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from desktop.core.events import (
    PlanStep,
    ToolDecided,
    ToolFinished,
    ToolRequested,
    TurnEndReason,
    UnaskedRun,
    Usage,
)
from desktop.core.texts import CoreText

#: aionrs notices that only repeat a tool card: "Tool call: Write", "[Write success] …".
_TOOL_ECHO = re.compile(r"^(?:Tool call: (?P<call>\S+)\s*$|\[(?P<done>\S+) (?:success|error)\])")


class ToolStatus(StrEnum):
    """What became of a tool call (the card says it in these words)."""

    WAITING = "waiting for approval"
    APPROVED = "approved"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    DENIED = "denied"
    CANCELLED = "cancelled"


#: Characters of a running tool's streamed output kept for the card (the end of it).
LIVE_OUTPUT_LIMIT = 64 * 1024

#: Statuses after which a call does not change any more.
FINAL = frozenset(
    {ToolStatus.SUCCEEDED, ToolStatus.FAILED, ToolStatus.DENIED, ToolStatus.CANCELLED}
)


def is_tool_echo(message: str, tool_names: Collection[str]) -> bool:
    """Whether a notice only repeats a tool call that has its own entry: "Tool call: Write"
    (the request follows), "[Write success] …" after a call of one of ``tool_names``."""
    echo = _TOOL_ECHO.match(message)
    return echo is not None and bool(echo["call"] or echo["done"] in tool_names)


class _Entry(BaseModel):
    """Base of every entry; ``key`` is its place in its transcript (not stored)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    key: int = Field(default=0, exclude=True)
    turn_id: str | None = None


class UserItem(_Entry):
    """A prompt; ``queued`` while it waits in the window for the running turn to end."""

    type: Literal["user"] = "user"
    text: str
    files: list[str] = Field(default_factory=list)
    queued: bool = False


class StreamItem(_Entry):
    """Assistant text or the model's reasoning (``type`` says which); ``done`` once closed."""

    type: Literal["assistant", "thinking"] = "assistant"
    text: str = ""
    done: bool = False

    @property
    def thinking(self) -> bool:
        """Whether this is the model's reasoning."""
        return self.type == "thinking"


class ToolItem(_Entry):
    """One tool call and what became of it (``decided_at``: epoch seconds of the decision)."""

    type: Literal["tool"] = "tool"
    request: ToolRequested
    status: ToolStatus
    decision: ToolDecided | None = None
    decided_at: float | None = None
    result: ToolFinished | None = None
    output_truncated: bool = False
    cancel_reason: str | None = None
    #: ``cancel_reason`` for the window to translate (stored only when there is one).
    cancel_i18n: CoreText | None = Field(default=None, exclude_if=lambda value: value is None)
    #: Run without a request: ``ToolStarted.unasked`` (None if asked).
    unasked: UnaskedRun | None = None
    #: The end of the output streamed while it runs (``LIVE_OUTPUT_LIMIT``; not stored: the
    #: result holds the output) and how many characters streamed in all.
    live_output: str = Field(default="", exclude=True)
    live_chars: int = Field(default=0, exclude=True)


class MessageItem(_Entry):
    """A notice (``info``/``warning``) or an error; ``echo``: a notice that only repeats a tool
    call that has its own entry (kept for the record, not shown)."""

    type: Literal["notice", "error"] = "notice"
    level: Literal["info", "warning", "error"] = "info"
    text: str
    code: str | None = None
    retryable: bool = False
    echo: bool = False
    #: ``text`` for the window to translate (stored only when there is one).
    i18n: CoreText | None = Field(default=None, exclude_if=lambda value: value is None)


class TurnEndItem(_Entry):
    """A turn ended, for ``reason``, with its usage."""

    type: Literal["turn_end"] = "turn_end"
    turn_id: str
    reason: TurnEndReason = TurnEndReason.COMPLETED
    usage: Usage | None = None
    #: The model that answered (stored only when known: it prices the usage).
    model: str | None = Field(default=None, exclude_if=lambda value: value is None)
    message: str | None = None
    #: ``message`` for the window to translate (stored only when there is one).
    i18n: CoreText | None = Field(default=None, exclude_if=lambda value: value is None)


class PlanItem(_Entry):
    """The agent's plan in a turn as it last stood (each update replaces the steps)."""

    type: Literal["plan"] = "plan"
    entries: list[PlanStep] = Field(default_factory=list)
    explanation: str | None = None


class ExitItem(_Entry):
    """The agent exited unexpectedly; ``restarted`` once the user restarted it from here."""

    type: Literal["agent_exited"] = "agent_exited"
    exit_code: int | None = None
    signal: int | None = None
    stderr_tail: str = ""
    restarted: bool = False


Item = Annotated[
    UserItem | StreamItem | ToolItem | MessageItem | TurnEndItem | PlanItem | ExitItem,
    Field(discriminator="type"),
]


@functools.cache
def item_adapter() -> TypeAdapter[Item]:
    """Validates and serialises entries (the history stores them as this JSON)."""
    return TypeAdapter(Item)


class Added(NamedTuple):
    """A new entry at the end."""

    item: Item


class Changed(NamedTuple):
    """An entry changed (status, decision, a stream closed); ``item`` is its new state."""

    item: Item


class Appended(NamedTuple):
    """A piece of text arrived for the open stream entry ``key``."""

    key: int
    text: str


Change = Added | Changed | Appended
