"""pydantic models for every line of the aionrs JSON Stream Protocol.

Spec: ``shared/seeds/003_fa068bb72b516b08.txt`` (0.1.0); real behaviour of aionrs 0.2.x:
``shared/reference/aionrs-real-behaviour.md``. Agent events allow extra fields (newer agents add
them); host commands are strict, so the built-in agent can reject malformed input with
``protocol_error`` as the spec asks.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

# --------------------------------------------------------------------------- agent → host


class _AgentEvent(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)


class ReadyCapabilities(BaseModel):
    """``ready.capabilities``: 3 fields in 0.1.0, 8 in aionrs 0.2.x; more are kept as extras."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    tool_approval: bool = True
    thinking: bool = False
    mcp: bool = False
    image_input: str | None = None
    effort: bool | None = None
    effort_levels: list[str] | None = None
    modes: list[str] | None = None
    current_mode: str | None = None


class Ready(_AgentEvent):
    type: Literal["ready"]
    version: str | None = None
    session_id: str | None = None
    capabilities: ReadyCapabilities = Field(default_factory=ReadyCapabilities)


class StreamStart(_AgentEvent):
    type: Literal["stream_start"]
    msg_id: str | None = None


class TextDeltaEvent(_AgentEvent):
    type: Literal["text_delta"]
    text: str
    msg_id: str | None = None


class Thinking(_AgentEvent):
    type: Literal["thinking"]
    text: str
    msg_id: str | None = None


class ToolInfo(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)

    name: str
    category: str = "exec"
    args: dict[str, Any] = Field(default_factory=dict)
    description: str = ""


class ToolRequest(_AgentEvent):
    type: Literal["tool_request"]
    call_id: str
    tool: ToolInfo
    msg_id: str | None = None


class ToolRunning(_AgentEvent):
    type: Literal["tool_running"]
    call_id: str
    tool_name: str = ""
    msg_id: str | None = None


class ToolResult(_AgentEvent):
    type: Literal["tool_result"]
    call_id: str
    tool_name: str = ""
    status: Literal["success", "error"] = "success"
    output: str = ""
    output_type: str = "text"
    metadata: dict[str, Any] | None = None
    msg_id: str | None = None


class ToolCancelledEvent(_AgentEvent):
    type: Literal["tool_cancelled"]
    call_id: str
    reason: str = ""
    msg_id: str | None = None


class WireUsage(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0


class StreamEnd(_AgentEvent):
    type: Literal["stream_end"]
    msg_id: str | None = None
    usage: WireUsage | None = None


class ErrorBody(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)

    code: str = "internal_error"
    message: str = ""
    retryable: bool = False


class Error(_AgentEvent):
    type: Literal["error"]
    error: ErrorBody
    msg_id: str | None = None


class Info(_AgentEvent):
    type: Literal["info"]
    message: str
    msg_id: str | None = None


class ConfigChanged(_AgentEvent):
    type: Literal["config_changed"]
    capabilities: ReadyCapabilities


class McpReady(_AgentEvent):
    type: Literal["mcp_ready"]
    name: str
    tools: list[str] = Field(default_factory=list)


class Pong(_AgentEvent):
    type: Literal["pong"]


AgentEvent = (
    Ready
    | StreamStart
    | TextDeltaEvent
    | Thinking
    | ToolRequest
    | ToolRunning
    | ToolResult
    | ToolCancelledEvent
    | StreamEnd
    | Error
    | Info
    | ConfigChanged
    | McpReady
    | Pong
)

AGENT_EVENT_MODELS: dict[str, type[AgentEvent]] = {
    "ready": Ready,
    "stream_start": StreamStart,
    "text_delta": TextDeltaEvent,
    "thinking": Thinking,
    "tool_request": ToolRequest,
    "tool_running": ToolRunning,
    "tool_result": ToolResult,
    "tool_cancelled": ToolCancelledEvent,
    "stream_end": StreamEnd,
    "error": Error,
    "info": Info,
    "config_changed": ConfigChanged,
    "mcp_ready": McpReady,
    "pong": Pong,
}
"""Agent event models by their ``type`` value."""

# --------------------------------------------------------------------------- host → agent


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    type: str


class Message(_Command):
    """``message``: real aionrs reads ``content``, the 0.1.0 spec ``input``; the host sends both."""

    type: Literal["message"] = "message"
    msg_id: str
    content: str | None = None
    input: str | None = None
    files: list[str] | None = None

    def text(self) -> str:
        """The prompt text, from whichever field the sender used."""
        return self.content if self.content is not None else (self.input or "")


class Stop(_Command):
    type: Literal["stop"] = "stop"
    msg_id: str | None = None


class ToolApprove(_Command):
    type: Literal["tool_approve"] = "tool_approve"
    call_id: str
    scope: Literal["once", "always"] = "once"


class ToolDeny(_Command):
    type: Literal["tool_deny"] = "tool_deny"
    call_id: str
    reason: str = ""


class InitHistory(_Command):
    type: Literal["init_history"] = "init_history"
    text: str


class SetMode(_Command):
    type: Literal["set_mode"] = "set_mode"
    mode: Literal["default", "auto_edit", "yolo"]


class SetConfig(_Command):
    type: Literal["set_config"] = "set_config"
    model: str | None = None
    image_input: Literal["supported", "unsupported", "unknown"] | None = None
    thinking: str | None = None
    thinking_budget: Annotated[int, Field(ge=0)] | None = None
    effort: str | None = None
    compaction: Literal["off", "safe", "full"] | None = None


class AddMcpServer(_Command):
    type: Literal["add_mcp_server"] = "add_mcp_server"
    name: str
    transport: Literal["stdio", "sse", "streamable-http"]
    command: str | None = None
    args: list[str] | None = None
    env: dict[str, str] | None = None
    url: str | None = None
    headers: dict[str, str] | None = None


class Ping(_Command):
    type: Literal["ping"] = "ping"


HostCommand = Annotated[
    Message
    | Stop
    | ToolApprove
    | ToolDeny
    | InitHistory
    | SetMode
    | SetConfig
    | AddMcpServer
    | Ping,
    Field(discriminator="type"),
]


@functools.cache
def host_command_adapter() -> TypeAdapter[HostCommand]:
    """Validator for any host command (built on first use: start-up stays fast)."""
    return TypeAdapter(HostCommand)


def encode_command(command: _Command) -> bytes:
    """One JSON line for stdin; ``None`` fields (such as empty ``files``) are omitted."""
    return command.model_dump_json(exclude_none=True).encode() + b"\n"
