"""Run the handlers of one event in contract order and normalise what they return.

Handlers run one after another: priority, module name, registration index. Each gets fresh
tools that stop working when it returns or times out. A handler that raises or runs too long
becomes a ``handler_error`` and the others still run. Coroutine handlers are cancelled on
timeout (trap T8); plain functions run in a daemon thread, so one that blocks forever cannot
freeze the window or keep ``agentdesk exec`` from exiting (the thread is abandoned).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import inspect
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from desktop.core.extensions.policy import Scope, TrustMode, action_allowed, scope_from_payload
from desktop.core.extensions.registry import HandlerRegistration, LoadedModule, Snapshot
from desktop.sdk.helpers import (
    is_action_request,
    summarize_action_reconciliation,
    timeout_error_text,
    to_agent_event_emit_result,
    to_agent_event_handler_error,
)
from desktop.sdk.types import MISSING, AgentRuntimeEvent, JsonDict

log = logging.getLogger(__name__)

INACTIVE_MESSAGE = "agent handler invocation is no longer active"
DIRECT_RESULT_MESSAGE = (
    "handlers must return kind=action_request so runtime can execute and reconcile actions"
)

#: Executes one action request for a module, within a scope; returns an action result.
ExecuteAction = Callable[[JsonDict, LoadedModule, Scope | None], Awaitable[Any]]


class DispatchHost(Protocol):
    """What the dispatcher needs from the runtime."""

    trust_mode: TrustMode

    async def enqueue_job(self, module: LoadedModule, job: Any, scope: Scope | None) -> JsonDict:
        """Enqueue on behalf of ``module`` (capability and scope checked)."""
        ...

    def session_settings(self, session_id: str) -> JsonDict:
        """The extension-side settings of a session (a deep copy)."""
        ...


class ModuleLogger:
    """``logger.info({...}, "message")`` for handlers, into the ``agentdesk.extensions`` log."""

    def __init__(self, module_name: str) -> None:
        self._log = logging.getLogger(f"agentdesk.extensions.{module_name}")

    def _write(self, level: int, record: Any, message: str | None) -> None:
        self._log.log(level, "%s %s", message or "", record)

    def debug(self, record: JsonDict, message: str | None = None) -> None:
        self._write(logging.DEBUG, record, message)

    def info(self, record: JsonDict, message: str | None = None) -> None:
        self._write(logging.INFO, record, message)

    def warn(self, record: JsonDict, message: str | None = None) -> None:
        self._write(logging.WARNING, record, message)

    def error(self, record: JsonDict, message: str | None = None) -> None:
        self._write(logging.ERROR, record, message)


class InvocationTools:
    """The tools of one handler invocation; closed when the invocation ends."""

    def __init__(self, host: DispatchHost, module: LoadedModule, scope: Scope | None) -> None:
        self._host = host
        self._module = module
        self._scope = scope
        self._open = True
        self.logger = ModuleLogger(module.name)

    def close(self) -> None:
        """Make every later call raise (a timed-out handler must not act)."""
        self._open = False

    def _check(self) -> None:
        if not self._open:
            raise RuntimeError(INACTIVE_MESSAGE)

    async def enqueue_job(self, job: Any) -> JsonDict:
        """Enqueue a job; see ``AgentRuntimeTools.enqueue_job``."""
        self._check()
        return await self._host.enqueue_job(self._module, job, self._scope)

    def get_session_settings(self, session_id: str) -> JsonDict:
        """A deep copy of the session's extension settings."""
        self._check()
        return self._host.session_settings(session_id)

    def get_session_setting(self, session_id: str, key: str) -> Any:
        """A deep copy of one top-level setting, or ``MISSING``."""
        self._check()
        return self._host.session_settings(session_id).get(key, MISSING)


def _is_async_callable(handler: Any) -> bool:
    return inspect.iscoroutinefunction(handler) or inspect.iscoroutinefunction(
        getattr(handler, "__call__", None)  # noqa: B004 - async callable objects
    )


def _run_in_thread(fn: Callable[[], Any]) -> asyncio.Future[Any]:
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    def target() -> None:
        try:
            value = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
            loop.call_soon_threadsafe(settle, None, exc)
        else:
            with contextlib.suppress(RuntimeError):  # the loop closed while the handler ran
                loop.call_soon_threadsafe(settle, value, None)

    threading.Thread(target=target, name="extension-handler", daemon=True).start()
    return future


async def _call_handler(reg: HandlerRegistration, event: AgentRuntimeEvent, tools: Any) -> Any:
    if _is_async_callable(reg.handler):
        result = reg.handler(event, tools)
    else:
        result = await _run_in_thread(lambda: reg.handler(event, tools))
    if inspect.isawaitable(result):
        result = await result
    return result


