"""``agentdesk --smoke-test``: prove that an installed (usually frozen) Agent Desk really works.

Every artifact (onedir, .deb, AppImage, Windows installer, .app in the dmg) is started with this
before it is called built. It uses the real composition root (``AppContext``, the real window)
and the real start-up path (``desktop.ui.startup``: the window shell paints before asyncio,
pydantic and the core are imported), not a test double, so a missing Qt plugin, data file or
hidden import fails here:

1. the main window is shown and painted (offscreen or under Xvfb; the caller picks the platform),
   then the rest loads as at a real start and the first conversation is built;
2. one conversation runs with the built-in agent, which a frozen app starts as ``agentdesk agent``
   (the model is whatever ``ANTHROPIC_BASE_URL``/``OPENAI_BASE_URL`` point at: CI uses the fake
   LLM server, a person may use the real API);
3. the keyring backend is printed (the classification the settings show).

``--smoke-test window`` stops after step 1 (the cold-start benchmark,
``benchmarks/packaging_startup.py``, reads the "window: painted" line). Nothing touches the
user's settings: without ``AGENTDESK_HOME`` everything goes to a temporary folder. This module
imports only what the first paint needs; the rest is imported after it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QGuiApplication

from desktop import __version__

if TYPE_CHECKING:
    from desktop.core.events import TurnEnded
    from desktop.ui.app import AppContext
    from desktop.ui.window import WorkspaceWindow

PROMPT = "Agent Desk smoke test: reply with one short sentence."
#: Seconds for the agent to start and answer (a cold frozen agent plus a real API call).
CONVERSATION_TIMEOUT = 90.0
PAINT_TIMEOUT = 30.0
EXIT_FAILED = 1
#: Where the throw-away home goes (``desktop.core.paths.HOME_ENV``; the core loads later).
_HOME_ENV = "AGENTDESK_HOME"


class _PaintWatch(QObject):
    """Notes the first paint of the window it filters (installed on the window only: an
    application-wide filter would itself cost start-up time, see ``desktop.ui.startup``)."""

    def __init__(self, started: float) -> None:
        super().__init__()
        self.started = started
        self.painted = False
        self.on_paint: Callable[[], None] | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and not self.painted:
            self.painted = True
            elapsed = (time.perf_counter() - self.started) * 1000
            _say(f"window: painted {elapsed:.0f} ms after start ({QGuiApplication.platformName()})")
            if self.on_paint is not None:
                self.on_paint()
        return False


class SmokeError(Exception):
    """A step of the smoke test failed; the message says which and why."""


def _say(text: str) -> None:
    print(text, flush=True)  # noqa: T201 - the smoke test's output is its report


async def _painted(watch: _PaintWatch) -> None:
    """Return once the window has painted (the first paint may outlast ``show_painted``)."""
    import asyncio

    if watch.painted:
        return
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def painted() -> None:
        if not done.done():
            done.set_result(None)

    watch.on_paint = painted
    try:
        await asyncio.wait_for(done, PAINT_TIMEOUT)
    except TimeoutError:
        raise SmokeError(f"the window was not painted within {PAINT_TIMEOUT:.0f} s") from None


async def _converse(window: WorkspaceWindow) -> str:
    """Send ``PROMPT`` in the window's conversation; the reply text once the turn completed."""
    import asyncio

    from desktop.core.backend import AgentStartError
    from desktop.core.events import (
        AgentExited,
        ErrorEvent,
        SessionEvent,
        TextDelta,
        TurnEnded,
        TurnEndReason,
    )

    pane = window.current
    if pane is None:
        raise SmokeError("the window shows no conversation")
    done: asyncio.Future[TurnEnded] = asyncio.get_running_loop().create_future()
    reply: list[str] = []
    problems: list[str] = []

    def on_event(event: SessionEvent) -> None:
        if isinstance(event, TextDelta):
            reply.append(event.text)
        elif isinstance(event, ErrorEvent):
            problems.append(f"{event.code}: {event.message}")
        elif isinstance(event, AgentExited) and not done.done():
            tail = event.stderr_tail.strip().splitlines()[-3:]
            problems.append(f"agent exited ({event.exit_code}): {' | '.join(tail)}")
            done.set_exception(SmokeError("; ".join(problems)))
        elif isinstance(event, TurnEnded) and not done.done():
            done.set_result(event)

    unsubscribe = pane.session.subscribe(on_event)
    try:
        # The agent starts with the first prompt; wait for it as a person would before typing.
        try:
            ready = await asyncio.wait_for(pane.session.start(), CONVERSATION_TIMEOUT)
        except (AgentStartError, TimeoutError) as exc:
            raise SmokeError(f"the built-in agent did not start: {exc or 'timeout'}") from None
        _say(f"agent: {ready.agent} {ready.version or '(no version)'} ready")
        pane.submit(PROMPT, [])
        try:
            ended = await asyncio.wait_for(done, CONVERSATION_TIMEOUT)
        except TimeoutError:
            raise SmokeError(f"no reply within {CONVERSATION_TIMEOUT:.0f} s; {problems}") from None
    finally:
        unsubscribe()
    text = "".join(reply).strip()
    if ended.reason != TurnEndReason.COMPLETED or not text:
        detail = "; ".join(problems) or ended.message or "empty reply"
        raise SmokeError(f"the turn ended {ended.reason.value}: {detail}")
    return text


