"""One turn: a user message through model calls and tool calls to ``stream_end``.

The turn loops (model reply → tools → model reply …) until the model stops asking for tools or
``--max-turns`` model calls were made. Retryable provider failures are retried with exponential
backoff and announced with ``info``; a final failure is an ``error`` (``provider_error``) and the
turn still ends with ``stream_end``, so the conversation can go on. A ``stop`` cancels the task
running ``run``; the turn then records what it had, and ends the stream the same way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from pydantic import BaseModel

from desktop.agent.channel import error_event
from desktop.agent.history import AssistantEntry, Entry, ToolOutcome, ToolResultsEntry, UserEntry
from desktop.agent.providers.base import (
    ModelReply,
    ModelRequest,
    Provider,
    ProviderError,
    TextChunk,
    ThinkingChunk,
    TokenUsage,
    ToolSpec,
)
from desktop.agent.settings import SessionSettings
from desktop.agent.toolrun import ToolRunner, cancelled_outcome
from desktop.core.protocols.aionrs import wire

log = logging.getLogger(__name__)

_MAX_RETRY_DELAY = 30.0


class TurnEngine:
    """Runs turns against one conversation (``history`` is shared with the session store)."""

    def __init__(
        self,
        settings: SessionSettings,
        provider: Callable[[], Awaitable[Provider]],
        runner: ToolRunner,
        tool_specs: list[ToolSpec],
        send: Callable[[BaseModel], None],
        save: Callable[[], None],
    ) -> None:
        self._settings = settings
        self._provider = provider
        self._runner = runner
        self._tool_specs = tool_specs
        self._send = send
        self._save = save
        self.history: list[Entry] = []
        self.context: str | None = None

    async def run(self, msg_id: str, user: UserEntry) -> None:
        """The whole turn; never raises (a stop is the normal way to cut it short)."""
        self._send(wire.StreamStart(type="stream_start", msg_id=msg_id))
        usage = TokenUsage()
        self.history.append(user)
        try:
            await self._loop(msg_id, usage)
        except asyncio.CancelledError:
            log.info("turn %s stopped", msg_id)
        except Exception as exc:
            log.exception("turn %s failed", msg_id)
            self._send(error_event("internal_error", f"Internal error: {exc}", msg_id=msg_id))
        self._send(
            wire.StreamEnd(
                type="stream_end",
                msg_id=msg_id,
                usage=wire.WireUsage(
                    input_tokens=usage.input_tokens,
                    output_tokens=usage.output_tokens,
                    cache_read_tokens=usage.cache_read_tokens,
                    cache_write_tokens=usage.cache_write_tokens,
                ),
            )
        )
        try:
            self._save()
        except OSError as exc:
            self._send(error_event("internal_error", f"Cannot save the session: {exc}"))

    async def _loop(self, msg_id: str, usage: TokenUsage) -> None:
        for _ in range(self._settings.max_turns):
            reply = await self._call_model(msg_id, usage)
            if reply is None:
                return
            self.history.append(reply.message)
            calls = reply.message.tool_calls
            if not calls:
                return
            outcomes: dict[str, ToolOutcome] = {}
            try:
                await self._runner.run(msg_id, calls, outcomes)
            finally:
                results = [outcomes.get(c.id) or cancelled_outcome(c) for c in calls]
                self.history.append(ToolResultsEntry(results=results))
        self._send(
            wire.Info(
                type="info",
                msg_id=msg_id,
                message=f"Stopped after {self._settings.max_turns} model calls (--max-turns).",
            )
        )

    def _request(self) -> ModelRequest:
        s = self._settings
        return ModelRequest(
            model=s.model,
            system=s.system_text(self.context),
            history=list(self.history),
            tools=self._tool_specs,
            max_tokens=s.max_tokens,
            thinking_budget=s.thinking_budget,
        )

    async def _call_model(self, msg_id: str, usage: TokenUsage) -> ModelReply | None:
        """One model reply, streamed to the host; None after a final failure (reported)."""
        attempt = 0
        while True:
            partial = AssistantEntry()
            try:
                provider = await self._provider()
                async for item in provider.stream(self._request()):
                    if isinstance(item, TextChunk):
                        partial.text += item.text
                        self._send(
                            wire.TextDeltaEvent(type="text_delta", msg_id=msg_id, text=item.text)
                        )
                    elif isinstance(item, ThinkingChunk):
                        self._send(wire.Thinking(type="thinking", msg_id=msg_id, text=item.text))
                    else:
                        usage.add(item.usage)
                        return item
                raise ProviderError("The provider sent no reply.", retryable=True)
            except asyncio.CancelledError:
                if partial.text:
                    self.history.append(partial)
                raise
            except ProviderError as exc:
                if not exc.retryable or attempt >= self._settings.retries:
                    self._send(
                        error_event(
                            "provider_error", exc.message, msg_id=msg_id, retryable=exc.retryable
                        )
                    )
                    return None
                attempt += 1
                delay = self._settings.retry_base * 2 ** (attempt - 1)
                if exc.retry_after is not None:
                    delay = max(delay, min(exc.retry_after, _MAX_RETRY_DELAY))
                self._send(
                    wire.Info(
                        type="info",
                        msg_id=msg_id,
                        message=f"{exc.message} Retrying in {delay:.1f} s "
                        f"({attempt}/{self._settings.retries})…",
                    )
                )
                await asyncio.sleep(delay)
