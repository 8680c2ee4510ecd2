"""The agent's side of approvals: the mode, the session allow-list, and pending decisions.

The spec: ``default`` asks for everything not allow-listed, ``auto_edit`` runs ``info`` and
``edit`` tools without asking, ``yolo`` runs everything; ``scope: "always"`` allow-lists the
category of the approved call for the rest of the session.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Literal

MODES = ("default", "auto_edit", "yolo")
Mode = Literal["default", "auto_edit", "yolo"]


@dataclass(frozen=True)
class HostAnswer:
    """The host's answer to one ``tool_request``."""

    approved: bool
    always: bool = False
    reason: str = ""


@dataclass
class ApprovalPolicy:
    """Which calls need a ``tool_request``, and the futures waiting for the answers."""

    mode: Mode = "default"
    allowed: set[str] = field(default_factory=set)
    _pending: dict[str, asyncio.Future[HostAnswer]] = field(default_factory=dict)

    def needs_approval(self, category: str) -> bool:
        """True when a call of ``category`` must wait for the host."""
        if self.mode == "yolo" or category in self.allowed:
            return False
        return not (self.mode == "auto_edit" and category in ("info", "edit"))

    def expect(self, call_id: str) -> asyncio.Future[HostAnswer]:
        """A future resolved by the host's ``tool_approve``/``tool_deny`` for ``call_id``."""
        future: asyncio.Future[HostAnswer] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = future
        return future

    def decide(self, call_id: str, verdict: HostAnswer) -> bool:
        """Resolve a pending call; False if ``call_id`` is not pending (unknown or decided)."""
        future = self._pending.pop(call_id, None)
        if future is None or future.done():
            return False
        future.set_result(verdict)
        return True

    def forget(self, call_id: str) -> None:
        """Drop a pending call (its turn was stopped)."""
        future = self._pending.pop(call_id, None)
        if future is not None and not future.done():
            future.cancel()
