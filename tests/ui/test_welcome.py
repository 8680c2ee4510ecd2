"""First run without a terminal: the welcome panel, one fixable error, the empty state.

Real windows offscreen, the real built-in agent process against the fake LLM server, and the
real Secret Service (the suite runs under dbus-run-session with gnome-keyring).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from desktop.core.entries import MessageItem, UserItem
from desktop.core.events import AgentReady, ErrorEvent, Notice
from desktop.ui.app import AppContext
from desktop.ui.welcome.controller import WelcomeController
from desktop.ui.welcome.empty import home_path
from desktop.ui.welcome.panel import WelcomePanel
from tests.fakes.fake_llm import FakeLLM
from tests.ui.conftest import Driver


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh AGENTDESK_HOME and no provider key in the environment."""
    monkeypatch.setenv("AGENTDESK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return tmp_path / "home"


def _settings_context(driver: Driver) -> AppContext:
    options = argparse.Namespace(path=None, agent=None, agent_cmd=None)
    context: AppContext = driver.run(_make(driver, options))
    driver.contexts.append(context)
    return context


async def _make(driver: Driver, options: argparse.Namespace) -> AppContext:
    return AppContext(driver.qapp, options)


def _errors(items: list[object]) -> list[MessageItem]:
    return [i for i in items if isinstance(i, MessageItem) and i.level == "error"]


@pytest.mark.keyring
def test_no_key_shows_the_welcome_panel_and_a_key_set_there_starts_the_agent(
    driver: Driver, home: Path
) -> None:
    context = _settings_context(driver)
    secrets = context.services.secrets
    driver.run(secrets.delete("local"))
    window = driver.open(context, driver.workspace())
    pane = window.current
    assert pane is not None
    driver.wait(lambda: isinstance(pane.body.currentWidget(), WelcomePanel), 30, "welcome panel")
    assert _errors(pane.transcript.items) == []
    assert not pane.fix_banner.isVisible()
    assert pane.transcript.problem is not None and pane.transcript.problem.fix is not None
    assert "agentdesk keys" not in pane.transcript.problem.message
    panel = pane.welcome.panel
    assert panel is not None
    with FakeLLM([{"text": "Hello from the fake model."}]) as llm:
        driver.call(panel.choice.button(2).click)  # Local / compatible
        panel.base_url.setText(llm.openai_base_url)
        panel.model.setText("fake-model")
        panel.key.setText("sk-welcome-test-key-123")
        driver.call(panel.start.click)
        driver.wait(lambda: pane.transcript.problem is None, 40, "the agent to start")
        stored = driver.run(secrets.get("local"))
        assert stored is not None and stored.source == "keyring"
        assert stored.value.get_secret_value() == "sk-welcome-test-key-123"
        settings = context.services.store.settings
        assert settings.default_agent == "builtin"
        assert settings.profile("local") is not None
        driver.wait(lambda: pane.body.currentWidget() is pane.empty, 10, "the empty state")
        assert pane.welcome.panel is None
        assert pane.empty.title.text().endswith("is ready")
        assert pane.composer.isEnabled()
        pane.composer.editor.setPlainText("hi")
        driver.call(pane.composer.editor.send.emit)
        driver.wait(lambda: pane.body.currentWidget() is pane.view, 10, "the transcript")
        driver.wait(lambda: llm.model_requests, 30, "the model request")
    assert _errors(pane.transcript.items) == []
    driver.run(secrets.delete("local"))


@pytest.mark.keyring
def test_a_fixable_error_shows_once_however_often_the_start_is_retried(
    driver: Driver, home: Path
) -> None:
    context = _settings_context(driver)
    window = driver.open(context, driver.workspace())
    pane = window.current
    assert pane is not None
    announced: list[object] = []
    pane.transcript.problem_changed.connect(announced.append)
    driver.wait(lambda: pane.transcript.problem is not None, 30, "the start error")
    for _ in range(3):
        driver.call(pane.start)
        driver.wait(lambda: pane._starting is not None and pane._starting.done(), 30)
    assert len(announced) == 1 and isinstance(announced[0], ErrorEvent)
    assert _errors(pane.transcript.items) == []
    # A conversation that already has content shows the banner with its fix instead.
    controller: WelcomeController = pane.welcome
    pane.transcript.apply(Notice(message="an earlier notice"))
    pane.transcript.apply(AgentReady(agent="builtin", protocol="aionrs"))
    assert pane.transcript.problem is None and not pane.fix_banner.isVisible()
    driver.call(pane.start)
    driver.wait(lambda: pane.fix_banner.isVisible(), 30, "the banner")
    assert pane.fix_banner.action.text() == "Add key…"
    # A prompt sent meanwhile stays in the conversation and adds no red row: the banner says why.
    ended: list[object] = []
    pane.bridge.turn_ended.connect(ended.append)
    driver.call(lambda: pane.submit("are you there?", []))
    driver.wait(lambda: ended, 30, "the prompt's turn to fail")
    assert [i.text for i in pane.transcript.items if isinstance(i, UserItem)] == ["are you there?"]
    assert _errors(pane.transcript.items) == [] and pane.fix_banner.isVisible()
    driver.call(pane.fix_banner.action.click)
    assert pane.body.currentWidget() is controller.panel


def test_the_empty_state_shows_agent_mode_and_path(driver: Driver, home: Path) -> None:
    context = driver.context({"turns": []})
    folder = driver.workspace()
    window = driver.open(context, folder)
    pane = window.current
    assert pane is not None
    assert pane.body.currentWidget() is pane.empty
    driver.wait(lambda: pane.empty.title.text().endswith("is ready"), 30, "ready")
    texts = pane.empty.texts()
    assert pane.agent_name in texts[0]
    assert texts[1] == "Asks before every edit and command"
    assert "Tab review a waiting request" in texts and home_path(folder) in texts
    assert home_path(Path.home() / "proj") == "~/proj"


@pytest.mark.keyring
def test_an_agent_that_is_not_installed_is_not_chosen(driver: Driver, home: Path) -> None:
    context = _settings_context(driver)
    driver.run(context.services.secrets.delete("anthropic"))
    window = driver.open(context, driver.workspace())
    pane = window.current
    assert pane is not None
    driver.wait(lambda: isinstance(pane.body.currentWidget(), WelcomePanel), 30, "welcome panel")
    panel = pane.welcome.panel
    assert panel is not None
    chosen: list[str] = []
    panel.agent_chosen.connect(chosen.append)
    driver.call(panel.choice.button(3).click)  # Installed agent
    driver.wait(lambda: panel.catalogue.ready, 30, "the programs looked up")
    missing = [
        i for i in range(panel.agent_list.count())
        if panel.agent_list.itemData(i) in set(panel.catalogue.status) - panel.catalogue.installed
    ]  # fmt: skip
    assert missing, "this machine has every catalogue agent installed"
    panel.agent_list.setCurrentIndex(missing[0])
    driver.call(panel.start.click)
    assert chosen == []
    assert "not installed yet" in panel.result.text() and panel.result.isVisible()
