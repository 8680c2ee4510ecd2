"""The tool calls of one model reply: requests, approvals in any order, execution, results.

Every call that needs approval is requested at once (``tool_request``), before any runs; each
then waits for its own answer, so the host may decide them in any order. Read-only tools run
side by side; tools that change files or run commands take turns (in the order approved), so
two edits of one file never race. A ``stop`` cancels the waiting and the running alike, and
every call that did not finish gets ``tool_cancelled``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from desktop.agent.approvals import ApprovalPolicy
from desktop.agent.history import ToolCall, ToolOutcome
from desktop.agent.tools.base import Tool, ToolContext, ToolFailure, ToolOutput, truncate
from desktop.core.protocols.aionrs import wire

STOPPED = "Stopped by the user"


def cancelled_outcome(call: ToolCall) -> ToolOutcome:
    """What the model is told about a call that a ``stop`` cut short."""
    return ToolOutcome(
        call_id=call.id,
        name=call.name,
        output="The user stopped the turn before this tool call finished.",
        is_error=True,
    )


class ToolRunner:
    """Runs tool calls for a turn, talking to the host through ``send``."""

    def __init__(
        self,
        tools: dict[str, Tool[Any]],
        ctx: ToolContext,
        policy: ApprovalPolicy,
        send: Callable[[BaseModel], None],
    ) -> None:
        self._tools = tools
        self._ctx = ctx
        self._policy = policy
        self._send = send
        self._serial = asyncio.Lock()

    async def run(
        self, msg_id: str, calls: list[ToolCall], outcomes: dict[str, ToolOutcome]
    ) -> None:
        """Run ``calls``, filling ``outcomes`` by call id as each one ends."""
        jobs: list[tuple[ToolCall, Tool[Any] | None, BaseModel | str, asyncio.Future[Any] | None]]
        jobs = []
        used: set[str] = set()
        for call in calls:
            if call.id in used:
                # A reused id: a decision for it could reach the wrong call (issue 14, item 1).
                self._send(
                    wire.Info(
                        type="info",
                        msg_id=msg_id,
                        message=f"Skipped {call.name}: the model reused the call id {call.id!r}.",
                    )
                )
                continue
            used.add(call.id)
            tool, parsed = self._prepare(call)
            verdict: asyncio.Future[Any] | None = None
            ready = tool is not None and not isinstance(parsed, str)
            if ready and tool is not None and self._policy.needs_approval(tool.category):
                verdict = self._policy.expect(call.id)
                self._send(
                    wire.ToolRequest(
                        type="tool_request",
                        msg_id=msg_id,
                        call_id=call.id,
                        tool=wire.ToolInfo(
                            name=tool.name,
                            category=tool.category,
                            args=call.args,
                            description=tool.summary(parsed, self._ctx),
                        ),
                    )
                )
            jobs.append((call, tool, parsed, verdict))
        async with asyncio.TaskGroup() as group:
            for call, tool, parsed, verdict in jobs:
                group.create_task(self._one(msg_id, call, tool, parsed, verdict, outcomes))

    def _prepare(self, call: ToolCall) -> tuple[Tool[Any] | None, BaseModel | str]:
        """The tool and its parsed arguments, or the error the model should see instead."""
        tool = self._tools.get(call.name)
        if tool is None:
            return None, f"There is no tool named {call.name!r}; use one of {sorted(self._tools)}."
        try:
            args = tool.parse(call.args)
            tool.check(args, self._ctx)
        except ToolFailure as exc:
            return tool, str(exc)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                for e in exc.errors()
            )
            return tool, f"Invalid arguments for {tool.name}: {problems}"
        return tool, args

    async def _one(
        self,
        msg_id: str,
        call: ToolCall,
        tool: Tool[Any] | None,
        parsed: BaseModel | str,
        verdict: asyncio.Future[Any] | None,
        outcomes: dict[str, ToolOutcome],
    ) -> None:
        try:
            if verdict is not None:
                answer = await verdict
                if not answer.approved:
                    reason = answer.reason or "Denied by the user"
                    self._send(
                        wire.ToolCancelledEvent(
                            type="tool_cancelled", msg_id=msg_id, call_id=call.id, reason=reason
                        )
                    )
                    outcomes[call.id] = ToolOutcome(
                        call_id=call.id,
                        name=call.name,
                        output=f"The user denied this tool call. Reason: {reason}",
                        is_error=True,
                    )
                    return
                if answer.always and tool is not None:
                    self._policy.allowed.add(tool.category)
            serial = tool is not None and tool.category != "info"
            async with self._serial if serial else contextlib.nullcontext():
                self._send(
                    wire.ToolRunning(
                        type="tool_running", msg_id=msg_id, call_id=call.id, tool_name=call.name
                    )
                )
                output = await self._execute(tool, parsed)
            self._send(
                wire.ToolResult(
                    type="tool_result",
                    msg_id=msg_id,
                    call_id=call.id,
                    tool_name=call.name,
                    status="error" if output.is_error else "success",
                    output=output.output,
                    output_type=output.output_type,
                    metadata=output.metadata,
                )
            )
            outcomes[call.id] = ToolOutcome(
                call_id=call.id, name=call.name, output=output.output, is_error=output.is_error
            )
        except asyncio.CancelledError:
            self._policy.forget(call.id)
            if call.id not in outcomes:
                self._send(
                    wire.ToolCancelledEvent(
                        type="tool_cancelled", msg_id=msg_id, call_id=call.id, reason=STOPPED
                    )
                )
            raise

    async def _execute(self, tool: Tool[Any] | None, parsed: BaseModel | str) -> ToolOutput:
        if tool is None or isinstance(parsed, str):
            return ToolOutput(str(parsed), is_error=True)
        try:
            result = await tool.run(parsed, self._ctx)
        except ToolFailure as exc:
            return ToolOutput(str(exc), is_error=True)
        except (OSError, UnicodeError, ValueError) as exc:
            return ToolOutput(f"{tool.name} failed: {exc}", is_error=True)
        if len(result.output) <= self._ctx.output_cap:
            return result
        return ToolOutput(
            truncate(result.output, self._ctx.output_cap),
            result.is_error,
            result.output_type,
            result.metadata,
        )
