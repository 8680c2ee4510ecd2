"""The tool cards of an ACP turn: tool-call updates and permission requests → tool events.

An ACP agent announces a tool call in pieces (``tool_call``, ``tool_call_update``s, the
``toolCall`` of ``session/request_permission``) and asks for permission by waiting on a request;
host-side file writes (``fs/write_text_file``) wait for approval the same way. ``ToolCards``
turns these into ``tool_requested`` / ``tool_started`` / ``tool_finished`` / ``tool_cancelled``
for the host turn, holds each waiting request until the session's decision arrives, and forgets
the turn's calls when it ends. Fields of one call are merged by ``tools.ToolState``; waiting
requests are held in the shared ``PendingRequests`` book.
"""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

from desktop.core import session_texts as said
from desktop.core.backend import EmitFn
from desktop.core.events import (
    Decision,
    SessionEvent,
    ToolCancelled,
    ToolCategory,
    ToolFinished,
    ToolPreview,
    ToolRequested,
    ToolStarted,
)
from desktop.core.protocols.acp.tools import ToolState, pick_option
from desktop.core.protocols.pending import PendingRequests
from desktop.core.texts import CoreText

_DONE = ("completed", "failed")


def _discard(_event: SessionEvent) -> None:
    """Where events go before the backend is started."""


