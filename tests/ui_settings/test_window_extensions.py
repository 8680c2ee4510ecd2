"""Extensions in a real window with the fake aionrs agent: trust, deny list, suggestions.

The window is the real ``WorkspaceWindow`` of an ``AppContext``; the Settings dialog, the
Extensions page and the composer's Suggest button are driven like a user would.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.core.entries import MessageItem, ToolItem
from desktop.core.events import SessionState
from desktop.core.paths import app_paths
from desktop.core.secrets import SecretStore
from desktop.ui.addons import WindowAddons
from desktop.ui.app import AppContext
from desktop.ui.extensions.page import ExtensionsPage
from desktop.ui.pane import ConversationPane
from tests.extensions.helpers import write_extension
from tests.ui.conftest import Driver
from tests.waiting import until

SUGGESTER = """
async def suggest(event, tools):
    p = event["payload"]
    return await tools.enqueue_job({"type": "agent_instruction", "projectId": p["projectId"],
                                    "payload": {"prompt": "next after " + p["userRequest"]}})

async def post(event, tools):
    ctx = event["payload"]["context"]
    return {"kind": "action_request", "actionType": "transcript.upsert",
            "payload": {"sessionId": ctx["sourceSessionId"],
                        "entry": {"messageId": "note-" + ctx["turnId"], "role": "system",
                                  "type": "note", "content": "turn noted by the extension",
                                  "turnId": ctx["turnId"]}}}

def register_agent_events(registry):
    registry.on("suggest_request.requested", suggest)
    registry.on("turn.completed", post)
"""

RECORD = """
def register_agent_events(registry):
    registry.on("turn.completed", lambda event, tools: None)
