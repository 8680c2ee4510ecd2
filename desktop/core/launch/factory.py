"""From a ``Launch`` to the session's backend factory, one per protocol.

The factory is called with the session id to resume (None for a new conversation). An aionrs
agent resumes with its ``resume_flag``; ACP, Codex and remote backends resume by id themselves.
Each agent's environment keeps only its own secrets (``agent_environment``); a Codex custom
provider gets an isolated ``CODEX_HOME`` under ``<data>/codex-homes/<agent>``. The adapters are
imported when a factory is made, not with this module: ``agentdesk exec`` resolves and spawns its
agent first and imports the session engine and the wire models while the agent starts.
"""

from __future__ import annotations

import functools
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.core.catalogue.entries import agent_environment, catalogue_entry
from desktop.core.launch.locate import child_environment
from desktop.core.launch.spec import Launch, LaunchAcp, LaunchAionrs, LaunchCodex
from desktop.core.lines import DEFAULT_LINE_LIMIT
from desktop.core.paths import app_paths

if TYPE_CHECKING:
    from desktop.core.backend import AgentBackend
    from desktop.core.remote.config import RemoteRuntimeConfig
    from desktop.core.session import BackendFactory


def make_backend_factory(
    launch: Launch,
    workspace: Path,
    *,
    ready_timeout: float | None = None,
    heartbeat_interval: float = 30.0,
    heartbeat_timeout: float = 10.0,
    line_limit: int = DEFAULT_LINE_LIMIT,
    protocol_log: bool | None = None,
) -> BackendFactory:
    """A factory that starts ``launch`` in ``workspace``, resuming a session id when given.

    ``ready_timeout`` defaults to 30 s for aionrs agents, 60 s for ACP and Codex (they install
    and log in), 15 s for a remote runtime; the heartbeat, line limit and protocol log are the
    aionrs adapter's.
    """
    if isinstance(launch, LaunchAionrs):
        return _aionrs_factory(
            launch,
            workspace,
            ready_timeout=30.0 if ready_timeout is None else ready_timeout,
            heartbeat_interval=heartbeat_interval,
            heartbeat_timeout=heartbeat_timeout,
            line_limit=line_limit,
            protocol_log=protocol_log,
        )
    if isinstance(launch, LaunchAcp | LaunchCodex):
        return _real_factory(launch, workspace, 60.0 if ready_timeout is None else ready_timeout)
    return make_remote_factory(
        launch.runtime,
        launch.signing_key,
        name=launch.name,
        ready_timeout=15.0 if ready_timeout is None else ready_timeout,
    )


def _aionrs_factory(
    launch: LaunchAionrs,
    workspace: Path,
    *,
    ready_timeout: float,
    heartbeat_interval: float,
    heartbeat_timeout: float,
    line_limit: int,
    protocol_log: bool | None,
) -> BackendFactory:
    from desktop.core.mcp.resolve import workspace_servers
    from desktop.core.protocols.aionrs.adapter import AionrsBackend, LaunchSpec
    from desktop.core.protocols.aionrs.usage import UsageCounter
    from desktop.core.redaction import Redactor, secret_values
    from desktop.core.traffic_log import TrafficLog

    usage = UsageCounter()
    child_env = child_environment({**launch.env, **launch.keys})
    if protocol_log is None:
        protocol_log = os.environ.get("AGENTDESK_PROTOCOL_LOG", "") not in ("", "0")

    def factory(resume_id: str | None) -> AgentBackend:
        traffic = None
        if protocol_log:
            folder = app_paths().logs / "protocol"
            stamp = f"{os.getpid()}-{id(usage):x}-{resume_id or 'new'}"
            traffic = TrafficLog(
                folder / f"{launch.name}-{stamp}.log", Redactor(secret_values(child_env))
            )
        return AionrsBackend(
            LaunchSpec(
                argv=aionrs_argv(launch, resume_id), cwd=workspace, env=child_env, name=launch.name
            ),
            ready_timeout=ready_timeout,
            heartbeat_interval=heartbeat_interval,
            heartbeat_timeout=heartbeat_timeout,
            line_limit=line_limit,
            usage=usage,
            traffic_log=traffic,
            mcp=functools.partial(workspace_servers, workspace),
        )

    return factory


def aionrs_argv(launch: LaunchAionrs, resume_id: str | None) -> list[str]:
    """The command line of ``launch``, resuming ``resume_id`` when the agent keeps sessions."""
    if resume_id and launch.resume_flag:
        return [*launch.command, launch.resume_flag, resume_id]
    return list(launch.command)


def _real_factory(
    launch: LaunchAcp | LaunchCodex, workspace: Path, ready_timeout: float
) -> BackendFactory:
    from desktop.core.mcp.resolve import workspace_servers
    from desktop.core.protocols.acp.adapter import AcpBackend, AcpLaunch
    from desktop.core.protocols.codex.adapter import CodexAppServerBackend, CodexLaunch
    from desktop.core.protocols.codex.config import (
        KEY_VARIABLE,
        codex_environment,
        write_codex_home,
    )

    entry = catalogue_entry(launch.entry) if launch.entry else None
    base_env = agent_environment(child_environment(), entry, {**launch.env, **launch.keys})
    codex = launch.options if isinstance(launch, LaunchCodex) else launch.codex

    def factory(resume_id: str | None) -> AgentBackend:
        child_env = dict(base_env)
        if codex is not None and codex.custom_provider:
            key = child_env.pop(KEY_VARIABLE, None)
            home = write_codex_home(
                app_paths().data / "codex-homes" / launch.name, codex, workspace
            )
            child_env = codex_environment(child_env, codex, home, key)
        if isinstance(launch, LaunchCodex):
            spec = CodexLaunch(
                argv=list(launch.command),
                cwd=workspace,
                env=child_env,
                name=launch.name,
                options=launch.options,
                mcp=functools.partial(workspace_servers, workspace),
            )
            return CodexAppServerBackend(spec, resume_id=resume_id, ready_timeout=ready_timeout)
        acp = AcpLaunch(
            argv=list(launch.command),
            cwd=workspace,
            env=child_env,
            name=launch.name,
            serve_fs=launch.serve_fs,
            mcp=functools.partial(workspace_servers, workspace),
        )
        return AcpBackend(acp, resume_id=resume_id, ready_timeout=ready_timeout)

    return factory


def make_remote_factory(
    config: RemoteRuntimeConfig,
    signing_key: str | bytes,
    *,
    name: str = "remote",
    clock: Callable[[], float] = time.time,
    ready_timeout: float = 15.0,
) -> BackendFactory:
    """A factory for backends that talk to the runtime in ``config``.

    The argument the session passes is the conversation's session id to resume; a new
    conversation gets a fresh UUID, which the backend then reports as its ``session_id`` so the
    runtime's state survives restarts of Agent Desk.
    """
    from desktop.core.remote.backend import RemoteRuntimeBackend

    key = signing_key.encode("utf-8") if isinstance(signing_key, str) else signing_key
    if not key:
        raise ValueError(f"no signing key for {name!r}; store one with `agentdesk keys set {name}`")

    def factory(resume_id: str | None) -> AgentBackend:
        return RemoteRuntimeBackend(
            config,
            key,
            session_id=resume_id or str(uuid.uuid4()),
            name=name,
            clock=clock,
            ready_timeout=ready_timeout,
        )

    return factory
