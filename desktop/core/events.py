"""The backend-neutral session event model.

Every protocol adapter (aionrs JSON stream, ACP, Codex app-server, remote gRPC) maps its wire
traffic into these events, and every consumer (window, history store, extensions,
``agentdesk exec --json``) reads only these. Each event serialises to one JSON object whose
``type`` field names it, which is also the ``--json`` output format of ``agentdesk exec``.
"""

from __future__ import annotations

import functools
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from desktop.core.start_problem import StartProblem
from desktop.core.texts import CoreText


class ApprovalMode(StrEnum):
    """How much the host approves without asking (the spec's ``set_mode`` values)."""

    DEFAULT = "default"
    AUTO_EDIT = "auto_edit"
    YOLO = "yolo"


class ToolCategory(StrEnum):
    """Tool categories of the aionrs protocol; ``remote``: tools a remote runtime runs itself."""

    INFO = "info"
    EDIT = "edit"
    EXEC = "exec"
    MCP = "mcp"
    REMOTE = "remote"


class Decision(StrEnum):
    """A decision on one tool call.

    ``always`` and ``reject_always`` also make an always-rule the host keeps (allow or deny,
    ``AlwaysRule``); the agent itself is answered one-off (approve or deny this call).
    ``reject_always`` is offered only where the agent's protocol has it
    (``ToolRequested.offers_reject_always``).
    """

    ONCE = "once"
    ALWAYS = "always"
    DENY = "deny"
    REJECT_ALWAYS = "reject_always"

    @property
    def denies(self) -> bool:
        """Whether the call is refused (``deny`` or ``reject_always``)."""
        return self in (Decision.DENY, Decision.REJECT_ALWAYS)


class DecisionSource(StrEnum):
    """Who decided: nothing runs unless one of these did."""

    USER = "user"
    MODE = "mode"
    ALWAYS_RULE = "always_rule"
    POLICY = "policy"
    EXTENSION = "extension"
    SHUTDOWN = "shutdown"


class UnaskedRun(StrEnum):
    """A tool the agent ran without a request: by its own read-only allow-list or mode the user
    set (``allowed``), or for no reason the host knows (``warning``)."""

    ALLOWED = "allowed"
    WARNING = "warning"


class TurnEndReason(StrEnum):
    """Why a turn ended."""

    COMPLETED = "completed"
    STOPPED = "stopped"
    ERROR = "error"
    AGENT_EXITED = "agent_exited"


class SessionState(StrEnum):
    """States of the per-conversation state machine."""

    NEW = "new"
    STARTING = "starting"
    READY = "ready"
    RUNNING = "running"
    AWAITING_APPROVAL = "awaiting_approval"
    IDLE = "idle"
    STOPPING = "stopping"
    EXITED = "exited"


class Usage(BaseModel):
    """Token usage of one turn."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
        )


class ToolPreview(BaseModel):
    """What a tool call will do, computed by the host before anyone approves it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    kind: Literal["diff", "command", "json"]
    text: str = Field(description="Unified diff, command line, or pretty JSON of the arguments.")
    cwd: str | None = None
    paths: list[str] = Field(default_factory=list)
    outside_workspace: bool = False
    new_file: bool = False
    #: Why the host could not compute the preview (``text`` then holds the arguments).
    unavailable: str | None = None


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class AgentReady(_Event):
    """The agent finished starting and can take prompts."""

    type: Literal["agent_ready"] = "agent_ready"
    agent: str
    protocol: str
    version: str | None = None
    session_id: str | None = None
    capabilities: dict[str, Any] = Field(default_factory=dict)


class StateChanged(_Event):
    """The session state machine moved."""

    type: Literal["state_changed"] = "state_changed"
    state: SessionState


class ModeChanged(_Event):
    """The approval mode changed (host-side; also sent to the agent)."""

    type: Literal["mode_changed"] = "mode_changed"
    mode: ApprovalMode


class TurnStarted(_Event):
    """A prompt was sent to the agent; a turn began."""

    type: Literal["turn_started"] = "turn_started"
    turn_id: str
    prompt: str
    files: list[str] = Field(default_factory=list)


class TextDelta(_Event):
    """A piece of assistant text."""

    type: Literal["text_delta"] = "text_delta"
    turn_id: str | None = None
    text: str


class ThinkingDelta(_Event):
    """A piece of the model's reasoning."""

    type: Literal["thinking_delta"] = "thinking_delta"
    turn_id: str | None = None
    text: str


