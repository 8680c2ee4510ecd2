"""Each conversation shows its MCP servers in the status bar ("MCP: 1 connected, 2 failed") with a
popup giving each server's state and, for a failed one, the reason; through a real window, the
real ``mcp.json`` and the fake aionrs agent answering ``add_mcp_server``."""

from __future__ import annotations

import pytest

from desktop.core.events import McpServerState, McpStatus
from desktop.core.mcp import McpServer, McpTransport
from desktop.core.mcp.store import McpStore
from desktop.ui.mcp_status import STATE_WORDS, McpPanel
from tests.ui.conftest import KNOWN_QT_MESSAGES, Driver

WHY = "MCP server 'broken' failed to start: y not found.\nThe server's stderr ends with:\noops"


def _configure() -> None:
    store = McpStore()
    store.put(McpServer(name="echo", transport=McpTransport.STDIO, command="echo-server"))
    store.put(McpServer(name="broken", transport=McpTransport.STDIO, command="y"))
    # Its secret is not in the keyring: left out before the agent sees it, counted as failed.
    store.put(
        McpServer(
            name="locked-s18", transport=McpTransport.STDIO, command="z", secret_env=("TOKEN",)
        )
    )


def test_state_words_cover_every_state() -> None:
    assert set(STATE_WORDS) == {s.value for s in McpServerState}


#: The popup asks for the keyboard, which the offscreen plugin cannot grab (it says so).
@pytest.mark.qt_log_ignore(
    *KNOWN_QT_MESSAGES, r"This plugin does not support grabbing the keyboard"
)
@pytest.mark.keyring  # the servers' secrets are looked up in the real keyring
def test_a_window_shows_connected_and_failed_servers_and_why(driver: Driver) -> None:
    _configure()
    scenario = {"turns": [[{"text": "hi"}]], "mcp": True, "mcp_fail": {"broken": WHY}}
    context = driver.context(scenario)
    window = driver.open(context, driver.workspace())
    pane = window.current
    assert pane is not None
    indicator = window.status.mcp
    assert not indicator.isVisible()  # nothing to show before the agent starts
    driver.call(lambda: pane.submit("hello", []))
    driver.wait(
        lambda: indicator.isVisible() and indicator.text() == "MCP: 1 connected, 2 failed",
        30,
        "the MCP summary",
    )
    assert indicator.property("level") == "bad"
    assert pane.mcp_servers.servers["echo"].tools == ["echo_tool"]
    driver.call(indicator.click)
    panel = indicator.panel
    assert isinstance(panel, McpPanel) and panel.isVisible()
    texts = {name: [label.text() for label in labels] for name, labels in panel.blocks.items()}
    assert texts["echo"] == ["echo", "● connected", "Tools: echo_tool"]
    assert texts["broken"][:2] == ["broken", "● failed"]
    assert texts["broken"][2] == WHY
    assert texts["locked-s18"][1] == "● failed"
    assert "its secret TOKEN is not in the keyring" in texts["locked-s18"][2]
    # A server that stops mid-session (as the built-in agent reports it) turns the summary and
    # the open popup at once.
    stopped = McpStatus(
        server="echo", state=McpServerState.STOPPED, message="MCP server 'echo' stopped working."
    )
    driver.call(pane.bridge._on_event, stopped)
    assert indicator.text() == "MCP: 3 failed"
    texts = {name: [label.text() for label in labels] for name, labels in panel.blocks.items()}
    assert texts["echo"] == ["echo", "● stopped working", "MCP server 'echo' stopped working."]
    driver.call(panel.close)


def test_a_conversation_without_servers_shows_no_indicator(driver: Driver) -> None:
    context = driver.context({"turns": []})
    window = driver.open(context, driver.workspace())
    pane = window.current
    assert pane is not None
    driver.wait(lambda: pane.empty.title.text().endswith("is ready"), 30, "ready")
    assert not window.status.mcp.isVisible() and pane.mcp_servers.servers == {}
