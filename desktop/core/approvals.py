"""Host-side tool approval: modes, "always" rules and pending decisions.

Nothing runs without a user action, the mode the user chose, an always-rule the user created or a
policy the user enabled. "Always" is kept here, per session and category, because real aionrs
ignores the ``scope`` it is sent. Each pending request is resolved by exactly one source: the
first decision wins and later ones are told ``already_resolved``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from desktop.core.events import (
    ApprovalMode,
    Decision,
    DecisionSource,
    ToolCategory,
    ToolRequested,
)

_MODE_CATEGORIES: dict[ApprovalMode, frozenset[ToolCategory]] = {
    ApprovalMode.DEFAULT: frozenset(),
    ApprovalMode.AUTO_EDIT: frozenset({ToolCategory.INFO, ToolCategory.EDIT}),
    ApprovalMode.YOLO: frozenset(ToolCategory),
}


class DecideResult(StrEnum):
    """Outcome of offering a decision for a call."""

    ACCEPTED = "accepted"
    ALREADY_RESOLVED = "already_resolved"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Verdict:
    """A decision together with who made it."""

    decision: Decision
    source: DecisionSource
    source_name: str | None = None
    reason: str | None = None


#: A policy the user enabled: returns a verdict, or None to leave the call to others.
ApprovalPolicy = Callable[[ToolRequested], Verdict | None]


@dataclass
class PendingApproval:
    """A tool call waiting for a decision."""

    request: ToolRequested
    future: asyncio.Future[Verdict] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class ApprovalBook:
    """Mode, always-rules, policies and pending requests of one session."""

    def __init__(self, mode: ApprovalMode = ApprovalMode.DEFAULT) -> None:
        self.mode = mode
        self.always: set[ToolCategory] = set()
        self.policies: list[tuple[str, ApprovalPolicy]] = []
        self._pending: dict[str, PendingApproval] = {}
        self._resolved: set[str] = set()

    def automatic(self, request: ToolRequested) -> Verdict | None:
        """A verdict that needs nobody to be asked, or None."""
        if request.category in _MODE_CATEGORIES[self.mode]:
            return Verdict(Decision.ONCE, DecisionSource.MODE, self.mode.value)
        if request.category in self.always:
            return Verdict(Decision.ONCE, DecisionSource.ALWAYS_RULE, request.category.value)
        for name, policy in self.policies:
            verdict = policy(request)
            if verdict is not None:
                return Verdict(
                    verdict.decision, verdict.source, verdict.source_name or name, verdict.reason
                )
        return None

    def open(self, request: ToolRequested) -> PendingApproval:
        """Register a request that waits for a decision."""
        pending = PendingApproval(request)
        self._pending[request.call_id] = pending
        return pending

    def resolve(self, call_id: str, verdict: Verdict) -> DecideResult:
        """Offer a verdict; only the first one for a call counts."""
        pending = self._pending.pop(call_id, None)
        if pending is None:
            return (
                DecideResult.ALREADY_RESOLVED
                if call_id in self._resolved
                else (DecideResult.UNKNOWN)
            )
        self._resolved.add(call_id)
        if verdict.decision == Decision.ALWAYS:
            self.always.add(pending.request.category)
        if not pending.future.done():
            pending.future.set_result(verdict)
        return DecideResult.ACCEPTED

    def forget(self, call_id: str) -> PendingApproval | None:
        """Drop a pending request the agent withdrew (no decision is sent)."""
        pending = self._pending.pop(call_id, None)
        if pending is not None:
            self._resolved.add(call_id)
            if not pending.future.done():
                pending.future.cancel()
        return pending

    @property
    def pending(self) -> list[ToolRequested]:
        """Requests still waiting, oldest first."""
        return [p.request for p in self._pending.values()]

    def is_pending(self, call_id: str) -> bool:
        """Whether ``call_id`` waits for a decision."""
        return call_id in self._pending