async def _smoke(
    context: AppContext, window: WorkspaceWindow, watch: _PaintWatch, mode: str
) -> int:
    """The steps after the first paint (``run`` showed the window): as ``desktop.ui.app``'s
    start, then the conversation (``full``)."""
    from desktop.ui.startup import finish_startup

    try:
        await _painted(watch)
        window.finish_building()
        await finish_startup()
        window.new_conversation()
        context.remember(window.workspace)
        if mode == "full":
            from desktop.core.secrets import SecretStore

            reply = await _converse(window)
            _say(f"conversation: ok, the built-in agent replied {reply[:80]!r}")
            status = SecretStore(announce=False).status
            _say(f"keyring: {status.backend} ({'secure' if status.secure else 'NOT secure'})")
    except SmokeError as exc:
        _say(f"smoke test FAILED: {exc}")
        return EXIT_FAILED
    finally:
        await context.shutdown()
    _say("smoke test passed")
    return 0


def run(options: argparse.Namespace) -> int:
    """Run the smoke test selected by ``options.smoke_test``; the process exit status."""
    started = time.perf_counter()
    home = None if os.environ.get(_HOME_ENV) else tempfile.mkdtemp(prefix="agentdesk-smoke-home-")
    if home is not None:  # a throw-away home, removed at the end
        os.environ[_HOME_ENV] = home
    frozen = "frozen" if getattr(sys, "frozen", False) else "from source"
    _say(f"agentdesk {__version__} ({frozen}, {sys.platform}, Python {sys.version.split()[0]})")
    from desktop.ui import theme
    from desktop.ui.app import AppContext  # after the environment is set
    from desktop.ui.startup import make_application, remembered_scheme, show_painted

    workspace = Path(tempfile.mkdtemp(prefix="agentdesk-smoke-ws-"))
    try:
        theme.assume_scheme(remembered_scheme())  # as ``desktop.ui.app.run`` starts
        app = make_application(icon=False)  # the icon is set after the first paint
        smoke_options = argparse.Namespace(path=str(workspace), agent="builtin", agent_cmd=None)
        context = AppContext(app, smoke_options)
        window = context.open_workspace(workspace, shell_only=True)
        watch = _PaintWatch(started)
        window.installEventFilter(watch)
        show_painted(app, window)  # the real first paint (bounded; ``_smoke`` waits for a late one)
        from desktop.ui.qt_async import run_qt

        mode = str(options.smoke_test or "full")
        return run_qt(app, lambda: _smoke(context, window, watch, mode))
    finally:
        shutil.rmtree(workspace, ignore_errors=True)
        if home is not None:
            shutil.rmtree(home, ignore_errors=True)
