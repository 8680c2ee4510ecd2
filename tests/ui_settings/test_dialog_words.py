"""The Settings dialog in human words, with the right widgets: choices in words, numbers in spin
boxes, profiles picked from a list (with "New profile…"), pages from the keyboard."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QSpinBox
from pytestqt.qtbot import QtBot

from desktop.core.secrets import SecretStore
from desktop.core.settings import SettingsStore
from desktop.ui.qt_async import AsyncRuntime
from desktop.ui.settings.dialog import SettingsDialog
from desktop.ui.settings.editors import NEW_ENTRY, NameChoice
from desktop.ui.settings.services import SettingsServices
from tests.waiting import until


def _texts(combo: QComboBox) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def _pick(qtbot: QtBot, combo: QComboBox, data: object) -> None:
    """Choose the entry holding ``data`` from the keyboard, as a user would."""
    combo.setFocus()
    index = combo.findData(data)
    assert index >= 0, (data, _texts(combo))
    low, high = sorted((combo.currentIndex(), index))
    steps = sum(1 for i in range(low + 1, high + 1) if combo.itemText(i))  # separators skipped
    key = Qt.Key.Key_Down if index > combo.currentIndex() else Qt.Key.Key_Up
    for _ in range(steps):  # "New profile…" puts the choice back: count, do not loop
        qtbot.keyClick(combo, key)


def test_values_in_words_and_numbers_in_spin_boxes(
    qloop: asyncio.AbstractEventLoop, secrets: SecretStore, qtbot: QtBot
) -> None:
    runtime = AsyncRuntime()
    store = SettingsStore()

    async def body() -> None:
        dialog = SettingsDialog(SettingsServices(store, secrets), runtime.scope("t"))
        qtbot.addWidget(dialog)
        general = dialog.general.editors
        mode = general["approvals"].findChild(QComboBox, None)
        assert mode is not None and mode.currentText() == "Ask every time"
        assert "default" not in _texts(mode) and "Approve everything (yolo)" in _texts(mode)
        (theme_box,) = general["appearance"].findChildren(QComboBox)
        assert theme_box.currentText() == "Follow the system"
        assert _texts(theme_box) == ["Follow the system", "Light", "Dark"]
        size = general["appearance"].findChild(QSpinBox)
        assert size is not None and (size.minimum(), size.maximum()) == (6, 48)
        assert size.text() == "11 pt"
        size.setFocus()
        qtbot.keyClick(size, Qt.Key.Key_Up)
        qtbot.keyClick(size, Qt.Key.Key_Up)
        assert dialog.status.text() == "Unsaved changes"
        # An optional number: its lowest step reads "default" and means "not set".
        dialog.profiles.select("anthropic")
        tokens = dialog.profiles.form.editors["max_tokens"].findChild(QSpinBox)
        assert tokens is not None and tokens.text() == "Agent's default"
        provider = dialog.profiles.form.editors["provider"].findChild(QComboBox)
        assert provider is not None and provider.currentText() == "Anthropic"
        # The keyring in words, never a class name.
        assert "keyring.backends" not in dialog.profiles.keyring_status.text()
        # The default agent is a choice of the agents (and ready-made ones), not a text field.
        default = dialog.default_agent.combo
        assert not default.isEditable()
        assert default.currentData() == "builtin"
        assert "Claude Code (claude-agent-acp)" in _texts(default)
        assert dialog.save(), dialog.status.text()
        saved = SettingsStore(store.path).settings
        assert saved.appearance.font_size == 13
        assert saved.profile("anthropic") is not None
        assert saved.profile("anthropic").max_tokens is None  # type: ignore[union-attr]
        await until(lambda: dialog.catalogue.ready, what="catalogue lookup")
        await runtime.aclose()

    qloop.run_until_complete(asyncio.wait_for(body(), 20))


def test_profile_is_picked_from_a_list_with_new_profile(
    qloop: asyncio.AbstractEventLoop, secrets: SecretStore, qtbot: QtBot
) -> None:
    runtime = AsyncRuntime()
    store = SettingsStore()

    async def body() -> None:
        dialog = SettingsDialog(SettingsServices(store, secrets), runtime.scope("t"))
        qtbot.addWidget(dialog)
        dialog.show()
        dialog.show_page("Agents")
        dialog.agents.select("builtin")
        choice = dialog.agents.forms["builtin"].editors["profile"]
        assert isinstance(choice, NameChoice)
        combo = choice.combo
        assert not combo.isEditable()
        assert combo.currentData() == "anthropic"
        assert combo.currentText() == "anthropic — Anthropic · claude-sonnet-4-6"
        assert [combo.itemData(i) for i in range(combo.count())][-1] == NEW_ENTRY
        _pick(qtbot, combo, "openai")
        assert choice.value() == "openai"
        # "New profile…": a profile is made, chosen here, and shown on the Providers page.
        _pick(qtbot, combo, NEW_ENTRY)
        await until(lambda: dialog.stack.currentWidget() is dialog.profiles, what="Providers")
        assert [e["name"] for e in dialog.profiles.entries] == ["anthropic", "openai", "profile"]
        assert choice.value() == "profile"
        # Renaming the new profile renames it in the agent too.
        name = dialog.profiles.form.editors["name"]
        name.set_value("work")
        dialog.profiles.select("anthropic")  # the edit is taken when the selection moves
        assert [e.get("profile") for e in dialog.agents.values() if e["kind"] == "builtin"] == [
            "work"
        ]
        assert dialog.save(), dialog.status.text()
        saved = SettingsStore(store.path).settings
        builtin = saved.agent("builtin")
        assert builtin is not None and builtin.kind == "builtin" and builtin.profile == "work"
        assert saved.profile("work") is not None
        # Codex's key: a profile or "Codex's own login" (empty).
        key = dialog.agents.forms["codex"].editors["key_profile"]
        assert isinstance(key, NameChoice)
        key.set_value(None)
        assert key.combo.currentText() == "Codex's own login" and key.value() is None
        await until(lambda: dialog.catalogue.ready, what="catalogue lookup")
        await runtime.aclose()

    qloop.run_until_complete(asyncio.wait_for(body(), 20))


def test_pages_from_the_keyboard(
    qloop: asyncio.AbstractEventLoop, secrets: SecretStore, qtbot: QtBot
) -> None:
    runtime = AsyncRuntime()

    async def body() -> None:
        dialog = SettingsDialog(SettingsServices(SettingsStore(), secrets), runtime.scope("t"))
        qtbot.addWidget(dialog)
        dialog.show()
        dialog.activateWindow()
        await until(lambda: dialog.isActiveWindow(), what="dialog active")
        assert dialog.heading.text() == "Providers"
        qtbot.keyClick(dialog, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
        assert dialog.heading.text() == "Agents"
        assert dialog.stack.currentWidget() is dialog.agents
        qtbot.keyClick(dialog, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClick(dialog, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
        assert dialog.heading.text() == "MCP servers"  # wraps around
        assert dialog.nav.item(0).text() == "Providers"
        await until(lambda: dialog.catalogue.ready, what="catalogue lookup")
        await runtime.aclose()

    qloop.run_until_complete(asyncio.wait_for(body(), 20))
