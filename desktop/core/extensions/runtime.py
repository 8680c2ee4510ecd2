"""The extension runtime: one loaded snapshot, its dispatcher, executor and job queue.

Built once by the composition root (the window's ``AppContext`` or ``agentdesk exec``) and
attached to each conversation with ``attach``. ``reload`` swaps the snapshot atomically and keeps
the old one when the new set fails; emits that already started keep the snapshot they began
with.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import os
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from desktop.core.extensions.agent_job import AGENT_INSTRUCTION, run_agent_instruction
from desktop.core.extensions.bridge import SessionBridge
from desktop.core.extensions.dispatcher import Dispatcher, ModuleLogger
from desktop.core.extensions.executor import ActionExecutor, SessionTarget
from desktop.core.extensions.jobs import JobQueue, JobQueueError
from desktop.core.extensions.loader import (
    TRUST_MODE_ENV,
    ExtensionLoader,
    ExtensionSources,
    LoadReport,
)
from desktop.core.extensions.policy import Scope, TrustMode, action_allowed, scope_from_payload
from desktop.core.extensions.registry import (
    JobTypeRegistration,
    LoadedModule,
    Snapshot,
    commit_modules,
)
from desktop.core.extensions.trust import TRUST_FILE, TrustStore
from desktop.core.paths import app_paths
from desktop.core.session import BackendFactory, Session
from desktop.sdk.types import AgentRuntimeEvent, AgentRuntimeLogger, JsonDict

log = logging.getLogger(__name__)

HOST_MODULE = "agentdesk"
MAX_INTENTS = 32


class _JobContext:
    """What a job handler receives (``AgentJobContext``)."""

    def __init__(self, runtime: ExtensionRuntime, job: JsonDict, module: str) -> None:
        self.job = job
        self.payload: JsonDict = job.get("payload") or {}
        self.logger: AgentRuntimeLogger = ModuleLogger(module)
        self._runtime = runtime

    async def run_agent(self, prompt: str, *, timeout_s: float = 300.0) -> str:
        """Run ``prompt`` on a background agent in the job's workspace."""
        bridge = self._runtime.bridge_for(self.job.get("sourceSessionId"), self.job["projectId"])
        factory = bridge.background_factory() if bridge is not None else None
        if bridge is None or factory is None:
            raise RuntimeError(f"no agent is attached for project {self.job['projectId']}")
        return await run_agent_instruction(
            factory, Path(bridge.project_id), prompt, timeout_s=timeout_s
        )


async def _agent_instruction(ctx: Any) -> JsonDict:
    prompt = ctx.payload.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError("agent_instruction needs a prompt")
    timeout = ctx.payload.get("timeoutMs")
    seconds = timeout / 1000 if isinstance(timeout, int | float) and timeout > 0 else 300.0
    return {"text": await ctx.run_agent(prompt, timeout_s=seconds)}


BUILTIN_JOB_TYPES = (
    JobTypeRegistration(
        job_type=AGENT_INSTRUCTION,
        handler=_agent_instruction,
        module_name=HOST_MODULE,
        dedupe="single_flight",
    ),
)


