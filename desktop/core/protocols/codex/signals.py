"""Raw protocol signals for extensions: every notification and server request an agent sends.

The extension contract names Codex app-server traffic ``app_server.<norm(method)>`` (and
``app_server.request.<norm(method)>`` for server requests) and wraps it in the signal envelope of
``shared/reference/agent-runtime-sdk.md`` §6. Backends publish ``RawSignal``s to listeners added
with ``add_signal_listener``; ``RawSignal.envelope`` builds the contract's payload. ACP agents use
the same scheme with the ``acp`` prefix.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from desktop.sdk.names import signal_event_name

log = logging.getLogger(__name__)

SignalListener = Callable[["RawSignal"], None]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class RawSignal:
    """One notification or server request, as the agent sent it."""

    source: str
    signal_type: Literal["notification", "request"]
    method: str
    params: dict[str, Any] | None
    request_id: int | str | None = None
    thread_id: str | None = None
    turn_id: str | None = None
    received_at: str = field(default_factory=_now)

    @property
    def event_type(self) -> str:
        """e.g. ``app_server.turn.completed`` or ``app_server.request.item.tool.call``."""
        return signal_event_name(self.source, self.method, self.signal_type)

    def envelope(self, session: dict[str, Any] | None = None) -> dict[str, Any]:
        """The contract's payload (``session``: ``{id, title, projectId}`` or None)."""
        payload: dict[str, Any] = {
            "source": self.source,
            "signalType": self.signal_type,
            "eventType": self.event_type,
            "method": self.method,
            "receivedAt": self.received_at,
            "context": {"threadId": self.thread_id, "turnId": self.turn_id},
            "params": self.params,
            "session": session,
        }
        if self.signal_type == "request":
            payload["requestId"] = self.request_id
        return payload


def thread_of(params: dict[str, Any] | None) -> str | None:
    """``threadId``, else ``conversationId``, else ``thread.id`` (the contract's order)."""
    if not params:
        return None
    for key in ("threadId", "conversationId", "sessionId"):
        value = params.get(key)
        if isinstance(value, str) and value:
            return value
    thread = params.get("thread")
    if isinstance(thread, dict) and isinstance(thread.get("id"), str):
        return str(thread["id"])
    return None


class SignalHub:
    """The listeners of one backend; a failing listener never breaks the protocol."""

    def __init__(self) -> None:
        self._listeners: list[SignalListener] = []

    def add(self, listener: SignalListener) -> Callable[[], None]:
        """Add a listener; returns a function that removes it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def __bool__(self) -> bool:
        return bool(self._listeners)

    def publish(self, signal: RawSignal) -> None:
        """Give ``signal`` to every listener."""
        for listener in tuple(self._listeners):
            try:
                listener(signal)
            except Exception:
                log.exception("a raw signal listener failed on %s", signal.method)