class ToolCards:
    """Tool calls and waiting approvals of the running turn (``turn`` is the host's turn id)."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.emit: EmitFn = _discard
        self.turn: str | None = None
        self._tools: dict[str, ToolState] = {}
        self._shown: set[str] = set()
        self._running: set[str] = set()
        self._waiting: PendingRequests[asyncio.Future[Decision]] = PendingRequests()
        self._write_ids = itertools.count(1)
        self._terminal_ids = itertools.count(1)
        #: Calls the user denied: they end as cancelled, whatever the agent reports later.
        self._denied: set[str] = set()

    # ------------------------------------------------------------------ approvals

    async def ask_permission(
        self, tool_call: dict[str, Any], options: list[dict[str, Any]]
    ) -> str | None:
        """Show a pending card; the agent's option id for the decision, or None (cancelled)."""
        call_id = str(tool_call.get("toolCallId"))
        state = self._tools.setdefault(call_id, ToolState(call_id))
        state.merge(tool_call)
        waiting = self._wait_for(call_id)
        self._shown.add(call_id)
        self.emit(
            ToolRequested(
                turn_id=self.turn,
                call_id=call_id,
                name=state.name,
                category=state.category,
                args={"input": state.raw_input, "options": options},
                description=state.title,
                pending=True,
                preview=state.preview(self.workspace),
                offers_reject_always=any(o.get("kind") == "reject_always" for o in options),
            )
        )
        try:
            decision = await waiting
        except asyncio.CancelledError:
            return None
        if decision.denies:
            self._denied.add(call_id)
        return pick_option(options, decision)

    async def ask_write(self, path: str, content: str, preview: ToolPreview) -> str | None:
        """Show a pending ``write_file`` card; its call id if approved, None if denied."""
        call_id = f"fs-write-{next(self._write_ids)}"
        args: dict[str, object] = {"file_path": path, "content": content}
        edit = ToolCategory.EDIT
        return await self._ask(call_id, "write_file", edit, args, f"Write {path}", preview)

    async def ask_terminal(self, command: str, preview: ToolPreview) -> str | None:
        """Show a pending command card for ``terminal/create`` (an exec tool like any other:
        modes, rules and the shell deny list apply); its call id if approved, None if denied."""
        call_id = f"terminal-{next(self._terminal_ids)}"
        args: dict[str, object] = {"command": command, "cwd": preview.cwd}
        run = ToolCategory.EXEC
        return await self._ask(call_id, "terminal", run, args, f"Run {command}", preview)

    async def _ask(
        self,
        call_id: str,
        name: str,
        category: ToolCategory,
        args: dict[str, object],
        description: str,
        preview: ToolPreview,
    ) -> str | None:
        """A pending card for a request the client itself carries out: ``call_id`` once
        approved, None once denied (or when the wait is cancelled)."""
        waiting = self._wait_for(call_id)
        self.emit(
            ToolRequested(
                turn_id=self.turn,
                call_id=call_id,
                name=name,
                category=category,
                args=args,
                description=description,
                pending=True,
                preview=preview,
            )
        )
        try:
            decision = await waiting
        except asyncio.CancelledError:
            decision = Decision.DENY
        return None if decision.denies else call_id

    def written(self, call_id: str, path: str, preview: ToolPreview) -> None:
        """An approved host-side write is done."""
        self.emit(
            ToolFinished(
                turn_id=self.turn,
                call_id=call_id,
                name="write_file",
                status="success",
                output=f"Wrote {path}",
                output_type="diff",
                diff=preview.text,
                file_path=preview.paths[0],
            )
        )

    def decide(self, call_id: str, decision: Decision) -> None:
        """Resolve the waiting permission request (or pending host-side write)."""
        waiting = self._waiting.take(call_id)
        if waiting is not None and not waiting.done():
            waiting.set_result(decision)

    def withdraw_all(self, reason: CoreText) -> None:
        """Cancel every waiting request (the agent is answered ``cancelled``)."""
        for call_id, future in self._waiting.take_all():
            if not future.done():
                future.cancel()
            self.emit(
                ToolCancelled(
                    turn_id=self.turn, call_id=call_id, reason=reason.english, i18n=reason
                )
            )

    def end_turn(self) -> str | None:
        """Withdraw what still waits, forget the turn's calls; returns the turn that ended."""
        turn = self.turn
        if turn is None:
            return None
        self.withdraw_all(said.turn_ended())
        for call_id in sorted(self._denied):  # agents whose "reject" ends the whole turn
            self.emit(ToolCancelled(turn_id=turn, call_id=call_id, reason="denied"))
        self.turn = None
        self._tools.clear()
        self._shown.clear()
        self._running.clear()
        self._denied.clear()
        return turn

    def _wait_for(self, call_id: str) -> asyncio.Future[Decision]:
        """Register the request before its card goes out (a decision may follow at once)."""
        future: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
        displaced = self._waiting.add(call_id, future)
        if displaced is not None and not displaced.done():
            displaced.set_result(Decision.DENY)  # an ambiguous id is never approved
        return future

    # ------------------------------------------------------------------ tool-call updates

    def update(self, data: dict[str, Any]) -> None:
        """One ``tool_call`` / ``tool_call_update``."""
        call_id = str(data.get("toolCallId"))
        state = self._tools.setdefault(call_id, ToolState(call_id))
        state.merge(data)
        if state.status == "pending":
            return  # a permission request or a status change shows it
        if call_id in self._waiting:
            return
        if call_id in self._denied:
            if state.status in _DONE:
                self._denied.discard(call_id)
                self.emit(ToolCancelled(turn_id=self.turn, call_id=call_id, reason="denied"))
            return
        self._show(state)
        if call_id not in self._running:
            self._running.add(call_id)
            self.emit(
                ToolStarted(
                    turn_id=self.turn, call_id=call_id, name=state.name, category=state.category
                )
            )
        if state.status in _DONE:
            self._finished(state)

    def _show(self, state: ToolState) -> None:
        if state.call_id in self._shown:
            return
        self._shown.add(state.call_id)
        self.emit(
            ToolRequested(
                turn_id=self.turn,
                call_id=state.call_id,
                name=state.name,
                category=state.category,
                args={"input": state.raw_input},
                description=state.title,
                pending=False,
                preview=state.preview(self.workspace),
            )
        )

    def _finished(self, state: ToolState) -> None:
        preview = state.preview(self.workspace) if state.diffs() else None
        self.emit(
            ToolFinished(
                turn_id=self.turn,
                call_id=state.call_id,
                name=state.name,
                status="success" if state.status == "completed" else "error",
                output=state.output_text(),
                output_type="diff" if preview else "text",
                diff=preview.text if preview else None,
                file_path=preview.paths[0] if preview and preview.paths else None,
            )
        )
        self._tools.pop(state.call_id, None)
