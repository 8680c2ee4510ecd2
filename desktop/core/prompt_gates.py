"""What a turn's prompt waits for after the turn is published and before it reaches the agent.

The checkpoint recorder records the workspace as it was before a turn; a quick agent would
otherwise change files before that record is taken. A gate is an async function of the turn id.
Gates hold only the prompt, never the session's events, and each for a bounded time: a gate that
fails or hangs is logged and the prompt goes on, so no gate can keep a prompt from the agent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

log = logging.getLogger(__name__)

#: A prompt gate: awaited with the turn id.
Gate = Callable[[str], Awaitable[None]]


class PromptGates:
    """The gates of one session, passed in order.

    Args:
        timeout: The longest one gate may hold a prompt (seconds).
    """

    def __init__(self, timeout: float = 10.0) -> None:
        self.timeout = timeout
        self._gates: list[Gate] = []

    def append(self, gate: Gate) -> None:
        """Hold every later prompt until ``gate`` returns."""
        self._gates.append(gate)

    def extend(self, gates: Iterable[Gate]) -> None:
        """Append each of ``gates``."""
        self._gates.extend(gates)

    def remove(self, gate: Gate) -> None:
        """Stop holding prompts for ``gate`` (``ValueError`` when it is not there)."""
        self._gates.remove(gate)

    def clear(self) -> None:
        """Remove every gate."""
        self._gates.clear()

    async def pass_all(self, turn_id: str) -> None:
        """Await each gate for ``turn_id``, each for at most ``timeout`` seconds."""
        for gate in tuple(self._gates):
            try:
                await asyncio.wait_for(gate(turn_id), self.timeout)
            except TimeoutError:
                log.warning("a prompt gate took over %s s; the prompt goes on", self.timeout)
            except Exception:  # a gate that fails never keeps the prompt from the agent
                log.exception("a prompt gate failed")
