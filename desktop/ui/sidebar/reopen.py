"""Reopening a stored conversation in its window: its end shown at once, ready to continue.

``HistoryEngine.open_stored`` hands a sidebar entry to the window's ``ConversationReopener``.
The conversation's last ``replay.TAIL`` items are read and shown in a new pane, which continues
with the agent the conversation was recorded with (its session resumed, or a summary:
``plan_resume``), never another one silently: when that agent cannot run here, the pane waits
for the user to choose (``resume.PendingAgent``, ``unavailable.AgentChoiceOffer``). The rest is
read after the pane shows (``replay.read_rest``) and the whole conversation is kept (``whole``)
for what needs all of it, a search hit's place. Two clicks on one row open one pane.

Kept apart from the engine because it is one flow with its own state (opens under way, each
reopened conversation's whole, the agent offers); the engine gives it what it needs of the list
and the recording as callables. Its notice keeps the engine's translation context.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from desktop.core.conversation import ResumeStarter
from desktop.core.events import ErrorEvent, Notice
from desktop.core.history import ConversationNotFoundError, StoredConversation, plan_resume
from desktop.ui import turn_budget
from desktop.ui.sidebar.entries import Entry
from desktop.ui.sidebar.host import HistoryWindow
from desktop.ui.sidebar.replay import TAIL, read_rest, replay
from desktop.ui.sidebar.resume import PendingAgent
from desktop.ui.sidebar.service import HistoryService
from desktop.ui.sidebar.unavailable import AgentChoiceOffer

if TYPE_CHECKING:
    from desktop.ui.pane import ConversationPane


class ConversationReopener:
    """Reopens the stored conversations of one window (see the module docstring).

    Args:
        window: The workspace window: its agents, where a pane is added and shown.
        service: The shared history service.
        record: Records a reopened pane's conversation with its agent, continuing the stored
            one (conversation id, next sequence number).
        shown: A reopened pane was shown (its sidebar row is selected).
        gone: A conversation was no longer in the history (the list is read again).
    """

    def __init__(
        self,
        window: HistoryWindow,
        service: HistoryService,
        *,
        record: Callable[[ConversationPane, str, tuple[str, int]], object],
        shown: Callable[[ConversationPane], None],
        gone: Callable[[], None],
    ) -> None:
        self.window = window
        self.service = service
        self._record = record
        self._shown = shown
        self._gone = gone
        #: Each reopened conversation, whole (once its beginning is read: ``read_rest``).
        self._whole: dict[ConversationPane, asyncio.Future[StoredConversation]] = {}
        self._offers: dict[ConversationPane, AgentChoiceOffer] = {}  # recorded agent missing
        self._opening: dict[str, asyncio.Task[ConversationPane | None]] = {}

    def whole(self, pane: ConversationPane) -> asyncio.Future[StoredConversation] | None:
        """``pane``'s whole stored conversation, done once all of it is read (None: ``pane``
        was not reopened from the history)."""
        return self._whole.get(pane)

    def forget(self, pane: ConversationPane) -> None:
        """``pane`` closes (its conversation is being deleted)."""
        self._whole.pop(pane, None)

    async def open(self, entry: Entry) -> ConversationPane | None:
        """Show a stored conversation (rebuilt from history), ready to continue."""
        conv_id = entry.conversation_id
        if entry.pane is not None or conv_id is None:
            return entry.pane
        task = self._opening.get(conv_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._open(entry, conv_id))
            self._opening[conv_id] = task
            task.add_done_callback(lambda _t: self._opening.pop(conv_id, None))
        return await asyncio.shield(task)

    async def _open(self, entry: Entry, conv_id: str) -> ConversationPane | None:
        try:
            stored, next_seq = await self.service.load(conv_id, last=TAIL)  # its end first
        except ConversationNotFoundError:
            self._gone()
            return None
        whole: asyncio.Future[StoredConversation] = asyncio.get_running_loop().create_future()
        # The conversation continues with the agent it was recorded with, never another one
        # silently: when that one cannot run here, the user chooses (``AgentChoiceOffer``).
        agents = self.window.agents
        window_agent, factory = agents.current()
        agent = stored.agent or window_agent
        if agent != window_agent:
            factory = await agents.named(agent)
        if isinstance(factory, str) and agent != window_agent:
            pending = PendingAgent(stored, whole=whole)
            pane = self.window.add_pane(stored.title, agent, pending.factory)
            pending.notify = pane.transcript.apply
            pane.conversation.starter = pending
            self._offers[pane] = AgentChoiceOffer(pane, pending, agent, factory, agents)
            pane.destroyed.connect(partial(self._offers.pop, pane, None))
            factory = pending.factory
        else:
            plan = plan_resume(stored, agent_has_sessions=True)  # its own agent
            pane = self.window.add_pane(stored.title, agent, factory, plan.resume_id)
            pane.conversation.starter = ResumeStarter(
                stored, plan, notify=pane.transcript.apply, whole=whole
            )
        pane.transcript.expect_stored()
        await pane.parts.finish()  # the pane's second step, a turn apart from each neighbour
        pane.usage = replay(pane.transcript, stored)
        pane.take_stored(pane.transcript.items)  # its cost so far, its last plan
        when = time.strftime("%d %b %Y, %H:%M", time.localtime(stored.updated_at)).lstrip("0")
        pane.transcript.apply(
            Notice(
                message=QCoreApplication.translate(
                    "HistoryEngine",
                    "Saved conversation (last active {when}). A new prompt continues it.",
                ).format(when=when)
            )
        )
        if isinstance(factory, str):
            pane.transcript.apply(ErrorEvent(code="agent_not_found", message=factory))
        self._record(pane, agent, (conv_id, next_seq))
        # Shown in the next turn (its first polish, layout and paint: 6-10 ms): that turn is its.
        turn_budget.claim_next(turn_budget.TURN_BUDGET_S)
        await asyncio.sleep(0)
        self._whole[pane] = whole
        entry.pane = pane
        self.window.show_pane(pane)
        self._shown(pane)
        pane.scope.spawn(read_rest(self.service, pane, stored, whole), name="history-rest")
        return pane
