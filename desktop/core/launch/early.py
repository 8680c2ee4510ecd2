"""Spawning an aionrs agent before the session exists, for ``agentdesk exec``.

The session engine, the pydantic event and wire models, the history and the extension runtime
take about 0.3 s to import. Nothing of that is needed to start the agent process, and the agent
needs a while to start up as well (its interpreter, its own configuration), so ``exec`` spawns
the agent first (``EarlyAgent.spawn``) and imports the rest while the agent starts. The session's
backend then takes the running process over (``ProcessBackend.adopt``) instead of spawning one:
every event is still seen by every subscriber, because nothing reads the agent's output before
the session starts. This module only imports light modules at the top.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.core.launch.factory import aionrs_argv
from desktop.core.launch.locate import child_environment
from desktop.core.launch.spec import Launch, LaunchAionrs
from desktop.core.process import AgentProcess

if TYPE_CHECKING:
    from desktop.core.backend import AgentBackend
    from desktop.core.session import BackendFactory


class EarlyAgent:
    """An aionrs-protocol agent process spawned before the session, for its backend to adopt.

    Spawning is best effort: when it is not possible here (another protocol, a program that
    cannot be run) nothing is spawned and the session starts the agent itself, so errors are
    reported exactly as before. A process no backend took over is ended by ``close``.
    """

    def __init__(self) -> None:
        self._process: AgentProcess | None = None
        self._tried = False
        self._ending: list[asyncio.Task[int]] = []

    @property
    def process(self) -> AgentProcess | None:
        """The spawned process until a backend takes it over."""
        return self._process

    async def spawn(self, launch: Launch, workspace: Path, resume_id: str | None = None) -> None:
        """Start ``launch`` as ``make_backend_factory`` would (at most once per run)."""
        if self._tried or not isinstance(launch, LaunchAionrs):
            return
        self._tried = True
        env = child_environment({**launch.env, **launch.keys})
        process = AgentProcess(aionrs_argv(launch, resume_id), cwd=workspace, env=env)
        try:
            await process.start()
        except OSError:
            return  # the session's own spawn fails the same way and reports it
        self._process = process

    def wrap(self, factory: BackendFactory) -> BackendFactory:
        """``factory``, whose first backend takes over the spawned process when it was launched
        the same way (otherwise that process is ended and the backend spawns its own)."""

        def adopting(resume_id: str | None) -> AgentBackend:
            from desktop.core.protocols.process_backend import ProcessBackend

            backend = factory(resume_id)
            process, self._process = self._process, None
            if process is not None and not (
                isinstance(backend, ProcessBackend) and backend.adopt(process)
            ):
                self._ending.append(asyncio.get_running_loop().create_task(process.terminate()))
            return backend

        return adopting

    async def close(self) -> None:
        """End a spawned process no backend took over (the run failed before the session
        started) and wait for processes that were not adopted."""
        if self._process is not None:
            process, self._process = self._process, None
            await process.terminate()
        if self._ending:
            await asyncio.gather(*self._ending)
            self._ending.clear()
