"""The per-conversation session engine: state machine, prompt queue, approvals, stop.

States: new → starting → ready → running ⇄ awaiting_approval → idle; stopping; exited.
Prompts sent while a turn runs wait in a host-side queue and go out when the turn ends (the real
aionrs silently drops a message that arrives mid-turn). Stop really stops: the agent is asked
first, then, if it does not confirm within a grace period, the turn is ended on its behalf and
the agent's whole process tree is ended. Pending approvals are denied before its input closes.
Two collaborators the session constructs and owns: tool requests, the approval mode and
decisions are its ``ApprovalGate``'s (``approval_gate``); the queue is its ``PromptQueue``
(``prompt_queue``), which calls back here for the agent and to run each turn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from desktop.core import session_texts as said
from desktop.core.approval_gate import ApprovalGate
from desktop.core.approvals import ApprovalBook, DecideResult
from desktop.core.backend import AgentBackend, AgentStartError, Prompt
from desktop.core.events import (
    AgentExited,
    AgentReady,
    ApprovalMode,
    Decision,
    DecisionSource,
    Notice,
    SessionEvent,
    SessionState,
    StateChanged,
    TextDelta,
    ToolCancelled,
    ToolRequested,
    ToolStarted,
    TurnEnded,
    TurnEndReason,
    TurnStarted,
    Usage,
)
from desktop.core.prompt_gates import PromptGates
from desktop.core.prompt_queue import PromptQueue
from desktop.core.signals import SignalFilter, SignalListener, SignalRelay, Unsubscribe

log = logging.getLogger(__name__)

#: Makes a backend; the argument is the agent session id to resume, if any.
BackendFactory = Callable[[str | None], AgentBackend]
Subscriber = Callable[[SessionEvent], None]

#: States in which a turn is under way (the window's Stop is enabled).
BUSY = (SessionState.RUNNING, SessionState.AWAITING_APPROVAL, SessionState.STOPPING)


#: States without a running agent.
_DOWN = (SessionState.EXITED, SessionState.NEW)


class Session:
    """One conversation with one agent (approval mode and decisions: its ``ApprovalGate``).

    Args:
        factory: Builds the backend (again after a crash or stop, with the id to resume).
        workspace: The folder the agent works in; tool previews resolve paths against it.
        mode: The initial approval mode.
        stop_grace: Seconds to wait for the agent to confirm a stop before ending it.
        shutdown_timeout: Seconds between terminate and kill when ending the agent.
    """

    def __init__(
        self,
        factory: BackendFactory,
        *,
        workspace: Path,
        mode: ApprovalMode = ApprovalMode.DEFAULT,
        stop_grace: float = 3.0,
        shutdown_timeout: float = 3.0,
        resume_id: str | None = None,
    ) -> None:
        self.workspace = workspace
        self._gate = ApprovalGate(self, workspace, mode)
        self.approvals: ApprovalBook = self._gate.book  # mode, rules, policies, pending
        self.stop_grace = stop_grace
        self.shutdown_timeout = shutdown_timeout
        self.agent_session_id = resume_id
        self.total_usage = Usage()
        self.ready_info: AgentReady | None = None
        self.state = SessionState.NEW
        self._factory = factory
        self._backend: AgentBackend | None = None
        self._subscribers: list[Subscriber] = []
        self._signals = SignalRelay()
        self._prompts = PromptQueue(
            ready=self._agent_for_prompt,
            run=self._run_turn,
            publish=self.publish,
            closed=lambda: self.closed,
        )
        self._active_turn: str | None = None
        self._turn_done = asyncio.Event()
        self._start_lock = asyncio.Lock()
        #: What a turn's prompt waits for before it goes to the agent (the checkpoint recorder).
        self.prompt_gates = PromptGates()
        self._gating: str | None = None  # the turn whose prompt the gates hold
        self._closed = False

    # ------------------------------------------------------------------ consumers

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Receive every session event; returns a function that unsubscribes."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    def subscribe_signals(
        self, listener: SignalListener, wants: SignalFilter | None = None
    ) -> Unsubscribe:
        """Receive the agent's raw signals (``AgentBackend.add_signal_listener``), from this
        session's current backend and from every backend it starts later (after a stop, crash or
        restart). ``wants`` filters by event name; returns a function that unsubscribes."""
        return self._signals.subscribe(listener, wants)

    def publish(self, event: SessionEvent) -> None:
        """Send ``event`` to every consumer (a consumer that fails is logged and skipped)."""
        for callback in tuple(self._subscribers):
            try:
                callback(event)
            except Exception:
                log.exception("a session event consumer failed on %s", event.type)

    def set_state(self, state: SessionState) -> None:
        """Move to ``state``; ``StateChanged`` is published when it changes."""
        if state != self.state:
            self.state = state
            self.publish(StateChanged(state=state))

    @property
    def mode(self) -> ApprovalMode:
        """The current approval mode."""
        return self.approvals.mode

    @property
    def agent_mode(self) -> ApprovalMode:
        """The mode the agent is told (``ApprovalGate.agent_mode``)."""
        return self._gate.agent_mode

    async def set_mode(self, mode: ApprovalMode) -> None:
        """Change the approval mode (host-side, and forwarded to the agent)."""
        await self._gate.set_mode(mode)

    def decide(
        self,
        call_id: str,
        decision: Decision,
        source: DecisionSource = DecisionSource.USER,
        *,
        source_name: str | None = None,
        reason: str | None = None,
    ) -> DecideResult:
        """Resolve a pending tool call. Only the first decision for a call counts."""
        return self._gate.decide(call_id, decision, source, source_name=source_name, reason=reason)

    def revoke_rule(self, rule_id: str) -> bool:
        """Drop an always-rule (``ApprovalGate.revoke_rule``); whether there was one."""
        return self._gate.revoke_rule(rule_id)

    def revoke_all_rules(self) -> int:
        """Drop every always-rule; returns how many there were."""
        return self._gate.revoke_all_rules()

    @property
    def factory(self) -> BackendFactory:
        """How this session starts its agent (background jobs start a sibling agent with it)."""
        return self._factory

    @property
    def backend(self) -> AgentBackend | None:
        """The live backend, if the agent has been started."""
        return self._backend

    @property
    def active_turn(self) -> str | None:
        """Id of the running turn."""
        return self._active_turn

    @property
    def closed(self) -> bool:
        """Whether ``close`` was called (the session takes no prompts and starts no agent)."""
        return self._closed

    @property
    def queued(self) -> list[Prompt]:
        """Prompts waiting for the current turn to end."""
        return self._prompts.prompts

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> AgentReady:
        """Start the agent (resuming its session when one is known).

        Raises:
            AgentStartError: with the agent's exit code and stderr tail.
        """
        async with self._start_lock:
            if self.closed:
                raise AgentStartError("the conversation was closed")
            if self._backend is not None and self.state not in _DOWN:
                assert self.ready_info is not None
                return self.ready_info
            self.set_state(SessionState.STARTING)
            backend = self._factory(self.agent_session_id)
            self._backend = backend
            self._signals.attach(backend)
            try:
                ready = await backend.start(self._on_backend_event)
            except AgentStartError as exc:
                self._signals.detach()
                self._backend = None
                self.publish(exc.event())
                self.set_state(SessionState.EXITED)
                raise
            if self._closed:  # closed while the agent started: end it, nobody will
                await self._end_backend()
                self.set_state(SessionState.EXITED)
                raise AgentStartError("the conversation was closed")
            self.ready_info = ready
            self.agent_session_id = ready.session_id or self.agent_session_id
            self.publish(ready)
            if self._gate.agent_mode != ApprovalMode.DEFAULT:
                await backend.set_mode(self._gate.agent_mode)
            self.set_state(SessionState.READY)
            return ready

    async def restart(self) -> AgentReady:
        """End the agent if it still runs and start it again, resuming its session."""
        await self._end_backend()
        return await self.start()

    async def suspend(self) -> bool:
        """End an idle agent (its memory freed); the session is ``NEW`` again and the next prompt
        starts the agent, resuming its session. False (nothing done) unless idle."""
        async with self._start_lock:  # a prompt's start waits until the agent is gone
            quiet = self.state in (SessionState.READY, SessionState.IDLE)
            idle = quiet and not self._prompts.waiting
            if self._closed or self._backend is None or not idle:
                return False
            await self._end_backend()
            self.set_state(SessionState.NEW)
            return True

    async def close(self) -> None:
        """Deny what is pending, stop the turn, end the agent. The session is unusable after."""
        self._closed = True
        self._prompts.clear()
        if self._active_turn is not None:
            await self.stop()
        self._gate.deny_all_pending(said.conversation_closed())
        await self._end_backend()
        await self._prompts.stop_pump()
        await self._gate.close()
        self._prompts.release()

    async def _end_backend(self) -> None:
        backend = self._backend
        if backend is not None and self.state != SessionState.EXITED:
            self._gate.deny_all_pending(said.agent_shutting_down())
            await self._gate.drain()
            await backend.shutdown(self.shutdown_timeout)
        self._signals.detach()
        self._backend = None

    # ------------------------------------------------------------------ prompts

    def submit(self, prompt: Prompt) -> str:
        """Queue a prompt; it is sent when the agent is free. Returns the turn id."""
        if self._closed:
            raise RuntimeError("the session is closed")
        return self._prompts.submit(prompt)

    async def wait_idle(self) -> None:
        """Wait until every queued prompt has been answered (or failed)."""
        await self._prompts.wait_idle()

    def refuse(self, prompt: Prompt, error: AgentStartError) -> str:
        """Record ``prompt`` as a turn that failed because the agent could not start: ``error``
        from a start the prompt waited for (already shown), so the agent is not started again
        for it. Returns the turn id; the turn is published just after, as ``submit``'s are."""
        return self._prompts.refuse(prompt, error)

    async def _agent_for_prompt(self) -> None:
        """The queue's next prompt needs the agent: started (again) unless it runs and takes
        prompts. Raises ``AgentStartError`` when it cannot start."""
        if self._backend is not None and not self._backend.accepts_prompts:
            await self._end_backend()  # it is quitting; resume in a fresh process
        # STARTING: a start is under way, wait for it (start() locks)
        if self._backend is None or self.state in (*_DOWN, SessionState.STARTING):
            await self.start()

    async def _run_turn(self, turn_id: str, prompt: Prompt) -> None:
        """One queued prompt's turn: published, through the prompt gates, sent; until it ends."""
        self._active_turn = turn_id
        self._turn_done.clear()
        self.publish(TurnStarted(turn_id=turn_id, prompt=prompt.text, files=list(prompt.files)))
        self.set_state(SessionState.RUNNING)
        self._gating = turn_id
        await self.prompt_gates.pass_all(turn_id)
        self._gating = None
        if self._active_turn == turn_id:  # not stopped while the gates held it
            assert self._backend is not None
            await self._backend.send_prompt(turn_id, prompt)
        await self._turn_done.wait()

    # ------------------------------------------------------------------ stop

    async def stop(self) -> None:
        """Stop the running turn: ask the agent, then end it if it does not confirm in time."""
        turn = self._active_turn
        backend = self._backend
        if turn is None or backend is None:
            return
        if self._gating == turn:  # its prompt never reached the agent: nothing to ask
            self._end_turn(TurnEnded(turn_id=turn, reason=TurnEndReason.STOPPED))
            return
        self.set_state(SessionState.STOPPING)
        self._gate.deny_all_pending(said.stopped_by_user())
        await self._gate.drain()

        async def ask() -> None:
            # Bounded as a whole: an agent that does not even take the stop request (a hung
            # app-server never answering ``turn/interrupt``) is ended like one that ignores it.
            await backend.interrupt()
            await self._turn_done.wait()

        try:
            await asyncio.wait_for(ask(), self.stop_grace)
        except TimeoutError:
            if self._active_turn == turn:
                text, stopped = said.stop_unconfirmed(), TurnEndReason.STOPPED
                self._end_turn(
                    TurnEnded(turn_id=turn, reason=stopped, message=text.english, i18n=text)
                )
            await backend.shutdown(self.shutdown_timeout)
        else:
            await backend.end_escaped()  # the agent stopped; what left its tree did not

    # ------------------------------------------------------------------ backend events

    def _on_backend_event(self, event: SessionEvent) -> None:
        if type(event) is TextDelta:  # the hot path
            self.publish(event)
        elif isinstance(event, ToolRequested):
            self._gate.on_tool_request(event)
        elif isinstance(event, ToolStarted):
            self._gate.on_tool_started(event)
        elif isinstance(event, TurnEnded):
            if event.turn_id != self._active_turn:
                log.info("ignoring turn end for %s (not the active turn)", event.turn_id)
                return
            self._end_turn(event)
        elif isinstance(event, ToolCancelled):
            self.approvals.forget(event.call_id)
            self.publish(event)
        elif isinstance(event, AgentExited):
            self._on_agent_exited(event)
        else:
            self.publish(event)

    def _end_turn(self, event: TurnEnded) -> None:
        self._gate.withdraw_pending(said.turn_ended())
        if event.usage is not None:
            self.total_usage = self.total_usage + event.usage
        self._active_turn = None
        self.publish(event)
        if self.state != SessionState.EXITED:
            self.set_state(SessionState.IDLE)
        self._turn_done.set()

    def _on_agent_exited(self, event: AgentExited) -> None:
        turn = self._active_turn
        stopping = self.state == SessionState.STOPPING
        if turn is not None:
            text = None if stopping else said.exited_during_turn(event.exit_code, event.signal)
            self._end_turn(
                TurnEnded(
                    turn_id=turn,
                    reason=TurnEndReason.STOPPED if stopping else TurnEndReason.AGENT_EXITED,
                    message=None if text is None else text.english,
                    i18n=text,
                )
            )
        self._gate.withdraw_pending(None)
        self.publish(event)
        self.set_state(SessionState.EXITED)
        self._turn_done.set()
        if not event.expected:
            text = said.stopped_unexpectedly()
            self.publish(Notice(level="warning", message=text.english, i18n=text))