class ToolRequested(_Event):
    """The agent wants to run a tool; ``pending`` means it waits for a decision."""

    type: Literal["tool_requested"] = "tool_requested"
    turn_id: str | None = None
    call_id: str
    name: str
    category: ToolCategory
    args: dict[str, Any] = Field(default_factory=dict)
    description: str = ""
    pending: bool = True
    preview: ToolPreview | None = None
    #: The agent's own category when the host classified the tool differently (``category``).
    claimed_category: ToolCategory | None = None
    #: The agent's protocol offers "reject always" for this call (ACP's ``reject_always``).
    offers_reject_always: bool = False


class ToolDecided(_Event):
    """A tool call was approved or denied, and by whom.

    ``source_name`` names the deciding party: the mode's value for ``mode``, the policy's or
    extension's name, and for ``always_rule`` the ``AlwaysRule.id`` of the rule that allowed it
    (today the rule's category value, e.g. ``"exec"``; the rule itself is in the last
    ``RulesChanged``).
    """

    type: Literal["tool_decided"] = "tool_decided"
    turn_id: str | None = None
    call_id: str
    decision: Decision
    source: DecisionSource
    source_name: str | None = None
    reason: str | None = None
    #: ``reason`` for the window to translate (never serialised: the agent and output get English).
    i18n: CoreText | None = Field(default=None, exclude=True)


class ToolStarted(_Event):
    """A tool began running."""

    type: Literal["tool_started"] = "tool_started"
    turn_id: str | None = None
    call_id: str
    name: str
    category: ToolCategory | None = None
    args: dict[str, Any] | None = None
    #: Set by the host when the call was never requested although the host approves tools.
    unasked: UnaskedRun | None = None


class ToolFinished(_Event):
    """A tool finished."""

    type: Literal["tool_finished"] = "tool_finished"
    turn_id: str | None = None
    call_id: str
    name: str
    status: Literal["success", "error"]
    output: str = ""
    output_type: str = "text"
    diff: str | None = None
    file_path: str | None = None


class ToolCancelled(_Event):
    """A tool call was denied or cancelled and will not run."""

    type: Literal["tool_cancelled"] = "tool_cancelled"
    turn_id: str | None = None
    call_id: str
    reason: str = ""
    #: ``reason`` for the window to translate (never serialised: output stays English).
    i18n: CoreText | None = Field(default=None, exclude=True)


class TurnEnded(_Event):
    """A turn finished, for the reason given."""

    type: Literal["turn_ended"] = "turn_ended"
    turn_id: str
    reason: TurnEndReason
    usage: Usage | None = None
    #: The model that answered, where the agent says (prices the usage).
    model: str | None = None
    message: str | None = None
    #: ``message`` for the window to translate (never serialised: output stays English).
    i18n: CoreText | None = Field(default=None, exclude=True)


class PlanStatus(StrEnum):
    """Where one step of an agent's plan stands (ACP's values; Codex's ``inProgress`` maps in)."""

    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"


class PlanPriority(StrEnum):
    """How important a step of the plan is (ACP's values)."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class PlanStep(BaseModel):
    """One step of an agent's plan."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    content: str
    status: PlanStatus = PlanStatus.PENDING
    priority: PlanPriority | None = None


class PlanUpdated(_Event):
    """The agent's plan for the turn, whole (every update replaces the one before)."""

    type: Literal["plan_updated"] = "plan_updated"
    turn_id: str | None = None
    entries: list[PlanStep] = Field(default_factory=list)
    explanation: str | None = None


class ToolOutputDelta(_Event):
    """A piece of a running tool's output (a command's stdout and stderr as they arrive)."""

    type: Literal["tool_output_delta"] = "tool_output_delta"
    turn_id: str | None = None
    call_id: str
    text: str


class ChoiceKind(StrEnum):
    """What an agent lets the user choose per conversation."""

    MODEL = "model"
    MODE = "mode"


class AgentChoice(BaseModel):
    """One model or mode an agent offers."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str
    name: str = ""
    description: str = ""


class ChoicesChanged(_Event):
    """The models (or agent modes) the agent offers and the current one; an empty
    ``available`` means the agent offers no choice (``current`` may still name the model)."""

    type: Literal["choices_changed"] = "choices_changed"
    kind: ChoiceKind = ChoiceKind.MODEL
    current: str | None = None
    available: list[AgentChoice] = Field(default_factory=list)


class AgentCommand(BaseModel):
    """One slash command the agent offers (ACP ``available_commands_update``): its name
    without the ``/``, what it does, and a hint for its input when it takes one."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str
    description: str = ""
    hint: str | None = None


