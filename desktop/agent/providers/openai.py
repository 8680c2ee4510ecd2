"""OpenAI Chat Completions through the official ``openai`` async client, streaming.

Also the way to local OpenAI-compatible servers (Ollama, LM Studio, vLLM) with ``--base-url``.
Reasoning text, where such servers stream it (``reasoning_content`` or ``reasoning`` in the
delta), becomes ``thinking``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import openai

from desktop.agent.history import AssistantEntry, Entry, ToolCall, ToolResultsEntry, UserEntry
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

_REASONING_FIELDS = ("reasoning_content", "reasoning")


def to_messages(system: str, history: list[Entry]) -> list[dict[str, Any]]:
    """Chat Completions messages for ``history``."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for entry in history:
        if isinstance(entry, UserEntry):
            if entry.images:
                parts: list[dict[str, Any]] = [{"type": "text", "text": entry.text}]
                parts += [
                    {
                        "type": "image_url",
                        "image_url": {"url": f"data:{img.media_type};base64,{img.data}"},
                    }
                    for img in entry.images
                ]
                messages.append({"role": "user", "content": parts})
            else:
                messages.append({"role": "user", "content": entry.text})
        elif isinstance(entry, ToolResultsEntry):
            messages += [
                {"role": "tool", "tool_call_id": r.call_id, "content": r.output or "(no output)"}
                for r in entry.results
            ]
        elif isinstance(entry, AssistantEntry):
            message: dict[str, Any] = {"role": "assistant", "content": entry.text or None}
            if entry.tool_calls:
                message["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": json.dumps(c.args)},
                    }
                    for c in entry.tool_calls
                ]
            if message["content"] is None and "tool_calls" not in message:
                continue
            messages.append(message)
    return messages


class _ToolCallParts:
    """Accumulates one streamed tool call (id and name first, arguments in pieces)."""

    def __init__(self) -> None:
        self.id = ""
        self.name = ""
        self.arguments = ""

    def call(self) -> ToolCall:
        try:
            args = json.loads(self.arguments) if self.arguments.strip() else {}
        except ValueError:
            args = {"_unparsed_arguments": self.arguments}
        if not isinstance(args, dict):
            args = {"_unparsed_arguments": self.arguments}
        return ToolCall(id=self.id, name=self.name, args=args)


def _translate(exc: Exception) -> ProviderError:
    if isinstance(exc, openai.APIStatusError):
        body = exc.body
        detail = body.get("message") if isinstance(body, dict) else None
        return status_error(exc.status_code, str(detail or exc.message), exc.response.headers)
    if isinstance(exc, openai.APITimeoutError):
        return ProviderError("The request timed out.", retryable=True)
    if isinstance(exc, openai.APIConnectionError | httpx2.TransportError):
        cause = exc.__cause__ or exc
        return ProviderError(f"Connection failed: {cause}", retryable=True)
    if isinstance(exc, openai.APIError):  # an error object inside the stream
        return ProviderError(f"The API reported an error: {exc.message}", retryable=True)
    return ProviderError(f"{type(exc).__name__}: {exc}", retryable=False)


class OpenAIProvider:
    """Chat Completions models (OpenAI or any compatible server)."""

    name = "openai"

    def __init__(self, api_key: str, base_url: str | None, timeout: float = 600.0) -> None:
        self._custom_server = base_url is not None
        self._client = openai.AsyncOpenAI(
            api_key=api_key, base_url=base_url, max_retries=0, timeout=timeout
        )

    def _params(self, request: ModelRequest) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": request.model,
            "messages": to_messages(request.system, request.history),
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if request.tools:
            params["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": t.schema,
                    },
                }
                for t in request.tools
            ]
        # OpenAI's newer models reject max_tokens; local servers often know only max_tokens.
        key = "max_tokens" if self._custom_server else "max_completion_tokens"
        params[key] = request.max_tokens
        return params

    async def stream(self, request: ModelRequest) -> AsyncIterator[StreamItem]:
        entry = AssistantEntry()
        usage = TokenUsage()
        calls: dict[int, _ToolCallParts] = {}
        finish: str | None = None
        try:
            stream = await self._client.chat.completions.create(**self._params(request))
            try:
                async for chunk in stream:
                    if chunk.usage is not None:
                        details = chunk.usage.prompt_tokens_details
                        usage = TokenUsage(
                            input_tokens=chunk.usage.prompt_tokens or 0,
                            output_tokens=chunk.usage.completion_tokens or 0,
                            cache_read_tokens=(details.cached_tokens or 0) if details else 0,
                        )
                    for choice in chunk.choices:
                        delta = choice.delta
                        extra = delta.model_extra or {}
                        for name in _REASONING_FIELDS:
                            if isinstance(extra.get(name), str) and extra[name]:
                                yield ThinkingChunk(extra[name])
                        if delta.content:
                            entry.text += delta.content
                            yield TextChunk(delta.content)
                        for part in delta.tool_calls or []:
                            parts = calls.setdefault(part.index, _ToolCallParts())
                            parts.id = part.id or parts.id
                            if part.function is not None:
                                parts.name = part.function.name or parts.name
                                parts.arguments += part.function.arguments or ""
                        finish = choice.finish_reason or finish
            finally:
                await stream.close()
        except (openai.OpenAIError, httpx2.TransportError) as exc:
            raise _translate(exc) from exc
        if finish is None:
            raise ProviderError(
                "The response stream ended before the reply was complete.", retryable=True
            )
        entry.tool_calls = [calls[index].call() for index in sorted(calls)]
        yield ModelReply(message=entry, usage=usage, stop_reason=finish)

    async def close(self) -> None:
        await self._client.close()
