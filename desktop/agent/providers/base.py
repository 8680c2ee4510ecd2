"""The provider interface: one streamed model request in, text/thinking chunks and one final
reply out. Providers raise ``ProviderError`` for every API failure, marked retryable or not, so
the turn engine alone decides about retries and what the host is told."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from desktop.agent.history import AssistantEntry, Entry

RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the model is told about it."""

    name: str
    description: str
    schema: dict[str, Any]


@dataclass(frozen=True)
class ModelRequest:
    """Everything one model call needs."""

    model: str
    system: str
    history: list[Entry]
    tools: list[ToolSpec]
    max_tokens: int
    thinking_budget: int | None = None


@dataclass
class TokenUsage:
    """Token counts in the protocol's terms."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def add(self, other: TokenUsage) -> None:
        """Add ``other`` into this one (a turn makes several model calls)."""
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cache_read_tokens += other.cache_read_tokens
        self.cache_write_tokens += other.cache_write_tokens


@dataclass(frozen=True)
class TextChunk:
    text: str


@dataclass(frozen=True)
class ThinkingChunk:
    text: str


@dataclass(frozen=True)
class ModelReply:
    """The complete reply; always the last item of a stream."""

    message: AssistantEntry
    usage: TokenUsage = field(default_factory=TokenUsage)
    stop_reason: str | None = None


StreamItem = TextChunk | ThinkingChunk | ModelReply


class ProviderError(Exception):
    """A failed model request.

    Args:
        message: For the user (never contains the API key).
        retryable: Worth trying again (rate limit, overload, server error, dropped stream).
        status: HTTP status, when there was one.
        retry_after: Seconds the server asked to wait, when it said.
    """

    def __init__(
        self,
        message: str,
        *,
        retryable: bool,
        status: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after


def retry_after_seconds(headers: Any) -> float | None:
    """The ``retry-after`` header in seconds, if present and numeric."""
    try:
        value = headers.get("retry-after") if headers is not None else None
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def status_error(status: int, detail: str, headers: Any = None) -> ProviderError:
    """A ``ProviderError`` for an HTTP error response."""
    hint = {
        401: "authentication failed; check the API key",
        403: "permission denied",
        404: "not found; check the model name and base URL",
        429: "rate limited",
    }.get(status, "server error" if status >= 500 else "request rejected")
    return ProviderError(
        f"HTTP {status} ({hint}): {detail}",
        retryable=status in RETRYABLE_STATUS,
        status=status,
        retry_after=retry_after_seconds(headers),
    )


class Provider(Protocol):
    """A model API."""

    name: str

    def stream(self, request: ModelRequest) -> AsyncIterator[StreamItem]:
        """Stream one reply; the last item is a ``ModelReply``.

        Raises:
            ProviderError: the request failed or the stream broke off.
        """
        ...

    async def close(self) -> None:
        """Release connections."""
        ...
