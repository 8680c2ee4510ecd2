"""Pure helpers of the contract: normalise handler output and reconcile competing results.

The runtime calls these on every handler's output so the rest of the host never scans
unknown shapes. They are pure functions of their inputs and safe to use in extension code too.
"""

from __future__ import annotations

import math
from typing import Any

from desktop.sdk.types import (
    ACTION_STATUSES,
    ENQUEUE_STATUSES,
    MISSING,
    ActionExecutionPlan,
    ActionReconciliationSummary,
    JsonDict,
    ReconciledClass,
)

_RECONCILED = frozenset({"already_resolved", "not_eligible", "conflict"})


def is_record(value: object) -> bool:
    """Whether ``value`` is a JSON object (a ``dict``)."""
    return isinstance(value, dict)


def is_enqueue_result(value: object) -> bool:
    """An enqueue status and a ``job`` with string ``id``, ``type`` and ``projectId``."""
    if not isinstance(value, dict) or value.get("status") not in ENQUEUE_STATUSES:
        return False
    job = value.get("job")
    return isinstance(job, dict) and all(
        isinstance(job.get(key), str) for key in ("id", "type", "projectId")
    )


def is_action_result(value: object) -> bool:
    """A string ``actionType`` and a valid action status."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("actionType"), str)
        and isinstance(value.get("status"), str)
        and value["status"] in ACTION_STATUSES
    )


def is_action_request(value: object) -> bool:
    """``kind == "action_request"``, a string ``actionType`` and a record ``payload``."""
    return (
        isinstance(value, dict)
        and value.get("kind") == "action_request"
        and isinstance(value.get("actionType"), str)
        and isinstance(value.get("payload"), dict)
    )


def is_emit_result(value: object) -> bool:
    """A complete envelope: string ``kind`` and ``moduleName`` plus its kind's own guard."""
    if not isinstance(value, dict):
        return False
    kind, module = value.get("kind"), value.get("moduleName")
    if not isinstance(kind, str) or not isinstance(module, str):
        return False
    if kind == "enqueue_result":
        return is_enqueue_result(value)
    if kind == "action_result":
        return is_action_result(value)
    if kind == "handler_result":
        return True
    if kind == "handler_error":
        return isinstance(value.get("eventType"), str) and isinstance(value.get("error"), str)
    return False


def to_agent_event_emit_result(module_name: str, event_type: str, raw: object) -> JsonDict:
    """Normalise whatever a handler returned into one emit-result envelope.

    Args:
        module_name: The extension that produced ``raw``.
        event_type: The event being handled (accepted for symmetry; not used, as in the
            contract).
        raw: The handler's return value.

    Returns:
        An ``enqueue_result``, ``action_result`` or ``handler_result`` envelope; anything
        unrecognised becomes ``{"kind": "handler_result", "details": {"value": raw}}``.
    """
    del event_type
    if is_emit_result(raw) and isinstance(raw, dict) and raw["moduleName"]:
        return raw
    if is_enqueue_result(raw) and isinstance(raw, dict):
        return {
            "kind": "enqueue_result",
            "moduleName": module_name,
            "status": raw["status"],
            "job": raw["job"],
        }
    if is_action_result(raw) and isinstance(raw, dict):
        result: JsonDict = {
            "kind": "action_result",
            "moduleName": module_name,
            "actionType": raw["actionType"],
            "status": raw["status"],
        }
        for key in ("requestId", "idempotencyKey"):
            if isinstance(raw.get(key), str):
                result[key] = raw[key]
        if isinstance(raw.get("details"), dict):
            result["details"] = raw["details"]
        return result
    if isinstance(raw, dict) and raw.get("kind") == "handler_result":
        envelope: JsonDict = {"kind": "handler_result", "moduleName": module_name}
        if isinstance(raw.get("details"), dict):
            envelope["details"] = raw["details"]
        return envelope
    if raw is None:
        return {"kind": "handler_result", "moduleName": module_name}
    return {"kind": "handler_result", "moduleName": module_name, "details": {"value": raw}}


def js_string(value: object) -> str:
    """JavaScript's ``String(x)``, so error texts match the contract's other implementations."""
    if value is MISSING:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, list | tuple):
        return ",".join("" if v is None or v is MISSING else js_string(v) for v in value)
    if isinstance(value, BaseException):
        return str(value)
    return "[object Object]"


def to_agent_event_handler_error(module_name: str, event_type: str, error: object) -> JsonDict:
    """A ``handler_error`` envelope; an exception contributes its message, never a traceback."""
    return {
        "kind": "handler_error",
        "moduleName": module_name,
        "eventType": event_type,
        "error": js_string(error),
    }


def timeout_error_text(timeout_ms: int) -> str:
    """The contract's text for a handler that exceeded its time limit."""
    return f"agent event handler timed out after {timeout_ms}ms"


def select_enqueue_winner(
    results: list[JsonDict], strategy: str = "prefer_enqueued"
) -> JsonDict | None:
    """Pick the enqueue result that represents the job, among ``enqueue_result`` entries.

    ``prefer_existing``: the first ``already_queued``, else the first entry.
    ``prefer_enqueued`` (the default, and for unknown strategies): the first ``enqueued``, else
    the first ``already_queued``. ``None`` when there is no enqueue result.
    """
    entries = [r for r in results if isinstance(r, dict) and r.get("kind") == "enqueue_result"]
    if not entries:
        return None
    if strategy == "prefer_existing":
        existing = next((r for r in entries if r.get("status") == "already_queued"), None)
        return existing if existing is not None else entries[0]
    enqueued = next((r for r in entries if r.get("status") == "enqueued"), None)
    if enqueued is not None:
        return enqueued
    return next((r for r in entries if r.get("status") == "already_queued"), None)


def _action_results(results: list[JsonDict]) -> list[JsonDict]:
    return [r for r in results if isinstance(r, dict) and r.get("kind") == "action_result"]


def select_first_successful_action(results: list[JsonDict]) -> JsonDict | None:
    """The first ``performed`` ``action_result``, or ``None``."""
    return next((r for r in _action_results(results) if r.get("status") == "performed"), None)


def classify_reconciled_action_status(status: Any) -> ReconciledClass:
    """``performed`` → winner; ``already_resolved``/``not_eligible``/``conflict`` → reconciled;
    anything else → failed."""
    if status == "performed":
        return "winner"
    if status in _RECONCILED:
        return "reconciled"
    return "failed"


def select_action_execution_plan(results: list[JsonDict]) -> ActionExecutionPlan:
    """Winner (first ``performed``), then every other action result by class, in order.

    A second ``performed`` is not a winner and lands in ``reconciled``, as in the contract.
    """
    winner = select_first_successful_action(results)
    plan: ActionExecutionPlan = {"winner": winner, "reconciled": [], "failed": []}
    for result in _action_results(results):
        if result is winner:
            continue
        if classify_reconciled_action_status(result.get("status")) == "failed":
            plan["failed"].append(result)
        else:
            plan["reconciled"].append(result)
    return plan


def summarize_action_reconciliation(results: list[JsonDict]) -> ActionReconciliationSummary:
    """Counts for logs and the UI: ``{winner, reconciledCount, failedCount,
    reconciledStatuses}``."""
    plan = select_action_execution_plan(results)
    return {
        "winner": plan["winner"],
        "reconciledCount": len(plan["reconciled"]),
        "failedCount": len(plan["failed"]),
        "reconciledStatuses": [str(r.get("status")) for r in plan["reconciled"]],
    }
