"""Types shared by the extension runtime and extension code (the Agent Runtime SDK contract).

Everything that crosses the boundary between an extension and the host is a plain ``dict`` whose
keys are the contract's camelCase names (``kind``, ``moduleName``, ``actionType``, ...), so
envelopes stay interchangeable with the contract's other implementations. The ``TypedDict``
classes below describe those dicts for static checking; nothing requires extensions to use them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal, NotRequired, Protocol, TypedDict

#: The contract's core API version. The single definition: the runtime imports it from here.
AGENT_RUNTIME_CORE_API_VERSION = 1

#: A JSON object as it crosses the extension boundary.
JsonDict = dict[str, Any]

ActionStatus = Literal[
    "performed", "already_resolved", "not_eligible", "conflict", "forbidden", "invalid", "failed"
]
ACTION_STATUSES: frozenset[str] = frozenset(
    {"performed", "already_resolved", "not_eligible", "conflict", "forbidden", "invalid", "failed"}
)
EnqueueStatus = Literal["enqueued", "already_queued"]
ENQUEUE_STATUSES: frozenset[str] = frozenset({"enqueued", "already_queued"})
JobState = Literal["queued", "running", "completed", "failed", "canceled"]
EmitResultKind = Literal["enqueue_result", "action_result", "handler_result", "handler_error"]
ReconciledClass = Literal["winner", "reconciled", "failed"]
SignalType = Literal["notification", "request"]

#: Action types the host executes; any other ``actionType`` is answered ``invalid``.
EXECUTABLE_ACTION_TYPES: tuple[str, ...] = (
    "transcript.upsert",
    "approval.decide",
    "turn.steer.create",
    "queue.enqueue",
)


class AgentRuntimeProfile(TypedDict):
    """The host's identity, checked against an extension's declared compatibility."""

    runtimeProfileId: str
    runtimeProfileVersion: str
    coreApiVersion: int


class RuntimeProfileRequirement(TypedDict):
    """One entry of ``AgentRuntimeCompatibility.profiles``."""

    name: str
    version: NotRequired[str]
    versionRange: NotRequired[str]


class AgentRuntimeCompatibility(TypedDict, total=False):
    """What an extension's manifest ``runtime`` block declares it works with."""

    coreApiVersion: int
    coreApiVersionRange: str
    profiles: list[RuntimeProfileRequirement]


class AgentRuntimeEvent(TypedDict):
    """What a handler receives as its first argument."""

    type: str
    payload: JsonDict
    emittedAt: NotRequired[str]
    correlationId: NotRequired[str]


class AgentJobEnqueueInput(TypedDict):
    """Input of ``tools.enqueue_job`` and the payload of a ``queue.enqueue`` action."""

    type: str
    projectId: str
    payload: JsonDict
    sourceSessionId: NotRequired[str | None]


class AgentJob(TypedDict, total=False):
    """A job record as the queue reports it (the queue passes its full record through)."""

    id: str
    type: str
    projectId: str
    state: JobState
    sourceSessionId: str | None
    dedupeKey: str | None
    payload: JsonDict
    result: Any
    error: str | None
    attempts: int
    createdAt: str
    updatedAt: str


class AgentJobEnqueueResult(TypedDict):
    """What ``tools.enqueue_job`` returns."""

    status: EnqueueStatus
    job: AgentJob


class AgentRuntimeActionRequest(TypedDict):
    """What a handler returns to ask the host to change something."""

    kind: Literal["action_request"]
    actionType: str
    payload: JsonDict
    requestId: NotRequired[str]
    idempotencyKey: NotRequired[str]


class AgentRuntimeActionResult(TypedDict):
    """The outcome of one action request, as executed by the host."""

    actionType: str
    status: ActionStatus
    requestId: NotRequired[str]
    idempotencyKey: NotRequired[str]
    details: NotRequired[JsonDict]


class ActionExecutionPlan(TypedDict):
    """The result of ``select_action_execution_plan``."""

    winner: JsonDict | None
    reconciled: list[JsonDict]
    failed: list[JsonDict]


class ActionReconciliationSummary(TypedDict):
    """The result of ``summarize_action_reconciliation``."""

    winner: JsonDict | None
    reconciledCount: int
    failedCount: int
    reconciledStatuses: list[str]


class AgentRuntimeLogger(Protocol):
    """Structured logger handed to handlers: a record first, an optional message second."""

    def debug(self, record: JsonDict, message: str | None = None) -> None: ...
    def info(self, record: JsonDict, message: str | None = None) -> None: ...
    def warn(self, record: JsonDict, message: str | None = None) -> None: ...
    def error(self, record: JsonDict, message: str | None = None) -> None: ...


class _Missing:
    """Type of ``MISSING``."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


#: Returned by ``get_session_setting`` for an absent key (a stored ``None`` is a real value).
MISSING = _Missing()


class AgentRuntimeTools(Protocol):
    """The second argument of every handler. Valid only while the handler runs.

    After the handler returns or times out, every method raises
    ``RuntimeError("agent handler invocation is no longer active")``.
    """

    logger: AgentRuntimeLogger

    async def enqueue_job(self, job: AgentJobEnqueueInput | JsonDict) -> JsonDict:
        """Add a job to the queue; returns ``{status, job}``."""
        ...

    def get_session_settings(self, session_id: str) -> JsonDict:
        """A deep copy of the extension-side settings of a session."""
        ...

    def get_session_setting(self, session_id: str, key: str) -> Any:
        """A deep copy of one top-level setting, or ``MISSING``."""
        ...


#: A handler: ``(event, tools) -> result``; may be a plain function or a coroutine function.
AgentEventHandler = Callable[[AgentRuntimeEvent, AgentRuntimeTools], Any | Awaitable[Any]]


class AgentJobContext(Protocol):
    """What a job handler receives."""

    job: JsonDict
    payload: JsonDict
    logger: AgentRuntimeLogger

    async def run_agent(self, prompt: str, *, timeout_s: float = 300.0) -> str:
        """Run ``prompt`` on a background agent in the job's workspace; its answer text."""
        ...


#: A job handler: returns a JSON result, optionally ``{"kind": "action_intents", "intents": []}``.
AgentJobHandler = Callable[[AgentJobContext], Awaitable[Any]]


class AgentEventRegistry(Protocol):
    """What ``register_agent_events(registry)`` receives."""

    def on(
        self,
        event_type: str,
        handler: AgentEventHandler,
        priority: float = 100,
        timeout_ms: float | None = None,
    ) -> None:
        """Call ``handler`` for every event of ``event_type`` (exact match)."""
        ...

    def job(
        self,
        job_type: str,
        handler: AgentJobHandler,
        *,
        dedupe: str = "none",
        dedupe_key: Callable[[JsonDict], str | None] | None = None,
        timeout_ms: float | None = None,
    ) -> None:
        """Declare a job type that this extension's handlers may enqueue."""
        ...
