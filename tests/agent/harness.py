"""Drive the real built-in agent process (``python -m desktop.agent``) over its pipes."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.fake_llm import FakeLLM

ROOT = Path(__file__).resolve().parents[2]
Event = dict[str, Any]


def agent_env(**extra: str) -> dict[str, str]:
    """The test process's environment (AGENTDESK_HOME included) with fake keys, fast retries
    and no proxies."""
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(
        ANTHROPIC_API_KEY="sk-ant-fake",
        OPENAI_API_KEY="sk-fake",
        AGENTDESK_AGENT_RETRY_BASE="0.01",
        NO_PROXY="127.0.0.1,localhost",
        PYTHONPATH=str(ROOT),
    )
    env.pop("ANTHROPIC_BASE_URL", None)
    env.pop("OPENAI_BASE_URL", None)
    env.update(extra)
    return env


class Agent:
    """One agent process; events are read by a thread into a queue."""

    def __init__(
        self,
        workspace: Path,
        llm: FakeLLM | None,
        *,
        provider: str = "openai",
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        argv = [sys.executable, "-m", "desktop.agent", "--json-stream", "--model", "fake-model"]
        if provider:
            argv += ["--provider", provider]
        if llm is not None:
            argv += ["--base-url", llm.url if provider == "anthropic" else llm.openai_base_url]
        self.argv = argv + list(args)
        self.proc = subprocess.Popen(
            self.argv,
            cwd=workspace,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env or agent_env(),
            start_new_session=True,
        )
        self.events: queue.Queue[Event | None] = queue.Queue()
        self.seen: list[Event] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.events.put(json.loads(line))
        self.events.put(None)

    def send(self, command: dict[str, Any] | str) -> None:
        assert self.proc.stdin is not None
        line = command if isinstance(command, str) else json.dumps(command)
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def next(self, timeout: float = 15.0) -> Event:
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"no event within {timeout} s; seen: {self.seen[-5:]}")
        if event is None:
            pytest.fail(f"agent exited; stderr: {self.stderr()}")
        self.seen.append(event)
        return event

    def until(self, kind: str, timeout: float = 15.0) -> list[Event]:
        """Events up to and including the next one of type ``kind``."""
        got: list[Event] = []
        while True:
            event = self.next(timeout)
            got.append(event)
            if event["type"] == kind:
                return got

    def ready(self) -> Event:
        event = self.next(20.0)
        assert event["type"] == "ready", event
        return event

    def message(self, text: str, msg_id: str = "m1") -> list[Event]:
        """Send a message and collect its events through ``stream_end``."""
        self.send({"type": "message", "msg_id": msg_id, "input": text})
        return self.until("stream_end")

    def no_more_events(self, wait: float = 0.3) -> None:
        with contextlib.suppress(queue.Empty):
            event = self.events.get(timeout=wait)
            pytest.fail(f"unexpected event {event}")

    def close(self, timeout: float = 10.0) -> int:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        return code

    def stderr(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return "(running)"
        return self.proc.stderr.read().decode("utf-8", "replace")


def types(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


@contextlib.contextmanager
def running(workspace: Path, llm: FakeLLM | None, **kwargs: Any) -> Iterator[Agent]:
    agent = Agent(workspace, llm, **kwargs)
    try:
        agent.ready()
        yield agent
    finally:
        agent.close()
