"""The backend-neutral session event model.

Every protocol adapter (aionrs JSON stream, ACP, Codex app-server, remote gRPC) maps its wire
traffic into these events, and every consumer (window, history store, extensions,
``agentdesk exec --json``) reads only these. Each event serialises to one JSON object whose
``type`` field names it, which is also the ``--json`` output format of ``agentdesk exec``.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from desktop.core.event_values import (
    AgentChoice,
    AgentCommand,
    AlwaysRule,
    ApprovalMode,
    ChoiceKind,
    Decision,
    DecisionSource,
    McpServerState,
    PlanPriority,
    PlanStatus,
    PlanStep,
    SessionState,
    StartFix,
    ToolCategory,
    ToolPreview,
    TurnEndReason,
    UnaskedRun,
    Usage,
)
from desktop.core.texts import CoreText

#: The events, and the values they carry (from ``event_values``), for every consumer.
__all__ = [
    "AgentChoice",
    "AgentCommand",
    "AgentExited",
    "AgentReady",
    "AlwaysRule",
    "ApprovalMode",
    "ChoiceKind",
    "ChoicesChanged",
    "CommandsChanged",
    "Decision",
    "DecisionSource",
    "ErrorEvent",
    "McpServerState",
    "McpStatus",
    "ModeChanged",
    "Notice",
    "PlanPriority",
    "PlanStatus",
    "PlanStep",
    "PlanUpdated",
    "RulesChanged",
    "SessionEvent",
    "SessionState",
    "StartFix",
    "StateChanged",
    "TextDelta",
    "ThinkingDelta",
    "ToolCancelled",
    "ToolCategory",
    "ToolDecided",
    "ToolFinished",
    "ToolOutputDelta",
    "ToolPreview",
    "ToolRequested",
    "ToolStarted",
    "TurnEndReason",
    "TurnEnded",
    "TurnStarted",
    "UnaskedRun",
    "Usage",
    "parse_event",
]


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


class ChoicesChanged(_Event):
    """The models (or agent modes) the agent offers and the current one; an empty
    ``available`` means the agent offers no choice (``current`` may still name the model)."""

    type: Literal["choices_changed"] = "choices_changed"
    kind: ChoiceKind = ChoiceKind.MODEL
    current: str | None = None
    available: list[AgentChoice] = Field(default_factory=list)


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


class RulesChanged(_Event):
    """The conversation's always-rules changed (one was made or revoked); the whole list."""

    type: Literal["rules_changed"] = "rules_changed"
    rules: list[AlwaysRule] = Field(default_factory=list)


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