class ExtensionRuntime:
    """Loads extensions, dispatches events to them and executes what they request.

    Args:
        loader: Finds and imports extensions.
        db_path: SQLite file of the job queue (normally the history database).
        job_concurrency: Jobs that run at the same time.
    """

    def __init__(self, loader: ExtensionLoader, db_path: Path, *, job_concurrency: int = 2) -> None:
        self.loader = loader
        self.trust_mode: TrustMode = loader.trust_mode
        self.snapshot = Snapshot()
        self.report = LoadReport()
        self.jobs = JobQueue(db_path, self._run_job, concurrency=job_concurrency)
        self.executor = ActionExecutor(self, trust_mode=self.trust_mode)
        self._dispatcher = Dispatcher(self)
        self._bridges: list[SessionBridge] = []
        self._settings: dict[str, JsonDict] = {}
        self._reloading = False

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> LoadReport:
        """Load extensions (keeping the ones that load) and start the job queue."""
        report = self.loader.load()
        self._install(report)
        await self.jobs.start()
        return report

    async def close(self) -> None:
        """Detach every session and stop the job queue."""
        for bridge in tuple(self._bridges):
            bridge.close()
        self._bridges.clear()
        await self.jobs.close()

    def _install(self, report: LoadReport) -> None:
        modules = commit_modules(report.loaded)
        stamp = datetime.now(UTC).isoformat(timespec="milliseconds")
        self.snapshot = Snapshot(modules=modules, loaded_at=stamp)
        self.report = report
        reserved = {t.job_type for t in BUILTIN_JOB_TYPES}
        types = list(BUILTIN_JOB_TYPES)
        types += [t for m in modules for t in m.job_types if t.job_type not in reserved]
        self.jobs.set_types(types)

    async def reload(self, reload_id: str | None = None) -> JsonDict:
        """Load again; on any failure keep the current snapshot (extensions waiting for trust
        are not failures)."""
        if self._reloading:
            return {"status": "error", "code": "reload_in_progress"}
        self._reloading = True
        try:
            report = await asyncio.to_thread(self.loader.load)
        finally:
            self._reloading = False
        errors = [f for f in report.failures if f.code != "trust_required"]
        if errors:
            return {
                "status": "error",
                "code": "reload_failed",
                "message": "extension reload failed; prior snapshot preserved",
                "snapshotVersion": self.snapshot.version,
                "errors": [
                    {"extension": f.extension, "code": f.code, "message": f.message} for f in errors
                ],
            }
        self._install(report)
        return {
            "status": "ok",
            "reloadId": reload_id or uuid.uuid4().hex,
            "loadedCount": len(self.snapshot.modules),
            "failedCount": 0,
            "snapshotVersion": self.snapshot.version,
            "loadedAt": self.snapshot.loaded_at,
            "modules": [
                {
                    "name": m.name,
                    "version": m.manifest.version,
                    "agentId": m.manifest.agent_id,
                    "events": m.events,
                }
                for m in self.snapshot.modules
            ],
        }

    # ------------------------------------------------------------------ sessions

    def attach(
        self,
        session: Session,
        *,
        agent_factory: BackendFactory | None = None,
        session_id: str | None = None,
        title: str | None = None,
    ) -> SessionBridge:
        """Connect a conversation; ``agent_factory`` lets background jobs run the same agent."""
        bridge = SessionBridge(
            self, session, agent_factory=agent_factory, session_id=session_id, title=title
        )
        self._bridges.append(bridge)
        return bridge

    def detach(self, bridge: SessionBridge) -> None:
        """Disconnect a conversation."""
        bridge.close()
        if bridge in self._bridges:
            self._bridges.remove(bridge)

    def sessions(self) -> list[SessionTarget]:
        """Attached conversations (``ActionHost``)."""
        return list(self._bridges)

    def bridge_for(self, session_id: str | None, project_id: str | None) -> SessionBridge | None:
        """The bridge of ``session_id``, else any bridge of ``project_id``."""
        by_id = next((b for b in self._bridges if b.session_id == session_id), None)
        if by_id is not None:
            return by_id
        return next((b for b in self._bridges if b.project_id == project_id), None)

    def set_session_settings(self, session_id: str, settings: JsonDict) -> None:
        """Replace the extension-side settings of a session."""
        self._settings[session_id] = copy.deepcopy(settings)

    def session_settings(self, session_id: str) -> JsonDict:
        """A deep copy of the session's settings (``DispatchHost``)."""
        return copy.deepcopy(self._settings.get(session_id, {}))

    # ------------------------------------------------------------------ dispatch

    async def emit(self, event: AgentRuntimeEvent) -> list[JsonDict]:
        """Dispatch one event with the current snapshot; one result per handler."""
        return await self._dispatcher.emit(self.snapshot, event, self._execute)

    async def _execute(
        self, request: JsonDict, module: LoadedModule, scope: Scope | None
    ) -> JsonDict:
        return await self.executor.execute(request, module=module.name, scope=scope)

    async def enqueue_job(self, module: LoadedModule, job: Any, scope: Scope | None) -> JsonDict:
        """Enqueue for a handler's ``tools.enqueue_job``.

        Checked like a ``queue.enqueue`` action (upstream skips the checks: trap T7).

        Raises:
            PermissionError: undeclared capability or a project outside the event's scope.
            JobQueueError: the queue refused the job.
        """
        if not isinstance(job, dict):
            raise JobQueueError("invalid_payload", "enqueue_job takes a dict")
        allowed, reason = action_allowed(
            self.trust_mode, module.manifest.capabilities, "queue.enqueue"
        )
        if not allowed:
            raise PermissionError(reason)
        if scope is not None and scope.project_id and job.get("projectId") != scope.project_id:
            raise PermissionError("scope_project_mismatch")
        if scope is not None and not job.get("sourceSessionId"):
            job = {**job, "sourceSessionId": scope.source_session_id}
        return await self.jobs.enqueue(job)

    async def enqueue_action_job(self, job: JsonDict, module: str) -> JsonDict:
        """Enqueue for a ``queue.enqueue`` action (already scope-checked by the executor)."""
        del module
        return await self.jobs.enqueue(job)

    # ------------------------------------------------------------------ jobs

    async def _run_job(self, job: JsonDict, reg: JobTypeRegistration) -> Any:
        result = await reg.handler(_JobContext(self, job, reg.module_name))
        if not (isinstance(result, dict) and result.get("kind") == "action_intents"):
            return result
        intents = result.get("intents")
        if not isinstance(intents, list) or not 1 <= len(intents) <= MAX_INTENTS:
            raise ValueError(f"action_intents needs 1 to {MAX_INTENTS} requests")
        module = self.snapshot.module(reg.module_name)
        payload = job.get("payload") or {}
        scope = Scope(
            project_id=job["projectId"],
            source_session_id=job.get("sourceSessionId"),
            turn_id=(scope_from_payload(payload) or Scope()).turn_id,
        )
        outcomes = []
        for intent in intents:
            outcomes.append(
                await self.executor.execute(
                    intent,
                    module=reg.module_name,
                    scope=scope,
                    capabilities=module.manifest.capabilities if module else None,
                    check_capability=module is not None,
                )
            )
        return {**result, "intentResults": outcomes}

    async def settle(self, timeout: float = 60.0) -> None:
        """Wait for pending emits and for this process's jobs to finish (``exec`` exits then)."""
        deadline = asyncio.get_running_loop().time() + timeout
        for bridge in tuple(self._bridges):
            await bridge.drain(timeout)
        while self.jobs.started and self.jobs.active_count() > 0:
            if asyncio.get_running_loop().time() >= deadline:
                log.warning("extension jobs still running after %.0f s", timeout)
                return
            await asyncio.sleep(0.05)


def create_runtime(
    workspace: Path | None,
    *,
    enabled_builtins: Iterable[str] = (),
    disabled: Iterable[str] = (),
    db_path: Path | None = None,
    environ: dict[str, str] | None = None,
) -> ExtensionRuntime:
    """A runtime wired to the standard places (config folder, environment, workspace).

    Args:
        workspace: The conversation's folder; its ``.agentdesk/extensions`` load once trusted.
        enabled_builtins: Names of built-in extensions the user switched on.
        disabled: Names of extensions the user switched off.
        db_path: The job database (default: the history database in the data folder).
        environ: Environment to read (default ``os.environ``).
    """
    env = dict(os.environ if environ is None else environ)
    paths = app_paths(env)
    sources = ExtensionSources.from_environment(paths.config, workspace, enabled_builtins, env)
    loader = ExtensionLoader(
        sources,
        TrustStore(paths.config / TRUST_FILE),
        trust_mode=TrustMode.parse(env.get(TRUST_MODE_ENV, TrustMode.ENFORCED.value)),
        disabled=disabled,
    )
    return ExtensionRuntime(loader, db_path or paths.data / "history.sqlite3")
