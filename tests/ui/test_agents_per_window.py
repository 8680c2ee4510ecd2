"""Agents per window and per conversation, and Help ▸ Keyboard Shortcuts, in real windows.

``--agent-cmd`` belongs to the window it was given for (the first one, or the one a second
``agentdesk PATH --agent-cmd C`` hands over); other windows use the settings' default agent. A
stored conversation continues with the agent it was recorded with, and when that agent is not
available the conversation says so and offers the choice without starting anything. Real fake
agents (each answers with its own text, so the tests see which one ran), real SQLite history.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from desktop.core.conversation import ResumeStarter
from desktop.core.entries import StreamItem, UserItem
from desktop.core.events import SessionState
from desktop.core.settings import CustomAgent
from desktop.ui.app import AppContext
from desktop.ui.pane import ConversationPane
from desktop.ui.shortcuts import APPROVALS_CONTRACT, ShortcutsWindow, all_keys
from desktop.ui.sidebar.resume import PendingAgent
from desktop.ui.sidebar.unavailable import UnavailableAgentNotice
from desktop.ui.window import WorkspaceWindow
from tests.ui.conftest import FAKE, Driver, _shutdown, agent_cmd
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]
FROM_CMD = {"turns": [[{"text": "from the command line"}]] * 3}
FROM_SETTINGS = {"turns": [[{"text": "from the settings agent"}]] * 3}


def _settings_agent(context: AppContext, tmp: Path, name: str = "fake2") -> None:
    """Make ``name`` (the fake agent answering "from the settings agent") the default."""
    scenario = tmp / f"settings-{name}.json"
    scenario.write_text(json.dumps(FROM_SETTINGS))
    command = [sys.executable, str(FAKE), "--json-stream", "--profile", "spec"]
    agent = CustomAgent(
        name=name, command=[*command, "--scenario", str(scenario)], resume_flag="--resume"
    )
    current = context.settings.settings
    agents = [a for a in current.agents if a.name != name] + [agent]
    context.settings.save(current.model_copy(update={"agents": agents, "default_agent": "fake2"}))


async def _plain_context(driver: Driver) -> AppContext:
    """A context started without ``--agent``/``--agent-cmd``."""
    options = argparse.Namespace(path=None, agent=None, agent_cmd=None)
    context = AppContext(driver.qapp, options)
    driver.contexts.append(context)
    return context


def _answers(pane: ConversationPane) -> list[str]:
    return [i.text for i in pane.transcript.items if isinstance(i, StreamItem) and not i.thinking]


async def _ask(pane: ConversationPane, prompt: str) -> str:
    pane.submit(prompt, [])
    await until(
        lambda: pane.session.state == SessionState.IDLE and len(_answers(pane)) > 0,
        timeout=20,
        what=f"answer to {prompt}",
    )
    return _answers(pane)[-1]


async def _reopen(window: WorkspaceWindow) -> ConversationPane:
    engine = window.history.engine
    assert engine is not None
    await until(lambda: any(e.stored for e in engine.entries), what="stored conversation listed")
    pane = await engine.open_stored(next(e for e in engine.entries if e.stored))
    assert pane is not None
    return pane


def test_command_line_agent_is_the_first_windows_only(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context = await driver.acontext(FROM_CMD)
        _settings_agent(context, driver.tmp)
        first = context.open_workspace(driver.workspace("one"))
        second = context.open_workspace(driver.workspace("two"))  # File ▸ Open Workspace
        assert first.current is not None and second.current is not None
        assert first.current.agent_name == "fake_aionrs"
        assert second.current.agent_name == "fake2"
        assert not first.agent_picker.isEnabled()
        assert first.agent_picker.currentText().endswith("(--agent-cmd)")
        assert second.agent_picker.isEnabled() and second.agent_picker.currentData() == "fake2"
        labels = [second.agent_picker.itemText(i) for i in range(second.agent_picker.count())]
        assert not any("--agent-cmd" in label for label in labels)
        assert await _ask(first.current, "hi") == "from the command line"
        assert await _ask(second.current, "hi") == "from the settings agent"

    driver.run(body(), 90)


def test_handed_over_windows_get_their_own_agent_options(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context = await driver.acontext(FROM_CMD)
        _settings_agent(context, driver.tmp)
        assert context.server.listen()
        first = context.open_workspace(driver.workspace("one"))
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
        handed = {"text": "from the hand-off"}
        own_cmd = agent_cmd({"turns": [[handed]]}, driver.tmp)
        for args in (
            [str(driver.workspace("plain"))],
            [str(driver.workspace("own")), "--agent-cmd", own_cmd],
            [str(driver.workspace("one")), "--agent", "fake2"],  # the open window: switched
        ):
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "desktop", *args, env=env
            )
            assert await asyncio.wait_for(proc.wait(), 30) == 0
        await until(lambda: len(context.windows()) == 3, what="handed-over windows")
        _, plain, own = context.windows()
        assert plain.current is not None and plain.current.agent_name.startswith("fake2")
        assert own.current is not None and own.current.agent_name.startswith("fake_aionrs")
        assert await _ask(own.current, "hi") == "from the hand-off"
        assert await _ask(plain.current, "hi") == "from the settings agent"
        assert first.agent_picker.isEnabled() and first.agent_picker.currentData() == "fake2"
        assert first.new_conversation().agent_name.startswith("fake2")

    driver.run(body(), 120)


def test_stored_conversation_continues_with_its_recorded_agent(
    driver: Driver, qtbot: QtBot
) -> None:
    async def body() -> None:
        context = await _plain_context(driver)
        _settings_agent(context, driver.tmp)
        window = context.open_workspace(driver.workspace())
        assert window.current is not None
        assert await _ask(window.current, "first question") == "from the settings agent"
        await _shutdown(context)
        context = await driver.acontext(FROM_CMD)  # this window's agent: the command
        window = context.open_workspace(driver.workspace())
        pane = await _reopen(window)
        assert pane.agent_name == "fake2"  # recorded with it, not the window's fake_aionrs
        assert window.history.engine is not None
        assert window.history.engine.entry_of(pane).agent == "fake2"  # type: ignore[union-attr]
        assert pane.findChild(UnavailableAgentNotice) is None
        assert await _ask(pane, "second question") == "from the settings agent"
        assert isinstance(pane.starter, ResumeStarter) and pane.starter.used is not None
        assert pane.starter.used.resume_id  # its own session, resumed

    driver.run(body(), 120)


def test_unavailable_recorded_agent_offers_the_choice(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context = await driver.acontext(FROM_CMD)
        window = context.open_workspace(driver.workspace())
        assert window.current is not None
        assert await _ask(window.current, "first question") == "from the command line"
        await _shutdown(context)
        context = await _plain_context(driver)
        _settings_agent(context, driver.tmp)
        window = context.open_workspace(driver.workspace())
        window.resize(900, 640)
        pane = await _reopen(window)
        notice = pane.findChild(UnavailableAgentNotice)
        assert notice is not None and notice.isVisible()
        assert notice.message.text().startswith(
            "This conversation was recorded with fake_aionrs, which is not available: "
            "unknown agent 'fake_aionrs'"
        )
        assert notice.continue_button.text() == "Continue with fake2"
        # A prompt typed now waits: nothing starts until the user chooses.
        pane.submit("second question", [])
        await until(
            lambda: any(isinstance(i, UserItem) and i.queued for i in pane.transcript.items)
        )
        assert pane.session.backend is None and pane.session.state == SessionState.NEW
        notice.settings_button.click()
        addons = context.addons_for(window.workspace)
        assert addons is not None and addons.dialog is not None and addons.dialog.isVisible()
        assert not addons.dialog.isModal()
        addons.dialog.close()
        notice.continue_button.click()
        await until(lambda: pane.findChild(UnavailableAgentNotice) is None, what="notice gone")
        assert pane.agent_name == "fake2"
        await until(
            lambda: pane.session.state == SessionState.IDLE and len(_answers(pane)) > 1,
            timeout=20,
            what="the held prompt answered",
        )
        assert _answers(pane)[-1] == "from the settings agent"
        assert isinstance(pane.starter, PendingAgent) and pane.starter.starter is not None
        used = pane.starter.starter.used
        assert used is not None and used.init_history and used.resume_id is None  # a summary

    driver.run(body(), 120)


def test_recorded_agent_added_in_settings_is_used_by_itself(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context = await driver.acontext(FROM_CMD)
        window = context.open_workspace(driver.workspace())
        assert window.current is not None
        await _ask(window.current, "first question")
        await _shutdown(context)
        context = await _plain_context(driver)
        _settings_agent(context, driver.tmp)
        window = context.open_workspace(driver.workspace())
        pane = await _reopen(window)
        assert pane.findChild(UnavailableAgentNotice) is not None
        _settings_agent(context, driver.tmp, name="fake_aionrs")  # Settings ▸ Agents: added
        await until(lambda: pane.findChild(UnavailableAgentNotice) is None, what="notice gone")
        assert pane.agent_name == "fake_aionrs"
        assert await _ask(pane, "second question") == "from the settings agent"

    driver.run(body(), 120)


def test_keyboard_shortcuts_window(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        context = await driver.acontext({})
        window = context.open_workspace(driver.workspace())
        actions = [a for menu in window.menuBar().actions() for a in menu.menu().actions()]  # type: ignore[union-attr]
        (action,) = [a for a in actions if a.text() == "&Keyboard Shortcuts…"]
        assert action.shortcut() == QKeySequence("F1")
        # Every menu shortcut is in the table the window shows.
        keys = {a.shortcut().toString() for a in actions if not a.shortcut().isEmpty()}
        assert keys and keys <= all_keys(), keys - all_keys()
        action.trigger()
        shortcuts = window.findChild(ShortcutsWindow)
        assert shortcuts is not None and shortcuts.isVisible() and not shortcuts.isModal()
        text = shortcuts.text()
        assert APPROVALS_CONTRACT in text
        for words in ("Approve once", "Deny with a reason", "Stop the running turn", "Quit"):
            assert words in text
        assert window.show_shortcuts() is shortcuts  # raised again, not a second one
        close = next(b for b in shortcuts.findChildren(QPushButton) if b.text() == "Close")
        close.click()
        assert not shortcuts.isVisible()

    driver.run(body(), 60)
