"""The requests an agent waits on for the host's answer, by tool call id: one book for every
protocol whose agent blocks on an approval request (ACP's ``session/request_permission`` and
host-side writes, Codex's ``…/requestApproval``).

Each protocol keeps its own reply handle in the book (an ACP future, a Codex JSON-RPC request id)
but the rules are the same: a request is answered at most once (``take`` removes it, so a second
decision for the call finds nothing and is dropped), withdrawing it (the agent resolved it, the
turn ended, the agent is shutting down) removes it as well, and a later request with the same
call id replaces the earlier one, whose handle ``add`` returns so the adapter can answer it (the
session denies a duplicate id anyway, see ``desktop.core.approval_gate``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PendingRequests(Generic[T]):
    """Reply handles of the requests still waiting, by call id, oldest first."""

    def __init__(self) -> None:
        self._waiting: dict[str, T] = {}

    def __contains__(self, call_id: object) -> bool:
        return call_id in self._waiting

    def add(self, call_id: str, handle: T) -> T | None:
        """Hold ``handle`` until its request is answered or withdrawn; returns the handle of an
        earlier request with the same call id, which is no longer held."""
        displaced = self._waiting.pop(call_id, None)
        self._waiting[call_id] = handle
        return displaced

    def take(self, call_id: str) -> T | None:
        """The handle to answer ``call_id`` with, once (None when it is not waiting)."""
        return self._waiting.pop(call_id, None)

    def take_all(self, where: Callable[[T], bool] = lambda _handle: True) -> list[tuple[str, T]]:
        """Every waiting request (or those ``where`` selects), no longer held, oldest first."""
        taken = [(call_id, h) for call_id, h in self._waiting.items() if where(h)]
        for call_id, _handle in taken:
            del self._waiting[call_id]
        return taken
