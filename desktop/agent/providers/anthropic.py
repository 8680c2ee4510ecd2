"""Anthropic Messages API through the official ``anthropic`` async client, streaming.

The SDK's own retries are off: the turn engine retries and tells the host about it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import anthropic
import httpx2

from desktop.agent.history import (
    AssistantEntry,
    Entry,
    ThinkingBlock,
    ToolCall,
    ToolResultsEntry,
    UserEntry,
)
from desktop.agent.providers.base import (
    ModelReply,
    ModelRequest,
    ProviderError,
    StreamItem,
    TextChunk,
    ThinkingChunk,
    TokenUsage,
    status_error,
)

_RETRYABLE_STREAM_ERRORS = {"overloaded_error", "api_error", "rate_limit_error", "timeout_error"}


def _content(entry: Entry) -> tuple[str, list[dict[str, Any]]]:
    if isinstance(entry, UserEntry):
        blocks: list[dict[str, Any]] = [
            {
                "type": "image",
                "source": {"type": "base64", "media_type": img.media_type, "data": img.data},
            }
            for img in entry.images
        ]
        if entry.text:
            blocks.append({"type": "text", "text": entry.text})
        return "user", blocks
    if isinstance(entry, ToolResultsEntry):
        return "user", [
            {
                "type": "tool_result",
                "tool_use_id": r.call_id,
                "content": r.output or "(no output)",
                "is_error": r.is_error,
            }
            for r in entry.results
        ]
    blocks = [
        {"type": "thinking", "thinking": t.text, "signature": t.signature}
        for t in entry.thinking
        if t.signature
    ]
    if entry.text:
        blocks.append({"type": "text", "text": entry.text})
    blocks += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": c.args} for c in entry.tool_calls
    ]
    return "assistant", blocks


def to_messages(history: list[Entry]) -> list[dict[str, Any]]:
    """Anthropic messages; consecutive entries of one role are merged (the API wants turns to
    alternate, and a stopped or failed turn can leave two user entries in a row)."""
    messages: list[dict[str, Any]] = []
    for entry in history:
        role, blocks = _content(entry)
        if not blocks:
            continue
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": role, "content": blocks})
    return messages


def _reply(message: Any) -> ModelReply:
    entry = AssistantEntry()
    for block in message.content:
        if block.type == "text":
            entry.text += block.text
        elif block.type == "thinking":
            entry.thinking.append(ThinkingBlock(text=block.thinking, signature=block.signature))
        elif block.type == "tool_use":
            args = block.input if isinstance(block.input, dict) else {}
            entry.tool_calls.append(ToolCall(id=block.id, name=block.name, args=args))
    usage = message.usage
    return ModelReply(
        message=entry,
        usage=TokenUsage(
            input_tokens=usage.input_tokens or 0,
            output_tokens=usage.output_tokens or 0,
            cache_read_tokens=usage.cache_read_input_tokens or 0,
            cache_write_tokens=usage.cache_creation_input_tokens or 0,
        ),
        stop_reason=message.stop_reason,
    )


def _translate(exc: Exception) -> ProviderError:
    if isinstance(exc, anthropic.APIStatusError):
        detail = exc.api_message or str(exc)
        if exc.status_code < 400:  # an ``error`` event inside a 200 stream
            kind = exc.type or "error"
            return ProviderError(
                f"The API reported {kind}: {detail}",
                retryable=kind in _RETRYABLE_STREAM_ERRORS,
            )
        return status_error(exc.status_code, detail, exc.response.headers)
    if isinstance(exc, anthropic.APITimeoutError):
        return ProviderError("The request timed out.", retryable=True)
    if isinstance(exc, anthropic.APIConnectionError | httpx2.TransportError):
        cause = exc.__cause__ or exc
        return ProviderError(f"Connection failed: {cause}", retryable=True)
    return ProviderError(f"{type(exc).__name__}: {exc}", retryable=False)


class AnthropicProvider:
    """Claude models over the Messages API."""

    name = "anthropic"

    def __init__(self, api_key: str, base_url: str | None, timeout: float = 600.0) -> None:
        self._client = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url, max_retries=0, timeout=timeout
        )

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamItem]:
        params: dict[str, Any] = {
            "model": request.model,
            "max_tokens": request.max_tokens,
            "messages": to_messages(request.history),
            "tools": [
                {"name": t.name, "description": t.description, "input_schema": t.schema}
                for t in request.tools
            ],
        }
        if request.system:
            params["system"] = request.system
        if request.thinking_budget:
            params["thinking"] = {"type": "enabled", "budget_tokens": request.thinking_budget}
        finished = False
        try:
            async with self._client.messages.stream(**params) as stream:
                async for event in stream:
                    if event.type == "text" and event.text:
                        yield TextChunk(event.text)
                    elif event.type == "thinking" and event.thinking:
                        yield ThinkingChunk(event.thinking)
                    elif event.type == "message_stop":
                        finished = True
                if not finished:
                    raise ProviderError(
                        "The response stream ended before the reply was complete.",
                        retryable=True,
                    )
                reply = _reply(stream.current_message_snapshot)
        except ProviderError:
            raise
        except (anthropic.AnthropicError, httpx2.TransportError) as exc:
            raise _translate(exc) from exc
        yield reply

    async def close(self) -> None:
        await self._client.close()
