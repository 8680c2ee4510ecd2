"""The approval gate a ``Session`` owns: tool requests held for a decision, decisions sent back.

Kept apart from the session's lifecycle (start, prompt queue, stop) because it is a separate
concern with its own rules: a request is screened against the mode and always-rules
(``desktop.core.approvals.ApprovalBook``), a pending one moves the session to
``awaiting_approval``, the first decision wins, and decisions go to the agent in background
tasks that stop and shutdown wait for (``drain``), so a denial reaches the agent before its input
closes. Whenever the always-rules change (an "always" decision made one, the user revoked one)
the whole list is published as ``RulesChanged``, so every consumer sees the rules the session
applies. The session constructs the gate with what it needs (``GateOwner``: its state, its
live backend, its running turn, where events go); nothing is shared by inheritance.

The model is hostile, so a request is screened in this order:

1. **Call ids are never shared.** A decision travels to the agent by call id only, so a request
   whose id is pending, or was already asked about in this turn, is denied at once (an ``error``
   event, a card saying why, ``ToolDecided`` by the policy ``duplicate call id``); a first
   request already decided keeps its decision, one still waiting is denied as well (no approval
   for an ambiguous id ever leaves the host). The scope is the turn, not the conversation,
   because agents legitimately reuse ids across turns (scripted providers, Codex's ``call_…``
   ids, see ``desktop/ui/sidebar/replay.py``) and every call of a turn is closed, run or
   cancelled by the time the turn ends, so a later reuse cannot meet a stale decision. A call
   the agent ran or showed without asking (``tool_running`` alone, Codex's own items) waits for
   no decision, so a later request with its id is not ambiguous and is asked about as usual.
2. **The host classifies the tool** (``desktop.core.classify``): modes, rules, policies and
   screens see the host's class; the agent's differing claim stays in ``claimed_category``.
3. **Every request gets a preview** (``safe_preview``): one the host cannot compute says why,
   and the request is decided like any other; nothing is dropped, so nothing hangs.

A ``ToolStarted`` for a call that was never requested, while the host approves tools, is marked
``unasked``: ``allowed`` for a read-only tool (the agent's own allow-list) or a tool the mode the
user chose covers, ``warning`` for anything else (the card says the agent ran it without asking).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, Protocol

from desktop.core.approvals import ApprovalBook, DecideResult, Verdict, mode_allows
from desktop.core.backend import AgentBackend
from desktop.core.classify import host_category
from desktop.core.events import (
    ApprovalMode,
    Decision,
    DecisionSource,
    ErrorEvent,
    ModeChanged,
    RulesChanged,
    SessionEvent,
    SessionState,
    ToolCancelled,
    ToolCategory,
    ToolDecided,
    ToolRequested,
    ToolStarted,
    UnaskedRun,
)
from desktop.core.previews import safe_preview
from desktop.core.texts import QT_TRANSLATE_NOOP, CoreText

#: The policy name a request with a reused call id is denied by.
DUPLICATE_CALL_ID = "duplicate call id"

# The session's logger: these messages are the session's, wherever its code lives.
log = logging.getLogger("desktop.core.session")


class GateOwner(Protocol):
    """What the gate needs from the session that owns it."""

    @property
    def state(self) -> SessionState:
        """The session's state."""

    @property
    def backend(self) -> AgentBackend | None:
        """The live backend, if the agent has been started."""

    @property
    def active_turn(self) -> str | None:
        """Id of the running turn."""

    def publish(self, event: SessionEvent) -> None:
        """Send an event to the session's consumers."""

    def set_state(self, state: SessionState) -> None:
        """Move the session to ``state`` (published when it changes)."""


