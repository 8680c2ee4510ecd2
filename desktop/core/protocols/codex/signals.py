"""Codex app-server specifics of raw signals (the signals themselves: ``desktop.core.signals``).

The extension contract names Codex app-server traffic ``app_server.<norm(method)>`` (and
``app_server.request.<norm(method)>`` for server requests).
"""

from __future__ import annotations

from typing import Any

from desktop.core.signals import RawSignal, SignalHub, SignalListener

__all__ = ["RawSignal", "SignalHub", "SignalListener", "thread_of"]


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
