"""Host-side tool approval: modes, "always" rules and pending decisions.

Nothing runs without a user action, the mode the user chose, an always-rule the user created or a
policy the user enabled. "Always" is kept here, per session and category, because real aionrs
ignores the ``scope`` it is sent; each rule is a record (``AlwaysRule``: what it allows or
denies, when and from which call it was made) the user can see and revoke. "Deny always"
(``Decision.REJECT_ALWAYS``) makes a deny rule the same way; the agent is answered one-off.
Each pending request is resolved by exactly one source: the first decision wins and later ones
are told ``already_resolved``.

Order of screening (``ApprovalBook.automatic``): first the **screens**
(``ApprovalBook.screens``, e.g. the shell deny-list), which see EVERY request whatever the mode,
the rules or the policies, and may only deny (a screen returning a non-deny verdict is ignored);
then the user's deny rules (whatever the mode), then the mode, then the allow rules, then the
ordinary policies; else the user is asked.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import PurePath

from desktop.core.events import (
    AlwaysRule,
    ApprovalMode,
    Decision,
    DecisionSource,
    ToolCategory,
    ToolRequested,
)
from desktop.core.texts import CoreText

_MODE_CATEGORIES: dict[ApprovalMode, frozenset[ToolCategory]] = {
    ApprovalMode.DEFAULT: frozenset(),
    ApprovalMode.AUTO_EDIT: frozenset({ToolCategory.INFO, ToolCategory.EDIT}),
    ApprovalMode.YOLO: frozenset(ToolCategory),
}

#: What an always-rule on a category allows, for people ("Always allowed: shell commands").
CATEGORY_LABELS: dict[ToolCategory, str] = {
    ToolCategory.INFO: "reading files",
    ToolCategory.EDIT: "file edits",
    ToolCategory.EXEC: "shell commands",
    ToolCategory.MCP: "MCP and other tools",
    ToolCategory.REMOTE: "remote tools",
}

#: Argument names that say what a call is about, most telling first.
_TARGET_ARGS = ("command", "cmd", "file_path", "path", "url", "pattern", "query")
_TARGET_CHARS = 40


def call_target(request: ToolRequested) -> str:
    """The call in a few words: tool name and short target, e.g. ``Bash `make all` ``."""
    preview = request.preview
    found = (request.args.get(key) for key in _TARGET_ARGS)
    target: str = next((v for v in found if isinstance(v, str) and v), "")
    if preview is not None and preview.kind == "command":
        target = preview.text  # also when the command came as a list
    elif not target and preview is not None and preview.paths:
        target = PurePath(preview.paths[0]).name
    target = " ".join(target.split())
    if len(target) > _TARGET_CHARS:
        target = target[: _TARGET_CHARS - 1].rstrip() + "…"
    return f"{request.name} `{target}`" if target else request.name


def mode_allows(mode: ApprovalMode, category: ToolCategory) -> bool:
    """Whether ``mode`` approves calls of ``category`` (the host's class) without asking."""
    return category in _MODE_CATEGORIES[mode]


def rule_for(
    request: ToolRequested, now: float | None = None, *, denies: bool = False
) -> AlwaysRule:
    """The always-rule an "approve always" (``denies``: "deny always") on ``request`` makes."""
    category = request.category
    return AlwaysRule(
        id=f"deny:{category.value}" if denies else category.value,
        category=category,
        label=CATEGORY_LABELS.get(category, category.value),
        created_at=time.time() if now is None else now,
        made_from=call_target(request),
        denies=denies,
    )


def rule_matches(rule: AlwaysRule, request: ToolRequested) -> bool:
    """Whether ``rule`` decides ``request`` without asking (allows it, or denies it)."""
    return rule.category == request.category


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
    #: ``reason`` for the window to translate (the agent and the history get the English).
    text: CoreText | None = None


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
        self._rules: dict[str, AlwaysRule] = {}
        self.policies: list[tuple[str, ApprovalPolicy]] = []
        #: Deny-only policies consulted for every request before anything else.
        self.screens: list[tuple[str, ApprovalPolicy]] = []
        self._pending: dict[str, PendingApproval] = {}
        self._resolved: set[str] = set()

    def automatic(self, request: ToolRequested) -> Verdict | None:
        """A verdict that needs nobody to be asked, or None."""
        for name, screen in self.screens:
            verdict = screen(request)
            if verdict is not None and verdict.decision.denies:
                return replace(verdict, source_name=verdict.source_name or name)
        for rule in self._rules.values():
            if rule.denies and rule_matches(rule, request):
                return Verdict(Decision.DENY, DecisionSource.ALWAYS_RULE, rule.id)
        if mode_allows(self.mode, request.category):
            return Verdict(Decision.ONCE, DecisionSource.MODE, self.mode.value)
        for rule in self._rules.values():
            if not rule.denies and rule_matches(rule, request):
                return Verdict(Decision.ONCE, DecisionSource.ALWAYS_RULE, rule.id)
        for name, policy in self.policies:
            verdict = policy(request)
            if verdict is not None:
                return replace(verdict, source_name=verdict.source_name or name)
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
        if verdict.decision in (Decision.ALWAYS, Decision.REJECT_ALWAYS):
            denies = verdict.decision == Decision.REJECT_ALWAYS
            self.add_rule(rule_for(pending.request, denies=denies))
        if not pending.future.done():
            pending.future.set_result(verdict)
        return DecideResult.ACCEPTED

    @property
    def denies_any(self) -> bool:
        """Whether a deny rule exists (the agent must then ask about every call)."""
        return any(rule.denies for rule in self._rules.values())

    @property
    def rules(self) -> list[AlwaysRule]:
        """The always-rules, oldest first."""
        return list(self._rules.values())

    def add_rule(self, rule: AlwaysRule) -> bool:
        """Keep ``rule``; False when a rule with its id exists (the first one made stays)."""
        if rule.id in self._rules:
            return False
        self._rules[rule.id] = rule
        return True

    def revoke(self, rule_id: str) -> AlwaysRule | None:
        """Drop a rule (requests from now on are asked again); None when there is none."""
        return self._rules.pop(rule_id, None)

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
