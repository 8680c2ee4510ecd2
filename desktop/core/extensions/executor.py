"""Execute action requests against the host, with idempotency replay and scope checks.

Pipeline: validate the envelope, check the capability (worker intents only; the dispatcher
checks handler requests itself), replay by idempotency key, dispatch to the host operation,
attach ``requestId``/``idempotencyKey`` and cache. The host side is behind ``ActionHost`` so the
executor runs the same for the window, ``agentdesk exec`` and tests.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from desktop.core.extensions.manifest import Capabilities
from desktop.core.extensions.policy import (
    Scope,
    TrustMode,
    action_allowed,
    action_signature,
    is_cacheable,
    steer_error_status,
)
from desktop.sdk.types import JsonDict

log = logging.getLogger(__name__)

IDEMPOTENCY_CACHE_SIZE = 5000


_ActionType = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
_RequestId = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
_IdempotencyKey = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=300)
]


class _Envelope(BaseModel):
    model_config = ConfigDict(extra="allow")

    actionType: _ActionType
    payload: dict[str, Any]
    requestId: _RequestId | None = None
    idempotencyKey: _IdempotencyKey | None = None


class TranscriptEntry(BaseModel):
    """One conversation entry an extension adds or updates (keyed by ``messageId``)."""

    model_config = ConfigDict(extra="ignore")

    messageId: str = Field(min_length=1)
    turnId: str | None = None
    role: Literal["user", "assistant", "system"]
    type: str = Field(min_length=1)
    content: str
    details: Any = None
    status: Literal["streaming", "complete", "canceled", "error"] = "complete"
    startedAt: str | None = None
    completedAt: str | None = None


class _TranscriptUpsert(BaseModel):
    sessionId: str = Field(min_length=1)
    entry: TranscriptEntry


class _ApprovalDecide(BaseModel):
    approvalId: str = Field(min_length=1)
    decision: Literal["accept", "decline"]
    scope: Literal["turn", "session"] = "turn"
    reason: str | None = None


class _Steer(BaseModel):
    sessionId: str = Field(min_length=1)
    turnId: str | None = None
    input: str = Field(min_length=1)


class _Enqueue(BaseModel):
    type: str = Field(min_length=1)
    projectId: str = Field(min_length=1)
    sourceSessionId: str | None = None
    payload: dict[str, Any]


class SessionTarget(Protocol):
    """One attached conversation, as the executor sees it."""

    session_id: str
    project_id: str

    def pending_approval_turn(self, approval_id: str) -> tuple[bool, str | None]:
        """Whether ``approval_id`` is pending here, and its turn."""
        ...

    def decide(
        self, approval_id: str, accept: bool, always: bool, module: str, reason: str | None
    ) -> bool:
        """Resolve a pending approval; False when someone else resolved it first."""
        ...

    def active_turn(self) -> str | None:
        """The running turn, if any."""
        ...

    def upsert_transcript(self, entry: TranscriptEntry, module: str) -> None:
        """Add or update an extension entry in the conversation."""
        ...

    def steer(self, text: str) -> JsonDict:
        """Send extra input to the running turn or queue it; details for the result."""
        ...


class ActionHost(Protocol):
    """What the executor acts on."""

    def sessions(self) -> list[SessionTarget]:
        """Every attached conversation."""
        ...

    async def enqueue_action_job(self, job: JsonDict, module: str) -> JsonDict:
        """Enqueue for a ``queue.enqueue`` action; returns ``{status, job}``; raises on
        queue errors."""
        ...


def _issues(exc: ValidationError) -> list[str]:
    return [f"{'.'.join(str(p) for p in e['loc']) or '<root>'}: {e['msg']}" for e in exc.errors()]


class ActionExecutor:
    """Runs the four executable action types; one instance per runtime (shared cache)."""

    def __init__(self, host: ActionHost, *, trust_mode: TrustMode = TrustMode.ENFORCED) -> None:
        self._host = host
        self._trust_mode = trust_mode
        self._cache: OrderedDict[str, tuple[str, JsonDict]] = OrderedDict()

    async def execute(
        self,
        request: Any,
        *,
        module: str,
        scope: Scope | None,
        capabilities: Capabilities | None = None,
        check_capability: bool = False,
    ) -> JsonDict:
        """Execute one action request and return its ``AgentRuntimeActionResult``."""
        try:
            envelope = _Envelope.model_validate(request)
        except ValidationError as exc:
            raw_type = request.get("actionType") if isinstance(request, dict) else None
            usable = isinstance(raw_type, str) and raw_type.strip()
            return {
                "actionType": raw_type.strip()
                if usable and isinstance(raw_type, str)
                else "unknown",
                "status": "invalid",
                "details": {
                    "message": "action request envelope is invalid",
                    "issues": _issues(exc),
                },
            }
        action_type = envelope.actionType.strip()
        ids: JsonDict = {}
        if envelope.requestId:
            ids["requestId"] = envelope.requestId.strip()
        if envelope.idempotencyKey:
            ids["idempotencyKey"] = envelope.idempotencyKey.strip()
        if check_capability:
            allowed, reason = action_allowed(self._trust_mode, capabilities, action_type)
            if not allowed:
                details = {"code": "undeclared_capability", "reason": reason}
                return {"actionType": action_type, "status": "forbidden", "details": details, **ids}
        key = ids.get("idempotencyKey")
        signature = action_signature(action_type, scope, envelope.payload)
        if key is not None and key in self._cache:
            cached_signature, cached = self._cache[key]
            if cached_signature != signature:
                details = {
                    "code": "idempotency_conflict",
                    "message": "idempotency key was reused with a different action payload",
                }
                return {"actionType": action_type, "status": "conflict", "details": details, **ids}
            return {**cached, **ids}
        result = await self._dispatch(action_type, envelope.payload, module, scope)
        result = {"actionType": action_type, **result, **ids}
        if key is not None and is_cacheable(result["status"]):
            self._cache[key] = (signature, result)
            while len(self._cache) > IDEMPOTENCY_CACHE_SIZE:
                self._cache.popitem(last=False)
        return result

    async def _dispatch(
        self, action_type: str, payload: JsonDict, module: str, scope: Scope | None
    ) -> JsonDict:
        models: dict[str, type[BaseModel]] = {
            "transcript.upsert": _TranscriptUpsert,
            "approval.decide": _ApprovalDecide,
            "turn.steer.create": _Steer,
            "queue.enqueue": _Enqueue,
        }
        model = models.get(action_type)
        if model is None:
            return {
                "status": "invalid",
                "details": {"message": f"unsupported actionType: {action_type}"},
            }
        try:
            parsed = model.model_validate(payload)
        except ValidationError as exc:
            message = f"{action_type} payload is invalid"
            return {"status": "invalid", "details": {"message": message, "issues": _issues(exc)}}
        if isinstance(parsed, _TranscriptUpsert):
            return self._transcript(parsed, module, scope)
        if isinstance(parsed, _ApprovalDecide):
            return self._approval(parsed, module, scope)
        if isinstance(parsed, _Steer):
            return self._steer(parsed, scope)
        assert isinstance(parsed, _Enqueue)
        return await self._enqueue(parsed, module, scope)

    def _session(self, session_id: str) -> SessionTarget | None:
        return next((s for s in self._host.sessions() if s.session_id == session_id), None)

    @staticmethod
    def _mismatch(code: str, expected: str | None, received: str | None) -> JsonDict:
        details = {"code": code, "expected": expected, "received": received}
        return {"status": "forbidden", "details": details}

    def _check_session_turn(
        self, session_id: str, turn_id: str | None, scope: Scope | None
    ) -> JsonDict | None:
        if scope is not None and scope.source_session_id and scope.source_session_id != session_id:
            return {
                "status": "forbidden",
                "details": {
                    "code": "scope_session_mismatch",
                    "expectedSessionId": scope.source_session_id,
                    "receivedSessionId": session_id,
                },
            }
        if scope is not None and scope.turn_id and turn_id and scope.turn_id != turn_id:
            return self._mismatch("scope_turn_mismatch", scope.turn_id, turn_id)
        return None

    def _transcript(self, parsed: _TranscriptUpsert, module: str, scope: Scope | None) -> JsonDict:
        problem = self._check_session_turn(parsed.sessionId, parsed.entry.turnId, scope)
        if problem is not None:
            return problem
        target = self._session(parsed.sessionId)
        if target is None:
            return {"status": "failed", "details": {"code": "session_not_found"}}
        target.upsert_transcript(parsed.entry, module)
        details = {"messageId": parsed.entry.messageId, "turnId": parsed.entry.turnId}
        return {"status": "performed", "details": details}

    def _approval(self, parsed: _ApprovalDecide, module: str, scope: Scope | None) -> JsonDict:
        for target in self._host.sessions():
            pending, turn_id = target.pending_approval_turn(parsed.approvalId)
            if not pending:
                continue
            problem = self._check_session_turn(target.session_id, turn_id, scope)
            if problem is not None:
                return problem
            done = target.decide(
                parsed.approvalId,
                parsed.decision == "accept",
                parsed.scope == "session",
                module,
                parsed.reason,
            )
            details = {
                "approvalId": parsed.approvalId,
                "threadId": target.session_id,
                "decision": parsed.decision,
                "scope": parsed.scope,
            }
            return {"status": "performed" if done else "already_resolved", "details": details}
        return {"status": "already_resolved", "details": {"approvalId": parsed.approvalId}}

    def _steer(self, parsed: _Steer, scope: Scope | None) -> JsonDict:
        problem = self._check_session_turn(parsed.sessionId, parsed.turnId, scope)
        if problem is not None:
            return problem
        target = self._session(parsed.sessionId)
        if target is None:
            return {"status": "failed", "details": {"code": "session_not_found"}}
        try:
            details = target.steer(parsed.input)
        except Exception as exc:  # noqa: BLE001 - mapped to a status as the contract orders it
            return {"status": steer_error_status(str(exc)), "details": {"message": str(exc)}}
        return {"status": "performed", "details": details}

    async def _enqueue(self, parsed: _Enqueue, module: str, scope: Scope | None) -> JsonDict:
        if scope is not None and scope.project_id and scope.project_id != parsed.projectId:
            return self._mismatch("scope_project_mismatch", scope.project_id, parsed.projectId)
        session_id = parsed.sourceSessionId or (scope.source_session_id if scope else None)
        if (
            scope is not None
            and scope.source_session_id
            and session_id
            and session_id != scope.source_session_id
        ):
            return self._mismatch("scope_session_mismatch", scope.source_session_id, session_id)
        job = {
            "type": parsed.type,
            "projectId": parsed.projectId,
            "sourceSessionId": session_id,
            "payload": parsed.payload,
        }
        try:
            outcome = await self._host.enqueue_action_job(job, module)
        except Exception as exc:  # noqa: BLE001 - the contract reports a raise as failed
            code = getattr(exc, "code", "enqueue_failed")
            return {"status": "failed", "details": {"code": code, "message": str(exc)}}
        status = "performed" if outcome["status"] == "enqueued" else "already_resolved"
        return {
            "status": status,
            "details": {"enqueueStatus": outcome["status"], "job": outcome["job"]},
        }
