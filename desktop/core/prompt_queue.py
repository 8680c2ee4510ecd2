"""The session's host-side prompt queue: prompts wait here while a turn runs, then go in order.

The real aionrs silently drops a message that arrives mid-turn, so a ``Session`` never sends one
while a turn runs: ``submit`` queues the prompt under a new turn id and one pump task sends the
queued prompts one turn at a time. Kept apart from the session because the queue has its own
rules: prompts leave in the order they came, the queue is idle (``wait_idle``) only when every
prompt was answered or failed, and when the agent cannot start every waiting prompt becomes a
turn that failed saying why, so none is lost silently. The session gives the queue what it needs
as callables (``ready``: the agent for the next prompt; ``run``: one turn, until it ends;
``publish``; ``closed``); the queue knows nothing else of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections import deque
from collections.abc import Awaitable, Callable

from desktop.core import session_texts as said
from desktop.core.backend import AgentStartError, Prompt
from desktop.core.events import SessionEvent, TurnEnded, TurnEndReason, TurnStarted
from desktop.core.texts import CoreText


class PromptQueue:
    """The prompts of one session waiting for their turn.

    Args:
        ready: Makes the agent ready for the next prompt (starting it if it is down); raises
            ``AgentStartError`` when it cannot start.
        run: Runs one turn (turn id, prompt) and returns when the turn has ended.
        publish: Sends an event to the session's consumers (the turns that failed).
        closed: Whether the session was closed (no prompt goes out after).
    """

    def __init__(
        self,
        *,
        ready: Callable[[], Awaitable[None]],
        run: Callable[[str, Prompt], Awaitable[None]],
        publish: Callable[[SessionEvent], None],
        closed: Callable[[], bool],
    ) -> None:
        self._ready = ready
        self._run = run
        self._publish = publish
        self._closed = closed
        self._queue: deque[tuple[str, Prompt]] = deque()
        self._idle = asyncio.Event()
        self._idle.set()
        self._pump_task: asyncio.Task[None] | None = None

    @property
    def prompts(self) -> list[Prompt]:
        """The prompts waiting, in the order they go out."""
        return [prompt for _, prompt in self._queue]

    @property
    def waiting(self) -> bool:
        """Whether any prompt waits."""
        return bool(self._queue)

    def submit(self, prompt: Prompt) -> str:
        """Queue ``prompt``; it is sent when the agent is free. Returns the turn id."""
        turn_id = uuid.uuid4().hex[:12]
        self._queue.append((turn_id, prompt))
        self._idle.clear()
        if self._pump_task is None or self._pump_task.done():
            self._pump_task = asyncio.get_running_loop().create_task(self._pump())
        return turn_id

    def refuse(self, prompt: Prompt, error: AgentStartError) -> str:
        """Record ``prompt`` as a turn that failed with ``error`` (the agent could not start),
        published just after, as ``submit``'s turns are. Returns the turn id."""
        turn_id = uuid.uuid4().hex[:12]
        text = said.could_not_start(error.text or error.message)
        asyncio.get_running_loop().call_soon(self._fail_turn, turn_id, prompt, text)
        return turn_id

    def clear(self) -> None:
        """Drop every waiting prompt (the session closes)."""
        self._queue.clear()

    async def wait_idle(self) -> None:
        """Wait until every queued prompt has been answered (or failed)."""
        await self._idle.wait()

    async def stop_pump(self) -> None:
        """Cancel the pump task, if any, and wait until it is gone."""
        if self._pump_task is not None:
            self._pump_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump_task

    def release(self) -> None:
        """Wake every ``wait_idle`` (the session closed: nothing more is answered)."""
        self._idle.set()

    async def _pump(self) -> None:
        while self._queue and not self._closed():
            try:
                await self._ready()
            except AgentStartError as exc:
                self._fail_all(said.could_not_start(exc.text or exc.message))
                break
            turn_id, prompt = self._queue.popleft()
            await self._run(turn_id, prompt)
        if not self._queue:
            self._idle.set()

    def _fail_all(self, text: CoreText) -> None:
        while self._queue:
            self._fail_turn(*self._queue.popleft(), text)
        self._idle.set()

    def _fail_turn(self, turn_id: str, prompt: Prompt, text: CoreText) -> None:
        self._publish(TurnStarted(turn_id=turn_id, prompt=prompt.text, files=list(prompt.files)))
        self._publish(
            TurnEnded(turn_id=turn_id, reason=TurnEndReason.ERROR, message=text.english, i18n=text)
        )
