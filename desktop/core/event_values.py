"""The closed sets and value models the session events carry: approval modes, tool
categories, decisions, turn and session states, usage, previews, plan steps, agent choices and
commands, start fixes, always-rules, MCP server states.

They live below ``desktop.core.events`` (which re-exports them, so consumers import everything
from there) so that the event module holds only the events and their union.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from desktop.core.start_problem import StartProblem


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


class AgentCommand(BaseModel):
    """One slash command the agent offers (ACP ``available_commands_update``): its name
    without the ``/``, what it does, and a hint for its input when it takes one."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str
    description: str = ""
    hint: str | None = None


class StartFix(BaseModel):
    """What the user can do about an agent that cannot start: the typed cause, what it is about
    (``subject``: a profile or program name), the agent that failed and, for a missing key, the
    provider type of the profile."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    problem: StartProblem
    subject: str = ""
    agent: str = ""
    provider: str | None = None


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


class McpServerState(StrEnum):
    """Where one MCP server of a conversation stands."""

    STARTING = "starting"
    CONNECTED = "connected"
    #: Passed to an agent that starts it itself and does not report back (ACP, Codex).
    PASSED = "passed"
    FAILED = "failed"
    #: It was connected and stopped working mid-session.
    STOPPED = "stopped"