class ApprovalGate:
    """Approval mode, tool-request screening and decisions of one session.

    Args:
        owner: The session (its state, backend, turn and consumers).
        workspace: The folder the agent works in; previews resolve paths against it.
        mode: The initial approval mode.
    """

    def __init__(self, owner: GateOwner, workspace: Path, mode: ApprovalMode) -> None:
        self.book = ApprovalBook(mode)
        self._owner = owner
        self._workspace = workspace
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Call ids seen in the turn ``_seen_turn``: True when the host was asked to decide it.
        self._seen_calls: dict[str, bool] = {}
        self._seen_turn: str | None = None

    @property
    def agent_mode(self) -> ApprovalMode:
        """The mode the agent is told: ``default`` while a screen (the shell deny list) or a deny
        rule must see every request, since an agent told ``yolo`` runs tools without asking; the
        host still applies ``book.mode`` itself."""
        asks_all = self.book.screens or self.book.denies_any
        return ApprovalMode.DEFAULT if asks_all else self.book.mode

    async def set_mode(self, mode: ApprovalMode) -> None:
        """Change the approval mode (host-side, and forwarded to the agent)."""
        owner = self._owner
        self.book.mode = ApprovalMode(mode)
        owner.publish(ModeChanged(mode=self.book.mode))
        backend = owner.backend
        if backend is not None and owner.state != SessionState.EXITED:
            await backend.set_mode(self.agent_mode)

    def decide(
        self,
        call_id: str,
        decision: Decision,
        source: DecisionSource = DecisionSource.USER,
        *,
        source_name: str | None = None,
        reason: str | None = None,
        text: CoreText | None = None,
    ) -> DecideResult:
        """Resolve a pending tool call. Only the first decision for a call counts; ``text``:
        the host's ``reason`` for the window to translate."""
        verdict = Verdict(Decision(decision), DecisionSource(source), source_name, reason, text)
        request = next((r for r in self.book.pending if r.call_id == call_id), None)
        rules = self.book.rules
        result = self.book.resolve(call_id, verdict)
        if result == DecideResult.ACCEPTED and request is not None:
            self._announce_decision(request, verdict)
            if self.book.rules != rules:
                self._owner.publish(RulesChanged(rules=self.book.rules))
            if not self.book.pending and self._owner.state == SessionState.AWAITING_APPROVAL:
                self._owner.set_state(SessionState.RUNNING)
        return result

    def revoke_rule(self, rule_id: str) -> bool:
        """Drop an always-rule: the next matching request is asked again (a pending one stays).

        Returns whether there was such a rule; ``RulesChanged`` is published when there was.
        """
        if self.book.revoke(rule_id) is None:
            return False
        self._owner.publish(RulesChanged(rules=self.book.rules))
        return True

    def revoke_all_rules(self) -> int:
        """Drop every always-rule (one ``RulesChanged``); returns how many there were."""
        dropped = [r for r in self.book.rules if self.book.revoke(r.id) is not None]
        if dropped:
            self._owner.publish(RulesChanged(rules=self.book.rules))
        return len(dropped)

    def _announce_decision(self, request: ToolRequested, verdict: Verdict) -> None:
        self._owner.publish(
            ToolDecided(
                turn_id=request.turn_id,
                call_id=request.call_id,
                decision=verdict.decision,
                source=verdict.source,
                source_name=verdict.source_name,
                reason=verdict.reason,
                i18n=verdict.text,
            )
        )
        backend = self._owner.backend
        if backend is not None:
            # The agent is answered one-off: "deny always" is the host's rule, not the agent's.
            answer = Decision.DENY if verdict.decision.denies else verdict.decision
            self._spawn(backend.send_decision(request.call_id, answer, verdict.reason))

    def deny_all_pending(self, reason: CoreText) -> None:
        for request in self.book.pending:
            self.decide(
                request.call_id, Decision.DENY, DecisionSource.SHUTDOWN,
                reason=reason.english, text=reason,
            )  # fmt: skip

    def withdraw_pending(self, reason: CoreText | None) -> None:
        """Drop every pending request, sending the agent no decision (the turn ended, the agent
        exited); with a ``reason``, each card is withdrawn with ``ToolCancelled``."""
        for request in self.book.pending:
            if self.book.forget(request.call_id) is not None and reason is not None:
                self._owner.publish(
                    ToolCancelled(
                        turn_id=request.turn_id,
                        call_id=request.call_id,
                        reason=reason.english,
                        i18n=reason,
                    )
                )

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("sending to the agent failed", exc_info=task.exception())

    async def drain(self) -> None:
        """Wait (up to 2 s) for the decisions still on their way to the agent."""
        if self._tasks:
            await asyncio.wait(tuple(self._tasks), timeout=2.0)

    async def close(self) -> None:
        """Wait (up to 1 s each) for every decision still being sent; the session is closing."""
        for task in tuple(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 1.0)

    def _calls_of_turn(self, turn_id: str | None) -> dict[str, bool]:
        """The call ids seen in ``turn_id``, True if asked (a new turn starts afresh)."""
        if turn_id != self._seen_turn:
            self._seen_turn = turn_id
            self._seen_calls = {}
        return self._seen_calls

    @staticmethod
    def _classify(backend: AgentBackend, name: str, claimed: ToolCategory) -> ToolCategory:
        """The host's class of a call (by name), or the protocol's own (``AgentBackend.
        categories_from_protocol``: ACP tool kinds, set by the agent program)."""
        if backend.categories_from_protocol and claimed != ToolCategory.MCP:
            return claimed
        return host_category(name, claimed)

    def on_tool_request(self, event: ToolRequested) -> None:
        backend = self._owner.backend
        turn_id = event.turn_id or self._owner.active_turn
        seen = self._calls_of_turn(turn_id)
        if backend is None or not backend.host_approves_tools or not event.pending:
            seen.setdefault(event.call_id, False)
            self._owner.publish(event)
            return
        category = self._classify(backend, event.name, event.category)
        preview = event.preview or safe_preview(self._workspace, event.name, category, event.args)
        request = event.model_copy(
            update={
                "preview": preview,
                "turn_id": turn_id,
                "category": category,
                "claimed_category": event.category if category != event.category else None,
            }
        )
        if seen.get(event.call_id) or self.book.is_pending(event.call_id):
            self._deny_duplicate(request)
            return
        seen[event.call_id] = True
        verdict = self.book.automatic(request)
        if verdict is not None:
            self._owner.publish(request.model_copy(update={"pending": False}))
            self._announce_decision(request, verdict)
            return
        self.book.open(request)
        if self._owner.state == SessionState.RUNNING:
            self._owner.set_state(SessionState.AWAITING_APPROVAL)
        self._owner.publish(request)

    def _deny_duplicate(self, request: ToolRequested) -> None:
        """Deny a request that reuses a call id.

        An earlier request already decided keeps its decision. One still waiting is denied too:
        the agent can no longer tell which call an approval for that id is meant for, so the
        only answer the host ever sends for the id from now on is a denial.
        """
        name, call_id = request.name[:60], request.call_id[:60]  # both come from the model
        text = QT_TRANSLATE_NOOP(
            "Approvals",
            "The agent asked to run {name} with the call id {call_id}, "
            "which another request of this turn already has; it was denied so that no "
            "decision meant for one call is applied to another.",
        ).with_args(name=name, call_id=repr(call_id))
        self._owner.publish(
            ErrorEvent(
                turn_id=request.turn_id, code="duplicate_call_id", message=text.english, i18n=text
            )
        )
        reused = QT_TRANSLATE_NOOP("ToolReason", "a later call of this turn reused its id")
        same = QT_TRANSLATE_NOOP("ToolReason", "another call of this turn has the same id")
        if self.book.is_pending(request.call_id):
            self.decide(
                request.call_id,
                Decision.DENY,
                DecisionSource.POLICY,
                source_name=DUPLICATE_CALL_ID,
                reason=reused.english,
                text=reused,
            )
        self._owner.publish(request.model_copy(update={"pending": False}))
        self._announce_decision(
            request,
            Verdict(Decision.DENY, DecisionSource.POLICY, DUPLICATE_CALL_ID, same.english, same),
        )

    def on_tool_started(self, event: ToolStarted) -> None:
        backend = self._owner.backend
        turn_id = event.turn_id or self._owner.active_turn
        seen = self._calls_of_turn(turn_id)
        if backend is None or not backend.host_approves_tools or event.call_id in seen:
            self._owner.publish(event)
            return
        seen[event.call_id] = False
        category = self._classify(backend, event.name, event.category or ToolCategory.MCP)
        allowed = category == ToolCategory.INFO or mode_allows(self.book.mode, category)
        self._owner.publish(
            event.model_copy(
                update={
                    "category": category,
                    "unasked": UnaskedRun.ALLOWED if allowed else UnaskedRun.WARNING,
                }
            )
        )
