"""The Agent Desk extension SDK: the Agent Runtime SDK contract, in Python.

An extension is a folder with ``extension.manifest.json`` and ``events.py``; ``events.py``
defines ``register_agent_events(registry)`` and calls ``registry.on(event_type, handler,
priority=100, timeout_ms=30000)``. Handlers receive ``(event, tools)`` and *return* what they
want: ``None``, a ``handler_result``, an enqueue result from ``await tools.enqueue_job(...)``, or
an action request ``{"kind": "action_request", "actionType": "approval.decide", "payload":
{...}}`` that the host executes and reconciles. Everything is plain dicts with the contract's
field names. This package imports no Qt and nothing of the host.
"""

from desktop.sdk.helpers import (
    classify_reconciled_action_status,
    is_action_request,
    is_action_result,
    is_emit_result,
    is_enqueue_result,
    select_action_execution_plan,
    select_enqueue_winner,
    select_first_successful_action,
    summarize_action_reconciliation,
    to_agent_event_emit_result,
    to_agent_event_handler_error,
)
from desktop.sdk.names import app_server_event_name, normalize_method, signal_event_name
from desktop.sdk.types import (
    ACTION_STATUSES,
    AGENT_RUNTIME_CORE_API_VERSION,
    EXECUTABLE_ACTION_TYPES,
    MISSING,
    ActionExecutionPlan,
    AgentEventHandler,
    AgentEventRegistry,
    AgentJob,
    AgentJobContext,
    AgentJobEnqueueInput,
    AgentJobEnqueueResult,
    AgentJobHandler,
    AgentRuntimeActionRequest,
    AgentRuntimeActionResult,
    AgentRuntimeCompatibility,
    AgentRuntimeEvent,
    AgentRuntimeLogger,
    AgentRuntimeProfile,
    AgentRuntimeTools,
    JsonDict,
    RuntimeProfileRequirement,
)


def action_request(
    action_type: str,
    payload: JsonDict,
    *,
    request_id: str | None = None,
    idempotency_key: str | None = None,
) -> AgentRuntimeActionRequest:
    """Build an action request to return from a handler."""
    request: AgentRuntimeActionRequest = {
        "kind": "action_request",
        "actionType": action_type,
        "payload": payload,
    }
    if request_id is not None:
        request["requestId"] = request_id
    if idempotency_key is not None:
        request["idempotencyKey"] = idempotency_key
    return request


__all__ = [
    "ACTION_STATUSES",
    "AGENT_RUNTIME_CORE_API_VERSION",
    "EXECUTABLE_ACTION_TYPES",
    "MISSING",
    "ActionExecutionPlan",
    "AgentEventHandler",
    "AgentEventRegistry",
    "AgentJob",
    "AgentJobContext",
    "AgentJobEnqueueInput",
    "AgentJobEnqueueResult",
    "AgentJobHandler",
    "AgentRuntimeActionRequest",
    "AgentRuntimeActionResult",
    "AgentRuntimeCompatibility",
    "AgentRuntimeEvent",
    "AgentRuntimeLogger",
    "AgentRuntimeProfile",
    "AgentRuntimeTools",
    "JsonDict",
    "RuntimeProfileRequirement",
    "action_request",
    "app_server_event_name",
    "classify_reconciled_action_status",
    "is_action_request",
    "is_action_result",
    "is_emit_result",
    "is_enqueue_result",
    "normalize_method",
    "select_action_execution_plan",
    "select_enqueue_winner",
    "select_first_successful_action",
    "signal_event_name",
    "summarize_action_reconciliation",
    "to_agent_event_emit_result",
    "to_agent_event_handler_error",
]