class CommandsChanged(_Event):
    """The slash commands the agent offers now (all of them; empty: none)."""

    type: Literal["commands_changed"] = "commands_changed"
    commands: list[AgentCommand] = Field(default_factory=list)


class Notice(_Event):
    """Information for the user that is not an error."""

    type: Literal["notice"] = "notice"
    turn_id: str | None = None
    level: Literal["info", "warning"] = "info"
    message: str
    #: ``message`` for the window to translate (never serialised: output stays English).
    i18n: CoreText | None = Field(default=None, exclude=True)


class StartFix(BaseModel):
    """What the user can do about an agent that cannot start: the typed cause, what it is about
    (``subject``: a profile or program name), the agent that failed and, for a missing key, the
    provider type of the profile."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    problem: StartProblem
    subject: str = ""
    agent: str = ""
    provider: str | None = None


class ErrorEvent(_Event):
    """Something went wrong; ``retryable`` says whether trying again may help, ``fix`` (start
    failures only) what the user can change to make it work."""

    type: Literal["error"] = "error"
    turn_id: str | None = None
    code: str
    message: str
    retryable: bool = False
    fix: StartFix | None = None
    #: ``message`` for the window to translate (never serialised: output stays English).
    i18n: CoreText | None = Field(default=None, exclude=True)


class AlwaysRule(BaseModel):
    """A standing decision the user made with "approve always" (or "deny always", ``denies``),
    kept for one conversation.

    ``id`` is stable while the rule lives and is what ``ToolDecided.source_name`` names; today a
    rule allows (or denies) one tool category and its id is the category value (``deny:`` and
    the category for a deny rule; richer rules, e.g. keyed on a host classification of the
    tool, get other ids). ``made_from`` is the call it was made
    from, shortened for display (e.g. ``Bash `make all` ``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str
    category: ToolCategory
    label: str = Field(description='What it allows, for people: "shell commands", "file edits".')
    created_at: float = Field(description="When it was made (epoch seconds).")
    made_from: str = ""
    #: A deny rule ("Deny always"): matching requests are denied without asking.
    denies: bool = False


class RulesChanged(_Event):
    """The conversation's always-rules changed (one was made or revoked); the whole list."""

    type: Literal["rules_changed"] = "rules_changed"
    rules: list[AlwaysRule] = Field(default_factory=list)


class McpServerState(StrEnum):
    """Where one MCP server of a conversation stands."""

    STARTING = "starting"
    CONNECTED = "connected"
    #: Passed to an agent that starts it itself and does not report back (ACP, Codex).
    PASSED = "passed"
    FAILED = "failed"
    #: It was connected and stopped working mid-session.
    STOPPED = "stopped"


class McpStatus(_Event):
    """One MCP server of the conversation changed state; ``message`` says why it failed or
    stopped (with the end of the server's stderr when there is one), ``tools`` what it offers."""

    type: Literal["mcp_status"] = "mcp_status"
    server: str
    state: McpServerState
    tools: list[str] = Field(default_factory=list)
    message: str = ""


class AgentExited(_Event):
    """The agent process ended."""

    type: Literal["agent_exited"] = "agent_exited"
    exit_code: int | None = None
    signal: int | None = None
    stderr_tail: str = ""
    expected: bool = False


SessionEvent = Annotated[
    AgentReady
    | StateChanged
    | ModeChanged
    | RulesChanged
    | TurnStarted
    | TextDelta
    | ThinkingDelta
    | ToolRequested
    | ToolDecided
    | ToolStarted
    | ToolFinished
    | ToolCancelled
    | TurnEnded
    | PlanUpdated
    | ToolOutputDelta
    | ChoicesChanged
    | CommandsChanged
    | Notice
    | ErrorEvent
    | McpStatus
    | AgentExited,
    Field(discriminator="type"),
]


@functools.cache
def _event_adapter() -> TypeAdapter[SessionEvent]:
    return TypeAdapter(SessionEvent)


def parse_event(data: str | bytes) -> SessionEvent:
    """Parse one JSON event line (as printed by ``agentdesk exec --json``)."""
    return _event_adapter().validate_json(data)
