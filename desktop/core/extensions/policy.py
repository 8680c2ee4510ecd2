"""Pure rules of action execution: scope, idempotency signatures, caching, trust evaluation.

Kept free of I/O so the executor and the dispatcher share one definition and the contract's
conformance vectors can test each rule directly.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from desktop.core.extensions.manifest import Capabilities

#: Results worth replaying for the same idempotency key.
CACHEABLE_STATUSES = frozenset({"performed", "already_resolved", "not_eligible", "forbidden"})
#: Entry statuses that a later ``error``/``canceled`` must not overwrite.
_FINAL_TRANSCRIPT = "complete"
_DOWNGRADES = frozenset({"error", "canceled"})


class TrustMode(StrEnum):
    """How strictly declared capabilities are enforced."""

    DISABLED = "disabled"
    WARN = "warn"
    ENFORCED = "enforced"

    @classmethod
    def parse(cls, value: object) -> TrustMode:
        """Anything unknown (or missing) means ``warn``, as in the contract."""
        try:
            return cls(str(value).strip().lower()) if value is not None else cls.WARN
        except ValueError:
            return cls.WARN


@dataclass(frozen=True)
class Scope:
    """Which project, session and turn an action request was made for."""

    project_id: str | None = None
    source_session_id: str | None = None
    turn_id: str | None = None


def _first_string(*values: Any) -> str | None:
    return next((v for v in values if isinstance(v, str) and v), None)


def scope_from_payload(payload: Any) -> Scope | None:
    """The scope of an event payload, or ``None`` when it names no project, session or turn."""
    if not isinstance(payload, dict):
        return None
    context = payload.get("context")
    ctx = context if isinstance(context, dict) else {}
    scope = Scope(
        project_id=_first_string(ctx.get("projectId"), payload.get("projectId")),
        source_session_id=_first_string(
            ctx.get("sourceSessionId"),
            ctx.get("threadId"),
            payload.get("sourceSessionId"),
            payload.get("sessionId"),
            payload.get("threadId"),
        ),
        turn_id=_first_string(ctx.get("turnId"), payload.get("turnId")),
    )
    if scope == Scope():
        # Signal envelopes carry the project in ``session.projectId`` (trap T9 upstream).
        session = payload.get("session")
        project = session.get("projectId") if isinstance(session, dict) else None
        return Scope(project_id=project) if isinstance(project, str) and project else None
    return scope


def stable_json(value: Any) -> str:
    """JSON with sorted keys, so equal payloads give equal signatures."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def action_signature(action_type: str, scope: Scope | None, payload: Any) -> str:
    """``<actionType>:<projectId>:<sourceSessionId>:<turnId>:<stableJSON(payload)>``."""
    s = scope or Scope()
    return ":".join(
        (
            action_type,
            s.project_id or "",
            s.source_session_id or "",
            s.turn_id or "",
            stable_json(payload),
        )
    )


def signature_digest(signature: str) -> str:
    """SHA-256 hex of a signature (64 characters)."""
    return hashlib.sha256(signature.encode("utf-8")).hexdigest()


def is_cacheable(status: str) -> bool:
    """Whether a result with ``status`` is replayed for a repeated idempotency key."""
    return status in CACHEABLE_STATUSES


def normalize_details(details: Any) -> str | None:
    """Transcript ``details``: text stays, a dict becomes JSON, ``None`` is dropped."""
    if details is None:
        return None
    if isinstance(details, str):
        return details
    if isinstance(details, dict):
        try:
            return json.dumps(details, separators=(",", ":"), ensure_ascii=False)
        except (TypeError, ValueError):
            return "[unserializable-details]"
    return str(details)


def keep_existing_entry(existing_status: str | None, incoming_status: str) -> bool:
    """A ``complete`` entry survives a late ``error``/``canceled`` update."""
    return existing_status == _FINAL_TRANSCRIPT and incoming_status in _DOWNGRADES


def steer_error_status(message: str) -> str:
    """Map a steer failure message to an action status, as the contract orders the checks."""
    text = message.lower()
    if "no active turn" in text:
        return "conflict"
    if any(k in text for k in ("already resolved", "already handled", "not found")):
        return "already_resolved"
    if "not eligible" in text:
        return "not_eligible"
    if "conflict" in text:
        return "conflict"
    return "failed"


@dataclass(frozen=True)
class TrustEvaluation:
    """The result of checking registered events against declared capabilities."""

    status: str  # accepted | accepted_with_warnings | denied
    reasons: tuple[str, ...] = ()


def evaluate_trust(
    mode: TrustMode, capabilities: Capabilities | None, registered_events: list[str]
) -> TrustEvaluation:
    """Compare what a module registered with what its manifest declared."""
    if mode == TrustMode.DISABLED:
        return TrustEvaluation("accepted")
    reasons: list[str] = []
    if capabilities is None:
        reasons.append("has no manifest capabilities declaration")
    else:
        for event in dict.fromkeys(registered_events):
            if not capabilities.allows_event(event):
                reasons.append(f"registered undeclared event capability: {event}")
    if not reasons:
        return TrustEvaluation("accepted")
    if mode == TrustMode.ENFORCED:
        return TrustEvaluation("denied", tuple(reasons))
    return TrustEvaluation("accepted_with_warnings", tuple(reasons))


def action_allowed(
    mode: TrustMode, capabilities: Capabilities | None, action_type: str
) -> tuple[bool, str | None]:
    """Whether a module may request ``action_type``; the reason when it is undeclared."""
    if mode == TrustMode.DISABLED:
        return True, None
    if capabilities is not None and capabilities.allows_action(action_type):
        return True, None
    reason = f"action {action_type} is not declared in manifest capabilities.actions"
    return mode != TrustMode.ENFORCED, reason
