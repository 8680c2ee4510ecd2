"""The conversation, independent of any provider: what is sent to the model and saved to disk.

Providers translate these entries into their own message formats, so a session saved with one
provider can be resumed with another.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field


class Image(BaseModel):
    """An attached image, base64-encoded."""

    media_type: str
    data: str


class UserEntry(BaseModel):
    """What the user said (plus attachments)."""

    role: Literal["user"] = "user"
    text: str
    images: list[Image] = Field(default_factory=list)


class ThinkingBlock(BaseModel):
    """Reasoning text; Anthropic needs it back, signed, while tool use continues."""

    text: str
    signature: str | None = None


class ToolCall(BaseModel):
    """One tool invocation the model asked for."""

    id: str
    name: str
    args: dict[str, Any] = Field(default_factory=dict)


class AssistantEntry(BaseModel):
    """One model reply: text, reasoning and tool calls."""

    role: Literal["assistant"] = "assistant"
    text: str = ""
    thinking: list[ThinkingBlock] = Field(default_factory=list)
    tool_calls: list[ToolCall] = Field(default_factory=list)


class ToolOutcome(BaseModel):
    """What a tool call produced, as the model sees it."""

    call_id: str
    name: str
    output: str
    is_error: bool = False


class ToolResultsEntry(BaseModel):
    """The results of every tool call of the previous assistant entry, in call order."""

    role: Literal["tool"] = "tool"
    results: list[ToolOutcome]


Entry = Annotated[UserEntry | AssistantEntry | ToolResultsEntry, Field(discriminator="role")]


def dangling_calls(history: list[Entry]) -> list[ToolCall]:
    """Tool calls of the last assistant entry that have no results yet.

    A stopped turn can leave them behind; providers reject a conversation where a tool call has
    no result, so the caller answers them before the next request.
    """
    if not history or not isinstance(history[-1], AssistantEntry):
        return []
    return list(history[-1].tool_calls)
