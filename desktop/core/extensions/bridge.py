"""Connect one ``Session`` to the extension runtime.

The bridge turns session events into the contract's events and executes what extensions ask
for on this conversation:

- ``file_change.approval_requested`` for every pending edit approval (host diff in the payload);
- ``tool.approval_requested`` for every pending tool approval (an Agent Desk addition, so
  policies such as "auto-approve reads" work the same for every protocol);
- ``turn.completed`` when a turn completes (``hadFileChangeRequests`` says whether it edited);
- ``suggest_request.requested`` when the composer calls ``suggest_next_prompt``;
- every raw agent signal the backend publishes (``desktop.core.signals``), in the contract's
  signal envelope: ``app_server.<norm(method)>`` / ``app_server.request.<norm(method)>`` for
  Codex app-server, ``acp.*`` for ACP agents, ``aionrs.<event type>`` for aionrs agents. The
  bridge subscribes through ``Session.subscribe_signals`` (so a restarted backend is followed)
  and only for names some extension handles, so unobserved signals cost nothing.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from desktop.core.approvals import DecideResult
from desktop.core.backend import Prompt
from desktop.core.events import (
    Decision,
    DecisionSource,
    SessionEvent,
    ToolCategory,
    ToolRequested,
    TurnEnded,
    TurnEndReason,
    TurnStarted,
)
from desktop.core.extensions.executor import TranscriptEntry
from desktop.core.extensions.registry import Snapshot
from desktop.core.session import BackendFactory, Session, Subscriber
from desktop.core.signals import RawSignal
from desktop.core.transcript import Transcript
from desktop.sdk.types import AgentRuntimeEvent, JsonDict

log = logging.getLogger(__name__)

USER_REQUEST_LIMIT = 8_000
TRANSCRIPT_LIMIT = 24_000

#: Receives (session id, entry, extension name) when an extension posts into the conversation.
TranscriptListener = Callable[[str, TranscriptEntry, str], None]


class ExtensionEvents(Protocol):
    """What a bridge needs of the extension runtime that attaches it (``ExtensionRuntime``,
    declared here so the bridge does not import the runtime that imports it)."""

    @property
    def snapshot(self) -> Snapshot:
        """The loaded extensions, to ask whether any handles an event."""
        ...

    async def emit(self, event: AgentRuntimeEvent) -> list[JsonDict]:
        """Dispatch one event; one result per handler."""
        ...


class SessionBridge:
    """One attached conversation (``SessionTarget`` for the action executor)."""

    def __init__(
        self,
        runtime: ExtensionEvents,
        session: Session,
        *,
        agent_factory: BackendFactory | None,
        session_id: str | None = None,
        title: str | None = None,
    ) -> None:
        self.runtime = runtime
        self.session = session
        self.agent_factory = agent_factory
        self.session_id = session_id or uuid.uuid4().hex
        self.title = title
        self.project_id = str(Path(session.workspace).resolve())
        self.transcript: dict[str, tuple[TranscriptEntry, str]] = {}
        self._listeners: list[TranscriptListener] = []
        self._inflight: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        #: The conversation's transcript: prompts and replies of its turns, for extensions.
        self._transcript = Transcript()
        self._turn_edits: dict[str, int] = {}
        self._unsubscribe = session.subscribe(self._on_event)
        self._unsubscribe_signals = session.subscribe_signals(self._on_signal, self._wants_signal)

    # ------------------------------------------------------------------ public

    def on_transcript(self, listener: TranscriptListener) -> Callable[[], None]:
        """Be told when an extension adds or updates a conversation entry."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def defer(self, callback: Subscriber) -> Subscriber:
        """Wrap a session subscriber so it sees a pending tool request only after extensions
        had their say, and only if the request is still pending then.

        ``agentdesk exec --on-request`` uses this so an extension decides before the blanket
        rule. Subscribe the returned function after this bridge was attached.
        """

        def deferred(event: SessionEvent) -> None:
            if not isinstance(event, ToolRequested) or not event.pending:
                callback(event)
                return
            task = self._inflight.get(event.call_id)
            if task is None or task.done():
                callback(event)
                return

            def after(_: asyncio.Task[None]) -> None:
                if self.session.approvals.is_pending(event.call_id):
                    callback(event)

            task.add_done_callback(after)

        return deferred

    async def suggest_next_prompt(self, draft: str | None = None) -> JsonDict:
        """Emit ``suggest_request.requested`` (the composer's "Suggest next prompt").

        Returns:
            ``{requestKey, results, winner}``; ``winner`` is the enqueue result of the job
            that will produce the suggestion, or ``None`` (the contract's ``job_conflict``).
        """
        from desktop.sdk.helpers import select_enqueue_winner

        turn_id = self._transcript.last_turn()
        key = uuid.uuid4().hex
        payload: JsonDict = {
            "requestKey": key,
            "sessionId": self.session_id,
            "projectId": self.project_id,
            "threadId": self.session_id,
            "turnId": turn_id,
            "userRequest": self._transcript.prompt(turn_id)[:USER_REQUEST_LIMIT],
            "turnTranscript": self._transcript_text(turn_id),
        }
        if draft:
            payload["draft"] = draft
        results = await self.runtime.emit({"type": "suggest_request.requested", "payload": payload})
        winner = select_enqueue_winner(results)
        return {"requestKey": key, "results": results, "winner": winner}

    def background_factory(self) -> BackendFactory | None:
        """How to start the same agent for background jobs.

        Falls back to the session's own factory when none was given at attach time (Session
        has no public accessor for it yet).
        """
        if self.agent_factory is not None:
            return self.agent_factory
        factory: BackendFactory | None = getattr(self.session, "_factory", None)
        return factory

    def close(self) -> None:
        """Stop listening to the session."""
        self._unsubscribe()
        self._unsubscribe_signals()

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait for the emits this bridge started (tests and exec use it before exiting)."""
        if self._tasks:
            await asyncio.wait(tuple(self._tasks), timeout=timeout)

    # ------------------------------------------------------------------ SessionTarget

    def pending_approval_turn(self, approval_id: str) -> tuple[bool, str | None]:
        """Whether ``approval_id`` waits for a decision here, and its turn."""
        for request in self.session.approvals.pending:
            if request.call_id == approval_id:
                return True, request.turn_id
        return False, None

    def decide(
        self, approval_id: str, accept: bool, always: bool, module: str, reason: str | None
    ) -> bool:
        """Resolve an approval on behalf of extension ``module``."""
        decision = (Decision.ALWAYS if always else Decision.ONCE) if accept else Decision.DENY
        result = self.session.decide(
            approval_id, decision, DecisionSource.EXTENSION, source_name=module, reason=reason
        )
        return result == DecideResult.ACCEPTED

    def active_turn(self) -> str | None:
        """The running turn."""
        return self.session.active_turn

    def upsert_transcript(self, entry: TranscriptEntry, module: str) -> None:
        """Add or update an entry; a complete entry survives a late error/canceled update."""
        from desktop.core.extensions.policy import keep_existing_entry, normalize_details

        existing = self.transcript.get(entry.messageId)
        if existing is not None and keep_existing_entry(existing[0].status, entry.status):
            return
        stored = entry.model_copy(update={"details": normalize_details(entry.details)})
        self.transcript[entry.messageId] = (stored, module)
        for listener in tuple(self._listeners):
            try:
                listener(self.session_id, stored, module)
            except Exception:
                log.exception("a transcript listener failed")

    def steer(self, text: str) -> JsonDict:
        """aionrs agents cannot take input mid-turn, so the text is queued as the next prompt."""
        turn_id = self.session.submit(Prompt(text))
        return {"queued": True, "steered": False, "turnId": turn_id}

    # ------------------------------------------------------------------ events

    def _transcript_text(self, turn_id: str | None) -> str:
        return self._transcript.turn_text(turn_id)[-TRANSCRIPT_LIMIT:]

    def _context(self, turn_id: str | None) -> JsonDict:
        return {
            "projectId": self.project_id,
            "sourceSessionId": self.session_id,
            "threadId": self.session_id,
            "turnId": turn_id,
        }

    def _spawn(self, events: list[AgentRuntimeEvent], call_id: str | None = None) -> None:
        async def run() -> None:
            for event in events:
                try:
                    await self.runtime.emit(event)
                except Exception:
                    log.exception("dispatching %s failed", event["type"])

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if call_id is not None:
            self._inflight[call_id] = task
            task.add_done_callback(lambda _: self._inflight.pop(call_id, None))

    def _on_event(self, event: SessionEvent) -> None:
        self._transcript.apply(event)
        if isinstance(event, TurnStarted):
            self._turn_edits[event.turn_id] = 0
        events: list[AgentRuntimeEvent] = []
        call_id = None
        if isinstance(event, ToolRequested) and event.pending:
            call_id = event.call_id
            events += self._approval_events(event)
        if isinstance(event, TurnEnded) and event.reason == TurnEndReason.COMPLETED:
            events.append(self._turn_completed(event))
        if events:
            self._spawn(events, call_id)
        if isinstance(event, TurnEnded) and len(self._turn_edits) > 8:
            self._turn_edits.pop(next(iter(self._turn_edits)))  # the last few turns are enough

    def _approval_events(self, event: ToolRequested) -> list[AgentRuntimeEvent]:
        snapshot = self.runtime.snapshot
        turn_id = event.turn_id
        preview: JsonDict | None = None
        if event.preview is not None:
            preview = {
                "kind": event.preview.kind,
                "text": event.preview.text,
                "cwd": event.preview.cwd,
                "paths": list(event.preview.paths),
                "outsideWorkspace": event.preview.outside_workspace,
                "newFile": event.preview.new_file,
            }
        context = {**self._context(turn_id), "itemId": event.call_id, "approvalId": event.call_id}
        tool = {
            "name": event.name,
            "category": event.category.value,
            "args": event.args,
            "description": event.description,
        }
        events: list[AgentRuntimeEvent] = []
        if event.category == ToolCategory.EDIT:
            if turn_id in self._turn_edits:
                self._turn_edits[turn_id] += 1
            if snapshot.has_handlers("file_change.approval_requested"):
                diff = preview["text"] if preview and preview["kind"] == "diff" else ""
                payload: JsonDict = {
                    "context": {
                        **context,
                        "anchorItemId": event.call_id,
                        "userRequest": self._transcript.prompt(turn_id)[:USER_REQUEST_LIMIT],
                        "turnTranscript": self._transcript_text(turn_id),
                    },
                    "summary": " ".join([event.name, *(preview["paths"] if preview else [])]),
                    "details": {"diff": diff, "preview": preview, "tool": tool},
                    "sourceEvent": "approval_request",
                    "fileChangeStatus": "pending_approval",
                }
                events.append({"type": "file_change.approval_requested", "payload": payload})
        if snapshot.has_handlers("tool.approval_requested"):
            payload = {"context": context, "tool": tool, "preview": preview}
            events.append({"type": "tool.approval_requested", "payload": payload})
        return events

    def _turn_completed(self, event: TurnEnded) -> AgentRuntimeEvent:
        edits = self._turn_edits.get(event.turn_id, 0)
        payload: JsonDict = {
            "context": {
                **self._context(event.turn_id),
                "userRequest": self._transcript.prompt(event.turn_id)[:USER_REQUEST_LIMIT],
            },
            "hadFileChangeRequests": edits > 0,
            "fileChangeRequestCount": edits,
            "turnTranscriptSnapshot": self._transcript_text(event.turn_id),
        }
        return {"type": "turn.completed", "payload": payload}

    def _wants_signal(self, name: str) -> bool:
        return self.runtime.snapshot.has_handlers(name)

    def _on_signal(self, signal: RawSignal) -> None:
        """Dispatch a raw signal in the contract's envelope.

        In the contract a session *is* the agent's thread; here the conversation (this bridge's
        ``session_id``) outlives agent threads and turns have host ids. So ``context`` names the
        conversation and the host turn, as every other event of this bridge does, which keeps
        action scope checks working; the agent's own ids stay in ``agentThreadId`` /
        ``agentTurnId`` (and in ``params``).
        """
        session = {"id": self.session_id, "title": self.title, "projectId": self.project_id}
        payload = signal.envelope(session)
        payload["context"] = {
            "threadId": self.session_id,
            "turnId": self.session.active_turn,
            "agentThreadId": signal.thread_id,
            "agentTurnId": signal.turn_id,
        }
        self._spawn([{"type": signal.event_type, "payload": payload}])
