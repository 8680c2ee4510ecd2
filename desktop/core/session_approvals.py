"""The approvals side of ``Session``: tool requests held for a decision, decisions sent back.

Kept apart from the session's lifecycle (start, prompt queue, stop) because it is a separate
concern with its own rules: a request is screened against the mode and always-rules
(``desktop.core.approvals.ApprovalBook``), a pending one moves the session to
``awaiting_approval``, the first decision wins, and decisions go to the agent in background
tasks that stop and shutdown wait for, so a denial reaches the agent before its input closes.
Whenever the always-rules change (an "always" decision made one, the user revoked one) the whole
list is published as ``RulesChanged``, so every consumer sees the rules the session applies.
``Session`` inherits these methods; the attributes below are the session's own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from desktop.core.approvals import ApprovalBook, DecideResult, Verdict
from desktop.core.backend import AgentBackend
from desktop.core.events import (
    ApprovalMode,
    Decision,
    DecisionSource,
    ModeChanged,
    RulesChanged,
    SessionEvent,
    SessionState,
    ToolDecided,
    ToolRequested,
)
from desktop.core.previews import build_preview

# The session's logger: these messages are the session's, wherever its code lives.
log = logging.getLogger("desktop.core.session")


class SessionApprovals:
    """Approval mode, tool-request screening and decisions of one ``Session``."""

    workspace: Path
    approvals: ApprovalBook
    state: SessionState
    _backend: AgentBackend | None
    _active_turn: str | None
    _tasks: set[asyncio.Task[Any]]

    def _publish(self, event: SessionEvent) -> None:
        raise NotImplementedError

    def _set_state(self, state: SessionState) -> None:
        raise NotImplementedError

    async def set_mode(self, mode: ApprovalMode) -> None:
        """Change the approval mode (host-side, and forwarded to the agent)."""
        self.approvals.mode = ApprovalMode(mode)
        self._publish(ModeChanged(mode=self.approvals.mode))
        if self._backend is not None and self.state != SessionState.EXITED:
            await self._backend.set_mode(self.approvals.mode)

    def decide(
        self,
        call_id: str,
        decision: Decision,
        source: DecisionSource = DecisionSource.USER,
        *,
        source_name: str | None = None,
        reason: str | None = None,
    ) -> DecideResult:
        """Resolve a pending tool call. Only the first decision for a call counts."""
        verdict = Verdict(Decision(decision), DecisionSource(source), source_name, reason)
        request = next((r for r in self.approvals.pending if r.call_id == call_id), None)
        rules = self.approvals.rules
        result = self.approvals.resolve(call_id, verdict)
        if result == DecideResult.ACCEPTED and request is not None:
            self._announce_decision(request, verdict)
            if self.approvals.rules != rules:
                self._publish(RulesChanged(rules=self.approvals.rules))
            if not self.approvals.pending and self.state == SessionState.AWAITING_APPROVAL:
                self._set_state(SessionState.RUNNING)
        return result

    def revoke_rule(self, rule_id: str) -> bool:
        """Drop an always-rule: the next matching request is asked again (a pending one stays).

        Returns whether there was such a rule; ``RulesChanged`` is published when there was.
        """
        if self.approvals.revoke(rule_id) is None:
            return False
        self._publish(RulesChanged(rules=self.approvals.rules))
        return True

    def revoke_all_rules(self) -> int:
        """Drop every always-rule (one ``RulesChanged``); returns how many there were."""
        dropped = [r for r in self.approvals.rules if self.approvals.revoke(r.id) is not None]
        if dropped:
            self._publish(RulesChanged(rules=self.approvals.rules))
        return len(dropped)

    def _announce_decision(self, request: ToolRequested, verdict: Verdict) -> None:
        self._publish(
            ToolDecided(
                turn_id=request.turn_id,
                call_id=request.call_id,
                decision=verdict.decision,
                source=verdict.source,
                source_name=verdict.source_name,
                reason=verdict.reason,
            )
        )
        backend = self._backend
        if backend is not None:
            self._spawn(backend.send_decision(request.call_id, verdict.decision, verdict.reason))

    def _deny_all_pending(self, reason: str) -> None:
        for request in self.approvals.pending:
            self.decide(request.call_id, Decision.DENY, DecisionSource.SHUTDOWN, reason=reason)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("sending to the agent failed", exc_info=task.exception())

    async def _drain_tasks(self) -> None:
        if self._tasks:
            await asyncio.wait(tuple(self._tasks), timeout=2.0)

    def _on_tool_request(self, event: ToolRequested) -> None:
        backend = self._backend
        if backend is None or not backend.host_approves_tools or not event.pending:
            self._publish(event)
            return
        preview = event.preview or build_preview(
            self.workspace, event.name, event.category, event.args
        )
        request = event.model_copy(
            update={"preview": preview, "turn_id": event.turn_id or self._active_turn}
        )
        verdict = self.approvals.automatic(request)
        if verdict is not None:
            self._publish(request.model_copy(update={"pending": False}))
            self._announce_decision(request, verdict)
            return
        self.approvals.open(request)
        if self.state == SessionState.RUNNING:
            self._set_state(SessionState.AWAITING_APPROVAL)
        self._publish(request)