"""


async def _window(
    driver: Driver, scenario: dict[str, Any], secrets: SecretStore
) -> tuple[ConversationPane, WindowAddons]:
    context = await driver.acontext(scenario)
    window = context.open_workspace(driver.workspace())
    context.services.secrets = secrets
    addons = context.addons_for(window.workspace)
    assert addons is not None
    pane = window.current
    assert pane is not None
    return pane, addons


def _send(qtbot: QtBot, pane: ConversationPane, text: str) -> None:
    pane.composer.editor.setPlainText(text)
    qtbot.keyClick(pane.composer.editor, Qt.Key.Key_Return)


def _idle(pane: ConversationPane) -> bool:
    return pane.session.state == SessionState.IDLE and pane.session.active_turn is None


def test_workspace_extension_loads_only_after_trust_in_the_ui(
    driver: Driver, secrets: SecretStore
) -> None:
    write_extension(driver.workspace() / ".agentdesk" / "extensions", "repo_ext", RECORD)

    async def body() -> None:
        pane, addons = await _window(driver, {"turns": []}, secrets)
        dialog = addons.open_settings("Extensions")
        page = dialog.extensions_page
        assert isinstance(page, ExtensionsPage)
        await until(lambda: "repo_ext" in page.rows, what="extension listed")
        runtime = addons.extensions.runtime
        assert runtime is not None
        assert [m.name for m in runtime.snapshot.modules] == []
        assert page.rows["repo_ext"].findChild(type(page.summary), "") is not None
        trust = page.trust_buttons["repo_ext"]
        trust.click()
        review = page._dialogs[-1]
        assert not review.isModal()
        assert '"agentId": "test.repo_ext"' in review.manifest_view.toPlainText()
        review.trust_button.click()
        await until(lambda: [m.name for m in runtime.snapshot.modules] == ["repo_ext"])
        await until(lambda: "repo_ext" not in page.trust_buttons, what="page refreshed")
        assert addons.extensions.bridges  # the conversation is attached
        await until(lambda: dialog.catalogue.ready, what="catalogue lookup")
        dialog.close()
        del pane
        # Quitting ends the runtime's job queue before the loop's leftovers are cancelled.
        assert runtime.jobs.running
        context = driver.contexts[-1]
        context.quit()
        await context.all_closed.wait()
        await context.shutdown()
        assert not runtime.jobs.running

    driver.run(body(), 60)


def test_enabling_shell_deny_list_blocks_a_command(
    driver: Driver, secrets: SecretStore, qtbot: QtBot
) -> None:
    tool = {"name": "Bash", "args": {"command": "touch marker"}, "category": "exec"}
    scenario = {"turns": [[{"tool": tool}, {"text": "done"}]]}

    async def body() -> None:
        pane, addons = await _window(driver, scenario, secrets)
        dialog = addons.open_settings("Extensions")
        page = dialog.extensions_page
        assert isinstance(page, ExtensionsPage)
        page.deny.setPlainText("touch *\nsudo *")
        page.deny_save.click()
        saved = json.loads((app_paths().config / "shell-deny-list.json").read_text())
        assert saved == {"patterns": ["touch *", "sudo *"]}
        await until(lambda: "shell_deny_list" in page.switches, what="rows listed")
        switch = page.switches["shell_deny_list"]
        assert not switch.isChecked()
        qtbot.mouseClick(switch, Qt.MouseButton.LeftButton, pos=switch.rect().center())
        assert page.settings_value() == {"enabled_builtins": ["shell_deny_list"], "disabled": []}
        assert dialog.status.text() == "Unsaved changes"
        assert dialog.save(), dialog.status.text()
        stored = json.loads(dialog.services.store.path.read_text())
        assert stored["extensions"]["enabled_builtins"] == ["shell_deny_list"]
        await until(
            lambda: (
                addons.extensions.runtime is not None
                and [m.name for m in addons.extensions.runtime.snapshot.modules]
                == ["shell_deny_list"]
            ),
            what="deny list loaded",
        )
        await until(lambda: addons.extensions.bridges, what="attached")
        await until(lambda: dialog.catalogue.ready, what="catalogue lookup")
        dialog.close()
        _send(qtbot, pane, "run it")
        await until(lambda: _idle(pane) and len(pane.transcript.items) > 2, what="turn end")
        [card] = [i for i in pane.transcript.items if isinstance(i, ToolItem)]
        assert card.decision is not None
        assert card.decision.source == "extension"
        assert card.decision.source_name == "shell_deny_list"
        assert not (driver.workspace() / "marker").exists()

    driver.run(body(), 60)


def test_suggest_next_prompt_fills_the_composer(
    driver: Driver, secrets: SecretStore, qtbot: QtBot
) -> None:
    write_extension(app_paths().config / "extensions", "suggester", SUGGESTER)

    async def body() -> None:
        pane, addons = await _window(
            driver, {"prompts": {"first question": [{"text": "hello back"}]}}, secrets
        )
        await until(lambda: addons.extensions.bridges, what="runtime attached")
        _send(qtbot, pane, "first question")
        await until(lambda: _idle(pane), what="turn end")
        await until(
            lambda: any(
                isinstance(i, MessageItem) and "turn noted" in i.text for i in pane.transcript.items
            ),
            what="extension post shown",
        )
        # A window wide enough for the buttons' labels (a narrow composer shows icons alone).
        pane.window().resize(1200, 760)
        await until(lambda: not pane.composer.compact, what="the composer's full labels")
        button = pane.composer.action_buttons.get("suggest")
        assert button is not None and button.text() == "Suggest"
        button.click()
        await until(lambda: pane.composer.editor.toPlainText() != "", timeout=30, what="suggestion")
        assert pane.composer.editor.toPlainText() == "You said: next after first question"

    driver.run(body(), 90)


def test_agent_picker_lists_settings_and_catalogue_agents(
    driver: Driver, secrets: SecretStore
) -> None:
    async def body() -> None:
        # No --agent-cmd here (it would be the only choice): the picker offers Settings' agents.
        context = AppContext(driver.qapp, argparse.Namespace(path=None, agent=None, agent_cmd=None))
        driver.contexts.append(context)
        window = context.open_workspace(driver.workspace(), shell_only=True)
        context.services.secrets = secrets
        addons = context.addons_for(window.workspace)
        assert addons is not None and addons.picker.isEnabled()
        names = [addons.picker.itemData(i) for i in range(addons.picker.count())]
        assert names[:2] == ["builtin", "aionrs"]
        assert {"claude", "gemini", "codex", "codex-acp"} <= set(names)
        assert addons.chosen_agent() == "builtin"
        settings_path = Path(addons.services.store.path)
        assert settings_path.exists()

    driver.run(body(), 30)


def test_window_closed_while_its_extensions_start_leaves_nothing_running(
    driver: Driver,
) -> None:
    from desktop.ui.extensions.window import WindowExtensions

    async def body() -> None:
        context = await driver.acontext({})
        scope = context.runtime.scope("extensions-race")
        extensions = WindowExtensions(driver.workspace(), context.settings, scope)
        starting = asyncio.get_running_loop().create_task(extensions.ensure_runtime())
        await extensions.aclose()  # the window closed before the runtime was built
        runtime = await starting
        assert not runtime.jobs.running
        await scope.aclose()

    driver.run(body(), 30)
