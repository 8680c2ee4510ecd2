"""``CheckpointRecorder``: the checkpoint collaborator of a conversation (``Conversation``).

It follows the session's events and records the workspace: ``TURN_BEFORE`` when a turn starts,
``TURN_AFTER`` when it ends, and ``TOOL_BEFORE``/``TOOL_AFTER`` around each tool call that may
change files (an edit, a command, or one the host cannot classify). Recording is blocking work
(hashing files), so it runs in a worker thread, one record at a time and in the order the events
came: the loop never waits and the session's events are never held back, and a turn's
``TURN_AFTER`` is recorded after the tool records queued before it. One thing waits: the turn's
prompt goes to the agent once ``TURN_BEFORE`` is recorded (the session's ``prompt_gates``,
bounded), so the agent's first edits cannot land in the state before the turn. Nothing runs
before the first turn (an idle window does no checkpoint work). While a turn runs the store
refuses restores. The first checkpoint that cannot be taken completely (the workspace is gone, a
file cannot be read, the disk is full) publishes one ``Notice`` into the session; the turn goes
on.

The window and ``exec`` build it the same way (``CheckpointRecorder.open``, then
``Conversation.checkpoint``); a new window conversation has no id until its first prompt, so the
id may be given as a function that is asked when a turn starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from desktop.core.checkpoints.errors import incomplete_notice, not_recorded
from desktop.core.checkpoints.model import Checkpoint, CheckpointKind
from desktop.core.checkpoints.store import CheckpointError, CheckpointStore
from desktop.core.events import (
    Notice,
    SessionEvent,
    ToolCategory,
    ToolFinished,
    ToolStarted,
    TurnEnded,
    TurnStarted,
)
from desktop.core.paths import app_paths
from desktop.core.session import Session
from desktop.core.settings.models import CheckpointSettings
from desktop.core.settings.store import SettingsStore

log = logging.getLogger(__name__)

#: Tool calls that cannot change files: no checkpoints around them.
_READ_ONLY = frozenset({ToolCategory.INFO})

CheckpointListener = Callable[[Checkpoint], None]

#: How long a turn's first record waits for the conversation's id (polls x seconds).
_ID_POLLS, _ID_POLL_SECONDS = 60, 0.05


@dataclass(frozen=True)
class _Job:
    kind: CheckpointKind
    turn_id: str
    call_id: str | None = None


class CheckpointRecorder:
    """Records a conversation's checkpoints in ``store``.

    Args:
        store: The workspace's checkpoint store.
        conversation_id: The conversation's id, or a function giving it (None: not known yet;
            the turn is then not recorded).
        first_turn: The number of the first turn recorded (a continued conversation goes on
            counting after the turns the store already has, whichever is higher).
    """

    def __init__(
        self,
        store: CheckpointStore,
        conversation_id: str | Callable[[], str | None],
        first_turn: int = 1,
    ) -> None:
        self.store = store
        self._conversation_id = conversation_id
        self._next_turn = first_turn
        self._counted = False
        self._numbers: dict[str, int] = {}
        self._conversations: dict[str, str] = {}
        self._listeners: list[CheckpointListener] = []
        self._session: Session | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._queue: asyncio.Queue[_Job | None] | None = None
        self._worker: asyncio.Task[None] | None = None
        self._preparing: asyncio.Task[None] | None = None
        self._told = False
        self._tool_calls: set[str] = set()
        self._last_turn_id = ""
        self._befores: dict[str, asyncio.Event] = {}

    @classmethod
    def open(
        cls,
        workspace: Path,
        conversation_id: str | Callable[[], str | None],
        *,
        data_dir: Path | None = None,
        settings: CheckpointSettings | None = None,
    ) -> CheckpointRecorder:
        """The recorder of a conversation in ``workspace``, with the store under ``data_dir``
        (default: the app's data folder) and the limits of ``settings`` (default: the saved
        settings). Cheap: the store's repository is opened by the first record, in the worker
        thread."""
        if settings is None:
            settings = SettingsStore().settings.checkpoints
        store = CheckpointStore.open(
            workspace,
            data_dir if data_dir is not None else app_paths().data,
            size_limit=int(settings.size_limit_mb * 2**20),
            budget=int(settings.disk_budget_gb * 2**30),
        )
        return cls(store, conversation_id)

    @property
    def conversation_id(self) -> str | None:
        """The conversation's id (None until it is known)."""
        if isinstance(self._conversation_id, str):
            return self._conversation_id
        return self._conversation_id()

    def add_listener(self, listener: CheckpointListener) -> None:
        """Call ``listener`` on the loop with each checkpoint recorded."""
        self._listeners.append(listener)

    def turn_of(self, turn_id: str) -> int | None:
        """The number of the session's turn ``turn_id`` (None: not recorded, or not yet)."""
        return self._numbers.get(turn_id)

    def attach(self, session: Session) -> None:
        """Record around ``session``'s turns from now on."""
        if self._unsubscribe is not None:
            return
        self._session = session
        self._queue = asyncio.Queue()
        self._unsubscribe = session.subscribe(self._on_event)
        session.prompt_gates.append(self._before_recorded)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # attached outside a loop: the first record brings the index up to date
        # Once, in the background: bring the store's index up to date now, so the first
        # prompt's checkpoint is incremental (a first snapshot of a large tree takes seconds).
        self._preparing = loop.create_task(asyncio.to_thread(self.store.prepare), name="prepare")

    def _start_worker(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._worker is None and self._queue is not None:
            self._worker = loop.create_task(self._work(self._queue), name="checkpoints")

    def detach(self) -> None:
        """Stop following the session; what is queued is still recorded (``drain`` waits)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
            self.store.set_running(self._key(), False)
            if self._session is not None:
                with contextlib.suppress(ValueError):
                    self._session.prompt_gates.remove(self._before_recorded)
        for waiting in self._befores.values():
            waiting.set()
        if self._queue is not None:
            self._queue.put_nowait(None)
            self._queue = None

    async def drain(self) -> None:
        """Detach and wait until every queued checkpoint is recorded."""
        self.detach()
        if self._worker is not None:
            await asyncio.shield(self._worker)

    def _on_event(self, event: SessionEvent) -> None:
        queue = self._queue
        if queue is None:
            return
        if self._worker is None:
            if not isinstance(event, TurnStarted):
                return  # nothing before the first turn: an idle window does no work
            try:
                self._start_worker(asyncio.get_running_loop())
            except RuntimeError:
                return  # published outside a loop (a test's hand-made event): nothing to record
        match event:
            case TurnStarted():
                self.store.set_running(self._key(), True)
                self._befores[event.turn_id] = asyncio.Event()
                queue.put_nowait(_Job(CheckpointKind.TURN_BEFORE, event.turn_id))
            case ToolStarted() if event.category not in _READ_ONLY:
                self._tool_calls.add(event.call_id)
                job = _Job(CheckpointKind.TOOL_BEFORE, event.turn_id or "", event.call_id)
                queue.put_nowait(job)
            case ToolFinished() if event.call_id in self._tool_calls:
                self._tool_calls.discard(event.call_id)
                job = _Job(CheckpointKind.TOOL_AFTER, event.turn_id or "", event.call_id)
                queue.put_nowait(job)
            case TurnEnded():
                self._tool_calls.clear()
                queue.put_nowait(_Job(CheckpointKind.TURN_AFTER, event.turn_id))
            case _:
                return  # no other event changes what is recorded

    async def _before_recorded(self, turn_id: str) -> None:
        """The session's prompt gate: the turn's prompt goes to the agent once the workspace's
        state before it is recorded (so the agent's first edits are not in it)."""
        waiting = self._befores.get(turn_id)
        if waiting is not None:
            await waiting.wait()

    async def _known_id(self) -> str | None:
        """The conversation's id, waiting a little for a new window conversation's (its row is
        written when the history database is open, which may be just after the first prompt)."""
        for _ in range(_ID_POLLS):
            conversation = self.conversation_id
            if conversation is not None:
                return conversation
            await asyncio.sleep(_ID_POLL_SECONDS)
        return self.conversation_id

    def _key(self) -> str:
        return self.conversation_id or ""

    async def _work(self, queue: asyncio.Queue[_Job | None]) -> None:
        while (job := await queue.get()) is not None:
            try:
                await self._run(job)
            except Exception:  # a consumer that fails never breaks the session
                log.exception("checkpoint %s of turn %s failed", job.kind, job.turn_id)
            finally:
                if job.kind is CheckpointKind.TURN_BEFORE:
                    waiting = self._befores.pop(job.turn_id, None)
                    if waiting is not None:
                        waiting.set()

    async def _run(self, job: _Job) -> None:
        if job.kind is CheckpointKind.TURN_BEFORE:
            conversation = await self._known_id()
            if conversation is None:
                log.info("turn %s not recorded: its conversation has no id yet", job.turn_id)
                return
            if not self._counted:
                self._counted = True
                turns = await asyncio.to_thread(self.store.turns, conversation)
                self._next_turn = max(self._next_turn, max(turns, default=0) + 1)
            self._numbers[job.turn_id] = self._next_turn
            self._last_turn_id = job.turn_id
            self._conversations[job.turn_id] = conversation
            self._next_turn += 1
        turn_id = job.turn_id or self._last_turn_id
        turn = self._numbers.get(turn_id)
        conversation = self._conversations.get(turn_id)
        if turn is None or conversation is None:
            if job.kind is CheckpointKind.TURN_AFTER:
                self.store.set_running("", False)
            return
        try:
            checkpoint = await asyncio.to_thread(
                self.store.record, conversation, turn, job.kind, job.call_id
            )
        except CheckpointError as exc:  # the store itself cannot be opened
            log.warning("checkpoint of %s not taken: %s", self.store.workspace, exc)
            checkpoint = Checkpoint(
                id="", conversation_id=conversation, turn=turn, kind=job.kind, created=0.0,
                call_id=job.call_id, problem=exc.message,
            )  # fmt: skip
        if job.kind is CheckpointKind.TURN_AFTER:
            self.store.set_running(conversation, False)
            self.store.set_running("", False)  # a turn started before its id was known
        if checkpoint.problem is not None and not self._told and self._session is not None:
            self._told = True
            told = incomplete_notice(checkpoint.problem_text or not_recorded())
            self._session.publish(Notice(level="warning", message=told.english, i18n=told))
        for listener in tuple(self._listeners):
            try:
                listener(checkpoint)
            except Exception:  # a listener that fails is logged and skipped
                log.exception("a checkpoint listener failed")
