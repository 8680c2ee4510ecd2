"""The state of one Codex turn, shared by the notification mapper and the approval desk.

Codex reports a turn in pieces (item notifications, approval requests, usage updates); both
halves of the adapter need to know which host turn they belong to and which tool items have
already been shown as cards, so they read and write one ``TurnState``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop.core.backend import EmitFn
from desktop.core.events import Usage


def _discard(_event: object) -> None:
    """Where events go before the backend is started."""


@dataclass
class TurnState:
    """Ids, tool items and usage of the running turn (and the thread's usage so far)."""

    workspace: Path
    emit: EmitFn = _discard
    #: The host's turn id (``None`` between turns).
    turn: str | None = None
    #: Codex's own turn id, once ``turn/start`` answered or ``turn/started`` arrived.
    codex_turn: str | None = None
    #: Tool items of this turn by id (command executions and file changes).
    items: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Items already shown as a tool card.
    shown: set[str] = field(default_factory=set)
    #: Items already reported as started.
    running: set[str] = field(default_factory=set)
    #: Streamed command output not yet reported, by item id.
    output: dict[str, list[str]] = field(default_factory=dict)
    #: Thread status says an approval is pending (the next command waits for its card).
    waiting_on_approval: bool = False
    #: Cumulative usage of the thread, and its value when this turn began.
    total: Usage = field(default_factory=Usage)
    turn_base: Usage = field(default_factory=Usage)

    def begin(self, turn_id: str) -> None:
        """A new turn starts (its Codex id is not known yet)."""
        self.turn = turn_id
        self.codex_turn = None
        self.turn_base = self.total

    def end(self) -> Usage:
        """Forget the turn's items; returns the usage of the turn."""
        usage = minus(self.total, self.turn_base)
        self.turn = None
        self.codex_turn = None
        self.items.clear()
        self.shown.clear()
        self.running.clear()
        self.output.clear()
        return usage


def usage_of(breakdown: Any) -> Usage:
    """A Codex token breakdown (``inputTokens`` includes ``cachedInputTokens``) as ``Usage``."""
    if not isinstance(breakdown, dict):
        return Usage()
    cached = int(breakdown.get("cachedInputTokens") or 0)
    return Usage(
        input_tokens=max(0, int(breakdown.get("inputTokens") or 0) - cached),
        output_tokens=int(breakdown.get("outputTokens") or 0),
        cache_read_tokens=cached,
        cache_write_tokens=int(breakdown.get("cacheWriteInputTokens") or 0),
    )


def minus(a: Usage, b: Usage) -> Usage:
    """``a - b`` per field, never below zero."""
    return Usage(
        input_tokens=max(0, a.input_tokens - b.input_tokens),
        output_tokens=max(0, a.output_tokens - b.output_tokens),
        cache_read_tokens=max(0, a.cache_read_tokens - b.cache_read_tokens),
        cache_write_tokens=max(0, a.cache_write_tokens - b.cache_write_tokens),
    )