class Dispatcher:
    """Emits events to the handlers of a snapshot."""

    def __init__(self, host: DispatchHost, *, action_timeout_s: float = 30.0) -> None:
        self._host = host
        self._action_timeout_s = action_timeout_s

    async def emit(
        self,
        snapshot: Snapshot,
        event: AgentRuntimeEvent,
        execute_action: ExecuteAction | None = None,
    ) -> list[JsonDict]:
        """Run the handlers of ``event["type"]`` and return one result per handler."""
        handlers = snapshot.handlers_for(event["type"])
        if not handlers:
            return []
        scope = scope_from_payload(event.get("payload"))
        winner: JsonDict | None = None
        results: list[JsonDict] = []
        for reg in handlers:
            module = snapshot.module(reg.module_name)
            if module is None:
                continue
            result = await self._run_one(reg, module, event, scope, execute_action, winner)
            result["moduleName"] = module.name  # never trust a module-supplied name (T4)
            if (
                winner is None
                and result.get("kind") == "action_result"
                and result.get("status") == "performed"
            ):
                winner = result
            results.append(result)
        if winner is not None or any(r.get("kind") == "action_result" for r in results):
            log.debug("%s: %s", event["type"], summarize_action_reconciliation(results))
        return results

    async def _run_one(
        self,
        reg: HandlerRegistration,
        module: LoadedModule,
        event: AgentRuntimeEvent,
        scope: Scope | None,
        execute_action: ExecuteAction | None,
        winner: JsonDict | None,
    ) -> JsonDict:
        tools = InvocationTools(self._host, module, scope)
        task = asyncio.ensure_future(_call_handler(reg, copy.deepcopy(event), tools))
        try:
            done, _ = await asyncio.wait({task}, timeout=reg.timeout_ms / 1000)
            if not done:
                tools.close()
                task.cancel()
                return to_agent_event_handler_error(
                    module.name, reg.event_type, timeout_error_text(reg.timeout_ms)
                )
            raw = task.result()
        except Exception as exc:  # noqa: BLE001 - a failing extension must not stop the others
            return to_agent_event_handler_error(module.name, reg.event_type, exc)
        finally:
            tools.close()
        if isinstance(raw, dict) and raw.get("kind") == "action_request":
            return await self._action(raw, module, scope, execute_action, winner)
        result = to_agent_event_emit_result(module.name, reg.event_type, raw)
        if result["kind"] == "action_result":
            details = dict(result.get("details") or {})
            details.update(code="direct_action_result_disallowed", message=DIRECT_RESULT_MESSAGE)
            result = {**result, "status": "invalid", "details": details}
        return result

    async def _action(
        self,
        request: JsonDict,
        module: LoadedModule,
        scope: Scope | None,
        execute_action: ExecuteAction | None,
        winner: JsonDict | None,
    ) -> JsonDict:
        action_type = request.get("actionType")
        result: JsonDict = {
            "kind": "action_result",
            "moduleName": module.name,
            "actionType": action_type if isinstance(action_type, str) else "unknown",
        }
        for key in ("requestId", "idempotencyKey"):
            if isinstance(request.get(key), str):
                result[key] = request[key]
        if not is_action_request(request):
            # Upstream turns this into a silent handler_result (trap T13).
            details: JsonDict = {
                "message": "action request envelope is invalid",
                "issues": ["payload"],
            }
            return {**result, "status": "invalid", "details": details}
        if winner is not None:
            details = {
                "code": "action_winner_already_selected",
                "winnerModuleName": winner.get("moduleName"),
                "winnerActionType": winner.get("actionType"),
            }
            return {**result, "status": "not_eligible", "details": details}
        allowed, reason = action_allowed(
            self._host.trust_mode, module.manifest.capabilities, request["actionType"]
        )
        if not allowed:
            details = {"code": "undeclared_capability", "reason": reason}
            return {**result, "status": "forbidden", "details": details}
        if reason:
            log.warning("extension %s: %s", module.name, reason)
        if execute_action is None:
            return {
                **result,
                "status": "failed",
                "details": {"code": "action_executor_unavailable"},
            }
        try:
            executed = await asyncio.wait_for(
                execute_action(request, module, scope), self._action_timeout_s
            )
        except TimeoutError:  # upstream has no limit (trap T6)
            return {**result, "status": "failed", "details": {"code": "action_timeout"}}
        except Exception as exc:
            log.exception("executing %s for %s failed", action_type, module.name)
            details = {"code": "action_executor_error", "message": str(exc)}
            return {**result, "status": "failed", "details": details}
        normalized = to_agent_event_emit_result(module.name, "", executed)
        if normalized["kind"] != "action_result":
            return {**result, "status": "failed", "details": {"code": "invalid_action_result"}}
        merged = {**normalized, **{k: v for k, v in result.items() if k != "actionType"}}
        merged["actionType"] = normalized["actionType"]
        return merged
