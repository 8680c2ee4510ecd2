"""The window names agents in words: "Built-in agent", "Claude Code", never "builtin".

Agents are known by their names in the settings (identifiers kept in history rows and the agent
picker); the status bar and the sidebar's rows show ``agent_title``. The window test runs the
fake agent under the built-in agent's name (a copy of the script called ``builtin.py``: a
command's agent is named after its program), so it reports itself as ``builtin`` when ready,
as the real built-in agent does.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QApplication

from desktop.ui import i18n
from desktop.ui.agent_titles import agent_title
from desktop.ui.app import AppContext
from tests.ui.conftest import FAKE, Driver
from tests.waiting import until

TRANSLATIONS = Path(__file__).resolve().parents[2] / "packaging" / "translations.py"


def test_names_in_words() -> None:
    assert agent_title("builtin") == "Built-in agent"
    assert agent_title("builtin 0.4.0") == "Built-in agent 0.4.0"
    assert agent_title("claude") == "Claude Code"
    assert agent_title("gemini") == "Gemini CLI"
    assert agent_title("codex") == "OpenAI Codex"
    assert agent_title("codex-acp 0.16.0") == "Codex 0.16.0"
    assert agent_title("aionrs 0.2.1") == "aionrs 0.2.1"  # its own name
    assert agent_title("my agent") == "my agent"  # a name the user chose stays as written
    assert agent_title("") == ""


def test_ours_is_translated(qapp: QApplication, tmp_path: Path) -> None:
    folder = tmp_path / "qm"
    subprocess.run([sys.executable, str(TRANSLATIONS), "compile", "--out", str(folder)], check=True)
    translators = i18n.install(qapp, QLocale(QLocale.Language.German), folder)
    try:
        assert agent_title("builtin 0.4.0") == "Eingebauter Agent 0.4.0"
        assert agent_title("claude") == "Claude Code"  # a product's name is not translated
    finally:
        i18n.remove(qapp, translators)


def test_status_bar_and_sidebar_show_the_agent_in_words(driver: Driver, tmp_path: Path) -> None:
    program = tmp_path / "builtin.py"
    shutil.copy(FAKE, program)
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps({"turns": [[{"text": "hello"}]]}))
    command = shlex.join([sys.executable, str(program), "--json-stream", "--profile", "spec",
                          "--scenario", str(scenario)])  # fmt: skip

    async def body() -> None:
        options = argparse.Namespace(path=None, agent=None, agent_cmd=command)
        context = AppContext(driver.qapp, options)
        driver.contexts.append(context)
        window = context.open_workspace(driver.workspace("ws"))
        pane = window.current
        assert pane is not None
        label = window.status_labels["agent"]
        await until(lambda: label.text().startswith("Built-in agent"), 20, "the agent in words")
        assert "builtin" not in label.text()
        assert pane.empty.title.text().startswith("Built-in agent"), pane.empty.title.text()
        pane.composer.editor.setPlainText("hi")
        pane.composer.send.click()
        rows = window.history.sidebar.list
        role = Qt.ItemDataRole.AccessibleDescriptionRole
        await until(
            lambda: rows.count() > 0 and "Built-in agent" in str(rows.item(0).data(role)),
            20,
            "the row's agent in words",
        )
        assert "builtin" not in str(rows.item(0).data(role))

    driver.run(body(), 60)
