"""The Settings dialog: generated from the models, saved atomically, keys masked and tested."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from pydantic import BaseModel

from desktop.core.secrets import SecretStore
from desktop.core.settings import Settings, SettingsStore
from desktop.ui.qt_async import AsyncRuntime
from desktop.ui.settings.dialog import SettingsDialog
from desktop.ui.settings.forms import FieldEditor
from desktop.ui.settings.lists import AGENT_KINDS
from desktop.ui.settings.services import SettingsServices
from tests.fakes.fake_llm import FakeLLM, Turn
from tests.fakes.memory_keyring import InMemoryKeyring
from tests.waiting import until

KEY = "sk-test-0123456789abcdefXYZ"


class RejectingLLM(FakeLLM):
    """The fake LLM answering every model request with 401 (a wrong key)."""

    def _take_turn(self, body: Any) -> tuple[Turn, int]:
        return Turn(status=401, error_message="invalid x-api-key"), 0


def _model_paths(model: type[BaseModel], prefix: str = "") -> set[str]:
    paths = set()
    for name, info in model.model_fields.items():
        paths.add(prefix + name)
        kind = info.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            paths |= _model_paths(kind, f"{prefix}{name}.")
    return paths


def _collect(form: Any, prefix: str) -> set[str]:
    found: set[str] = set()

    def visit(path: str, editor: FieldEditor) -> None:
        found.add(prefix + path)

    form.walk(visit)
    return found


@pytest.fixture
def runtime(qloop: asyncio.AbstractEventLoop) -> AsyncRuntime:
    return AsyncRuntime()


def _dialog(
    secrets: SecretStore, runtime: AsyncRuntime, store: SettingsStore | None = None
) -> SettingsDialog:
    """A dialog built inside the running loop, as the window builds it."""
    services = SettingsServices(store or SettingsStore(), secrets)
    return _in_loop(lambda: SettingsDialog(services, runtime.scope("test")))


def _in_loop(build: Any) -> Any:
    async def inside() -> Any:
        return build()

    return asyncio.get_event_loop().run_until_complete(inside())


def test_every_settings_field_has_an_editor(
    qloop: asyncio.AbstractEventLoop, runtime: AsyncRuntime, secrets: SecretStore
) -> None:
    dialog = _dialog(secrets, runtime)
    qloop.run_until_complete(until(lambda: dialog.catalogue.ready, what="catalogue lookup"))
    from desktop.core.settings.models import ExtensionSettings, ProviderProfile

    shown = _collect(dialog.general, "")
    shown |= _collect(dialog.profiles.form, "profiles.")
    for kind, form in dialog.agents.forms.items():
        shown |= _collect(form, f"agents.{kind}.")
    # The Extensions page edits ``extensions`` with one switch per extension it finds
    # (tests/ui_settings/test_window_extensions.py); every one of its fields is in its value.
    assert set(ExtensionSettings.model_fields) == {"enabled_builtins", "disabled"}
    expected = _model_paths(Settings) - {"schema_version", "profiles", "agents", "extensions"}
    expected -= {f"extensions.{p}" for p in ExtensionSettings.model_fields}
    expected |= {f"profiles.{p}" for p in _model_paths(ProviderProfile)}
    for kind, model in AGENT_KINDS.items():
        expected |= {f"agents.{kind}.{p}" for p in _model_paths(model) - {"kind"}}
    assert expected - shown == set()
    assert set(AGENT_KINDS) == {"builtin", "aionrs", "custom", "remote", "acp", "codex"}
    assert "agents.remote.runtime.address" in shown
    qloop.run_until_complete(runtime.aclose())
    dialog.deleteLater()


def test_edits_are_saved_atomically_and_reloaded(
    qloop: asyncio.AbstractEventLoop, runtime: AsyncRuntime, secrets: SecretStore
) -> None:
    store = SettingsStore()
    path = store.path

    async def body() -> None:
        dialog = SettingsDialog(SettingsServices(store, secrets), runtime.scope("test"))
        dialog.profiles.select("openai")
        dialog.profiles.form.editors["model"].set_value("gpt-test")
        dialog.profiles.form.editors["base_url"].set_value("http://127.0.0.1:9/v1")
        dialog.agents.add_kind("custom")
        custom_form = dialog.agents.forms["custom"]
        custom_form.editors["command"].set_value(["my-agent", "--flag", "two words"])
        custom_form.editors["env"].set_value({"MODE": "fast"})
        dialog.general.editors["appearance"].set_value({"theme": "dark", "font_size": 13})
        dialog.default_agent.set_value("custom")
        assert dialog.save(), dialog.status.text()
        again = SettingsStore(path).settings
        openai = again.profile("openai")
        assert openai is not None and openai.model == "gpt-test"
        custom = again.agent("custom")
        assert custom is not None and custom.kind == "custom"
        assert custom.command == ["my-agent", "--flag", "two words"]
        assert custom.env == {"MODE": "fast"}
        assert again.appearance.theme == "dark" and again.appearance.font_size == 13
        assert again.default_agent == "custom"
        assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []

        before = path.read_text()
        dialog.profiles.form.editors["base_url"].set_value("not a url")
        assert not dialog.save()
        assert "base_url" in dialog.status.text()
        assert path.read_text() == before  # nothing written
        await until(lambda: dialog.catalogue.ready, what="catalogue lookup")
        dialog.deleteLater()
        await runtime.aclose()

    qloop.run_until_complete(asyncio.wait_for(body(), 20))


def test_settings_messages_are_shown_once(
    qloop: asyncio.AbstractEventLoop, runtime: AsyncRuntime, secrets: SecretStore
) -> None:
    path = SettingsStore().path
    path.write_text("{ not json")
    services = SettingsServices(SettingsStore(), secrets)
    first = _in_loop(lambda: SettingsDialog(services, runtime.scope("a")))
    assert first.banner.isVisibleTo(first) and "moved to" in first.banner.text()
    second = _in_loop(lambda: SettingsDialog(services, runtime.scope("b")))
    assert not second.banner.isVisibleTo(second)
    for dialog in (first, second):
        qloop.run_until_complete(until(lambda d=dialog: d.catalogue.ready, what="lookup"))
    first.deleteLater()
    second.deleteLater()


def test_keys_set_replace_delete_masked_never_in_settings(
    qloop: asyncio.AbstractEventLoop,
    runtime: AsyncRuntime,
    secrets: SecretStore,
    keyring_backend: InMemoryKeyring,
) -> None:
    async def body() -> None:
        dialog = SettingsDialog(SettingsServices(SettingsStore(), secrets), runtime.scope("t"))
        panel = dialog.profiles.keys
        dialog.profiles.select("anthropic")
        await until(
            lambda: panel.masked.text() == "No key stored",
            what=f"key state {panel.masked.text()!r} {panel.result.text()!r}",
        )
        panel.field.setText(KEY)
        panel.save.click()
        await until(lambda: "Key saved" in panel.result.text(), what="saved")
        assert keyring_backend.passwords[("agentdesk", "anthropic")] == KEY
        assert KEY not in panel.masked.text() and KEY[-4:] in panel.masked.text()
        assert panel.field.text() == ""
        assert panel.save.text() == "Replace key"
        panel.field.setText(KEY + "-new")
        panel.save.click()
        await until(lambda: panel.save.isEnabled() and "Key saved" in panel.result.text())
        assert keyring_backend.passwords[("agentdesk", "anthropic")] == KEY + "-new"
        assert dialog.save()
        text = SettingsStore().path.read_text()
        assert KEY not in text and "sk-test" not in text
        panel.delete.click()
        await until(lambda: panel.result.text() == "Key deleted.", what="deleted")
        assert ("agentdesk", "anthropic") not in keyring_backend.passwords
        assert panel.masked.text() == "No key stored"
        await until(lambda: dialog.catalogue.ready, what="catalogue lookup")
        await runtime.aclose()
        dialog.deleteLater()

    qloop.run_until_complete(asyncio.wait_for(body(), 20))


def test_without_a_secure_keyring_keys_stay_in_memory(
    qloop: asyncio.AbstractEventLoop, runtime: AsyncRuntime
) -> None:
    backend = InMemoryKeyring()
    insecure = SecretStore(backend, secure=False, environ={})

    async def body() -> None:
        dialog = SettingsDialog(SettingsServices(SettingsStore(), insecure), runtime.scope("t"))
        assert "No secure system keyring" in dialog.profiles.keyring_status.text()
        panel = dialog.profiles.keys
        await until(lambda: panel.masked.text() == "No key stored")
        panel.field.setText(KEY)
        panel.save.click()
        await until(lambda: "Key saved" in panel.result.text())
        assert "memory for this run only" in panel.masked.text()
        assert backend.passwords == {}
        await until(lambda: dialog.catalogue.ready, what="catalogue lookup")
        await runtime.aclose()
        dialog.deleteLater()

    qloop.run_until_complete(asyncio.wait_for(body(), 20))


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_connection_success_and_401(
    qloop: asyncio.AbstractEventLoop, runtime: AsyncRuntime, secrets: SecretStore, provider: str
) -> None:
    async def run_test(llm: FakeLLM) -> str:
        dialog = SettingsDialog(SettingsServices(SettingsStore(), secrets), runtime.scope("t"))
        dialog.profiles.select(provider)
        panel, form = dialog.profiles.keys, dialog.profiles.form
        url = llm.url if provider == "anthropic" else llm.openai_base_url
        form.editors["base_url"].set_value(url)
        await until(lambda: panel.test.isEnabled() and panel.masked.text() != "—")
        panel.field.setText(KEY)
        panel.result.clear()
        panel.test.click()
        await until(
            lambda: panel.test.isEnabled() and panel.result.text() not in ("", "Testing…"),
            what=f"a test result, not {panel.result.text()!r}",
        )
        await until(lambda: dialog.catalogue.ready, what="catalogue lookup")
        dialog.deleteLater()
        return panel.result.text()

    with FakeLLM() as llm:
        ok = qloop.run_until_complete(asyncio.wait_for(run_test(llm), 30))
        assert ok.startswith("Connected"), ok
        [request] = llm.model_requests
        assert request.body["max_tokens"] == 1
        sent = json.dumps(request.headers)
        assert KEY in sent  # the typed key was the one tested
    with RejectingLLM() as llm:
        bad = qloop.run_until_complete(asyncio.wait_for(run_test(llm), 30))
        assert "rejected (HTTP 401)" in bad and KEY not in bad
    qloop.run_until_complete(runtime.aclose())
