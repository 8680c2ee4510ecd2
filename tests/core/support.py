"""Helpers for driving a real Session against the fake aionrs agent subprocess."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import psutil

from desktop.core.events import SessionEvent
from desktop.core.launch.factory import make_backend_factory
from desktop.core.launch.spec import LaunchAionrs
from desktop.core.session import BackendFactory, Session

FAKE_AGENT = Path(__file__).resolve().parents[1] / "fakes" / "fake_aionrs.py"
E = TypeVar("E")


def fake_command(profile: str, scenario: dict[str, Any], folder: Path) -> list[str]:
    """The argv that runs the fake agent with ``scenario``."""
    path = folder / f"scenario-{abs(hash(json.dumps(scenario, sort_keys=True)))}.json"
    path.write_text(json.dumps(scenario))
    return [
        sys.executable,
        str(FAKE_AGENT),
        "--json-stream",
        "--profile",
        profile,
        "--scenario",
        str(path),
    ]


def fake_factory(
    workspace: Path, profile: str, scenario: dict[str, Any], **kwargs: Any
) -> BackendFactory:
    """A backend factory for the fake agent in ``workspace``."""
    argv = fake_command(profile, scenario, workspace.parent)
    return make_backend_factory(LaunchAionrs(name="fake", command=argv), workspace, **kwargs)


class Recorder:
    """Collects session events and lets a test wait for one."""

    def __init__(self) -> None:
        self.events: list[SessionEvent] = []
        self._changed = asyncio.Event()

    def __call__(self, event: SessionEvent) -> None:
        self.events.append(event)
        self._changed.set()

    def of(self, kind: type[E]) -> list[E]:
        """Every recorded event of one class."""
        return [e for e in self.events if isinstance(e, kind)]

    def types(self) -> list[str]:
        """The ``type`` of every event, state changes left out."""
        return [e.type for e in self.events if e.type != "state_changed"]

    async def wait_for(
        self, kind: type[E], predicate: Callable[[E], bool] = lambda _e: True, timeout: float = 10.0
    ) -> E:
        """Wait until an event of ``kind`` matching ``predicate`` has been recorded."""

        async def scan() -> E:
            seen = 0
            while True:
                for event in self.events[seen:]:
                    if isinstance(event, kind) and predicate(event):
                        return event
                seen = len(self.events)
                self._changed.clear()
                await self._changed.wait()

        return await asyncio.wait_for(scan(), timeout)


def make_session(
    workspace: Path, profile: str, scenario: dict[str, Any], **kwargs: Any
) -> tuple[Session, Recorder]:
    """A Session on the fake agent with a Recorder subscribed."""
    factory_kwargs = {
        k: kwargs.pop(k)
        for k in (
            "ready_timeout",
            "heartbeat_interval",
            "heartbeat_timeout",
            "line_limit",
            "protocol_log",
        )
        if k in kwargs
    }
    session = Session(
        fake_factory(workspace, profile, scenario, **factory_kwargs), workspace=workspace, **kwargs
    )
    recorder = Recorder()
    session.subscribe(recorder)
    return session, recorder


def agent_children() -> list[psutil.Process]:
    """Fake agents still running below this process (one that exits while listed is gone)."""
    running = []
    for child in psutil.Process().children(recursive=True):
        try:
            if "fake_aionrs" in " ".join(child.cmdline()):
                running.append(child)
        except psutil.NoSuchProcess:  # exited meanwhile (a zombie counts as exited too)
            continue
    return running
