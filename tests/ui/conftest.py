"""Qt fixtures for the window tests: offscreen platform, a qasync loop, the fake agent.

``qloop`` follows desktop-engineering.md §3.5: tests drive coroutines with
``qloop.run_until_complete`` (``qtbot.wait`` alone does not run asyncio tasks).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import sys
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

import pytest
from PySide6.QtWidgets import QApplication

from desktop.ui import theme
from desktop.ui.app import AppContext
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.view import ConversationView
from desktop.ui.qt_async import make_loop
from desktop.ui.window import WorkspaceWindow
from tests.core.support import agent_children
from tests.waiting import until

FAKE = Path(__file__).resolve().parents[1] / "fakes" / "fake_aionrs.py"


def agent_cmd(scenario: dict[str, Any], folder: Path, profile: str = "spec") -> str:
    """An ``--agent-cmd`` running the fake agent with ``scenario``."""
    path = folder / f"scenario-{abs(hash(json.dumps(scenario, sort_keys=True)))}.json"
    path.write_text(json.dumps(scenario))
    return shlex.join(
        [sys.executable, str(FAKE), "--json-stream", "--profile", profile, "--scenario", str(path)]
    )


#: Qt messages that are known and harmless here; everything else fails the test.
KNOWN_QT_MESSAGES = (
    # The offscreen platform plugin cannot propagate size hints and says so whenever a shown
    # window's minimum/maximum size changes (only under QT_QPA_PLATFORM=offscreen).
    r"This plugin does not support propagateSizeHints\(\)",
    # Same plugin, when a window is raised (``open_workspace`` raises an existing window).
    r"This plugin does not support raise\(\)",
)


def ignore_known_messages(items: list[pytest.Item], folder: Path) -> None:
    """Let the tests under ``folder`` ignore ``KNOWN_QT_MESSAGES`` (each window-test folder's
    collection hook calls this for its own tests only)."""
    for item in items:
        if folder in item.path.parents:
            item.add_marker(pytest.mark.qt_log_ignore(*KNOWN_QT_MESSAGES))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The known offscreen-plugin messages, in this folder's tests."""
    ignore_known_messages(items, Path(__file__).parent)


@pytest.fixture(autouse=True)
def _theme(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTDESK_THEME", "light")


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop over the test ``QApplication``."""
    theme.apply(qapp)
    loop = make_loop(qapp)
    asyncio.set_event_loop(loop)
    yield loop
    loop.run_until_complete(asyncio.sleep(0))
    asyncio.set_event_loop(None)
    loop.close()


class Driver:
    """Runs coroutines and waits for conditions on the qasync loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, qapp: QApplication, tmp: Path) -> None:
        self.loop = loop
        self.qapp = qapp
        self.tmp = tmp
        self.contexts: list[AppContext] = []

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 20.0) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    def wait(self, predicate: Callable[[], object], timeout: float = 10.0, what: str = "") -> None:
        self.run(until(predicate, timeout, what), timeout + 5)

    async def acontext(self, scenario: dict[str, Any], profile: str = "spec") -> AppContext:
        """An app context (inside the loop) whose agent is the fake with ``scenario``."""
        options = argparse.Namespace(
            path=None, agent=None, agent_cmd=agent_cmd(scenario, self.tmp, profile)
        )
        context = AppContext(self.qapp, options)
        self.contexts.append(context)
        return context

    def context(self, scenario: dict[str, Any], profile: str = "spec") -> AppContext:
        options = argparse.Namespace(
            path=None, agent=None, agent_cmd=agent_cmd(scenario, self.tmp, profile)
        )
        context = self.run(_make_context(self.qapp, options))
        self.contexts.append(context)
        return context

    def call(self, fn: Callable[..., object], *args: object) -> None:
        """Call ``fn`` (a key click, a button press) inside the running loop, as the app does."""

        async def inside() -> None:
            fn(*args)

        self.run(inside())

    def open(self, context: AppContext, folder: Path) -> WorkspaceWindow:
        """Open a workspace window from inside the loop (its agents start as tasks)."""

        async def opener() -> WorkspaceWindow:
            return context.open_workspace(folder)

        window: WorkspaceWindow = self.run(opener())
        return window

    def workspace(self, name: str = "ws") -> Path:
        folder = self.tmp / name
        folder.mkdir(exist_ok=True)
        return folder

    def close_all(self) -> None:
        for context in self.contexts:
            self.run(_shutdown(context), 40)


async def _shutdown(context: AppContext) -> None:
    context.quit()
    if context.windows():
        await context.all_closed.wait()
    await context.shutdown()


async def _make_context(qapp: QApplication, options: argparse.Namespace) -> AppContext:
    return AppContext(qapp, options)


@pytest.fixture
def driver(
    qloop: asyncio.AbstractEventLoop, qapp: QApplication, tmp_path: Path
) -> Iterator[Driver]:
    """Drives app contexts; at the end closes them and checks that nothing leaked."""
    before = set(QApplication.topLevelWidgets())
    drv = Driver(qloop, qapp, tmp_path)
    yield drv
    drv.close_all()
    for context in drv.contexts:
        assert context.runtime.live_tasks == 0
    drv.wait(lambda: not agent_children(), 5, "the agents to exit")
    assert agent_children() == [], "agent processes outlived their window"
    qapp.processEvents()
    leaked = [w for w in set(QApplication.topLevelWidgets()) - before if w.isVisible()]
    assert leaked == [], f"visible top-level widgets leaked: {leaked}"


def shown_view(
    qtbot: Any, size: tuple[int, int] = (900, 700)
) -> tuple[TranscriptModel, ConversationView]:
    """A bare conversation view on a new transcript model, shown at ``size``."""
    transcript = TranscriptModel()
    view = ConversationView(transcript)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    return transcript, view
