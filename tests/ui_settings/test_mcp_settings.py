"""Settings ▸ MCP servers through the real dialog: add, edit, remove, test; secrets in the real
keyring (Secret Service under D-Bus), never in ``mcp.json``."""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from desktop.core.mcp import secret_entry
from desktop.core.mcp.store import McpStore, mcp_path
from desktop.core.secrets import SecretStore
from desktop.core.settings import SettingsStore
from desktop.ui.qt_async import AsyncRuntime
from desktop.ui.settings.dialog import SettingsDialog
from desktop.ui.settings.services import SettingsServices
from tests.mcp.support import ECHO_SERVER
from tests.waiting import until


@pytest.fixture
def runtime(qloop: asyncio.AbstractEventLoop) -> AsyncRuntime:
    return AsyncRuntime()


def _dialog(secrets: SecretStore, runtime: AsyncRuntime, workspace: Path) -> SettingsDialog:
    """A dialog as the window builds it (inside the running loop)."""
    services = SettingsServices(SettingsStore(), secrets)
    return SettingsDialog(services, runtime.scope("test"), workspace=workspace)


def _fill_echo(dialog: SettingsDialog, name: str, *args: str) -> None:
    page = dialog.mcp
    dialog.show_page("MCP servers")
    page.add.click()
    form = page.form
    form.name.setText(name)
    form.command.setText(sys.executable)
    form.args.setText(" ".join([str(ECHO_SERVER), *args]))
    form.changed.emit()


async def _stored(secrets: SecretStore, entry: str) -> str | None:
    found = await secrets.get(entry)
    return None if found is None else found.value.get_secret_value()


@pytest.mark.keyring
def test_a_stdio_server_with_a_secret_is_added_edited_and_removed(
    qloop: asyncio.AbstractEventLoop, runtime: AsyncRuntime, tmp_path: Path
) -> None:
    async def body() -> None:
        secrets = SecretStore(announce=False)
        assert secrets.status.secure, secrets.status.message
        name = f"echo-{uuid.uuid4().hex[:8]}"
        value = f"s3cret-{uuid.uuid4().hex}"
        dialog = _dialog(secrets, runtime, tmp_path)
        assert "MCP servers" in dialog.pages
        assert dialog.mcp.entries == [] and not dialog.mcp.box.isVisibleTo(dialog.mcp)
        assert dialog.mcp.empty.isVisibleTo(dialog.mcp)
        _fill_echo(dialog, name)
        form = dialog.mcp.form
        form.env.add_row("MODE", "fast")
        row = form.env.add_row("MCP_ECHO_SECRET", value, secret=True)
        assert row.value.echoMode() == row.value.EchoMode.Password
        form.scope_choice.setCurrentIndex(form.scope_choice.findData("here"))
        form.changed.emit()
        assert dialog.save(), dialog.status.text()
        text = mcp_path().read_text(encoding="utf-8")
        assert value not in text
        saved = json.loads(text)["servers"][0]
        assert saved["name"] == name and saved["env"] == {"MODE": "fast"}
        assert saved["secret_env"] == ["MCP_ECHO_SECRET"]
        assert saved["workspaces"] == [str(tmp_path)]
        entry = secret_entry(name, "MCP_ECHO_SECRET")
        assert dialog.mcp.secrets_task is not None
        await asyncio.wait_for(dialog.mcp.secrets_task, 20)
        assert "1 secret(s) stored in the keyring" in dialog.mcp.status.text()
        assert await _stored(secrets, entry) == value
        # Edit: the reopened dialog shows the secret as stored (not its value); a new value and
        # scope are saved, the plain variable dropped.
        dialog.close()
        again = _dialog(secrets, runtime, tmp_path)
        page = again.mcp
        page.select(name)
        [secret_row] = [r for r in page.form.env.rows if r.secret.isChecked()]
        assert secret_row.value.text() == "" and secret_row.stored
        assert "keyring" in secret_row.value.placeholderText()
        plain = [r for r in page.form.env.rows if not r.secret.isChecked()]
        plain[0].drop.click()
        secret_row.value.setText("replaced-value")
        page.form.scope_choice.setCurrentIndex(page.form.scope_choice.findData("all"))
        page.form.changed.emit()
        assert again.save(), again.status.text()
        server = McpStore().config.server(name)
        assert server is not None and server.env == {} and server.is_global
        assert page.secrets_task is not None
        await asyncio.wait_for(page.secrets_task, 20)
        assert await _stored(secrets, entry) == "replaced-value"
        # Remove: gone from the file, and its secret from the keyring.
        page.remove.click()
        assert again.save(), again.status.text()
        assert McpStore().config.server(name) is None
        await asyncio.wait_for(page.secrets_task, 20)
        assert await _stored(secrets, entry) is None
        await runtime.aclose()

    qloop.run_until_complete(body())


def test_a_new_secret_without_a_value_or_an_invalid_server_is_not_saved(
    qloop: asyncio.AbstractEventLoop, runtime: AsyncRuntime, secrets: SecretStore, tmp_path: Path
) -> None:
    async def body() -> None:
        dialog = _dialog(secrets, runtime, tmp_path)
        _fill_echo(dialog, "needs-secret")
        dialog.mcp.form.env.add_row("TOKEN", "", secret=True)
        dialog.mcp.form.changed.emit()
        assert not dialog.save()
        assert "no value for the secret needs-secret: TOKEN" in dialog.status.text()
        assert not mcp_path().exists()
        dialog.mcp.form.name.setText("bad name")
        dialog.mcp.form.changed.emit()
        assert not dialog.save()
        assert "MCP server bad name: name" in dialog.status.text()
        assert not mcp_path().exists()
        await runtime.aclose()

    qloop.run_until_complete(body())


def test_the_test_button_lists_the_tools_or_says_why_it_failed(
    qloop: asyncio.AbstractEventLoop, runtime: AsyncRuntime, secrets: SecretStore, tmp_path: Path
) -> None:
    async def body() -> None:
        dialog = _dialog(secrets, runtime, tmp_path)
        _fill_echo(dialog, "echo")
        form = dialog.mcp.form
        form.test.click()
        result: Any = form.result
        await until(lambda: "Working" in result.text(), timeout=60)
        assert "Working: 2 tools." in result.text()
        assert "• echo — Return the text unchanged." in result.text() and "• add" in result.text()
        assert form.test.isEnabled()
        form.args.setText(f"{ECHO_SERVER} --fail-start")
        form.test.click()
        await until(lambda: "failed to start" in result.text(), timeout=60)
        assert "mcp_echo_server: cannot start (asked to fail)" in result.text()
        assert result.property("level") == "error"
        form.command.setText("/nonexistent/mcp-server")
        form.test.click()
        await until(lambda: "No such file or directory" in result.text(), timeout=60)
        await runtime.aclose()

    qloop.run_until_complete(body())
