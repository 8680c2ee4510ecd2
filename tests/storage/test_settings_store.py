"""Settings: defaults, atomic saves, corrupt files, and migrations from every earlier version."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from desktop.core.remote.config import RemoteRuntimeConfig
from desktop.core.settings import (
    SCHEMA_VERSION,
    AionrsAgent,
    BuiltinAgent,
    CustomAgent,
    RemoteAgent,
    Settings,
    SettingsStore,
    Theme,
    settings_path,
)
from desktop.core.settings.migrations import MIGRATIONS

FIXTURES = Path(__file__).parent / "fixtures"


def put_fixture(name: str) -> Path:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURES / name, path)
    return path


def siblings(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def test_fresh_install_has_anthropic_and_openai_profiles(agentdesk_home: Path) -> None:
    store = SettingsStore()
    assert store.path == agentdesk_home / "config" / "settings.json"
    assert [(p.name, p.provider) for p in store.settings.profiles] == [
        ("anthropic", "anthropic"),
        ("openai", "openai"),
    ]
    on_disk = json.loads(store.path.read_text())
    assert on_disk["schema_version"] == SCHEMA_VERSION
    assert store.messages == []
    assert store.path.stat().st_mode & 0o777 == 0o600


def test_save_roundtrip_notifies_and_leaves_no_temp_files() -> None:
    store = SettingsStore()
    seen: list[str] = []
    store.subscribe(seen.append)
    new = store.settings.model_copy(
        update={"appearance": store.settings.appearance.model_copy(update={"theme": Theme.DARK})}
    )
    store.save(new, "appearance")
    assert seen == ["appearance"]
    assert SettingsStore().settings.appearance.theme == Theme.DARK
    assert siblings(store.path) == ["settings.json"]


def test_invalid_settings_are_not_written() -> None:
    store = SettingsStore()
    before = store.path.read_bytes()
    bad = store.settings.model_copy(update={"default_agent": "has space"})
    with pytest.raises(ValidationError):
        store.save(bad)
    assert store.path.read_bytes() == before


def test_failed_write_keeps_the_old_file(monkeypatch: pytest.MonkeyPatch) -> None:
    store = SettingsStore()
    before = store.path.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        store.save(store.settings.with_recent_workspace("/x"))
    monkeypatch.undo()
    assert store.path.read_bytes() == before
    assert siblings(store.path) == ["settings.json"]


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"[1, 2]",
        b"\xff\xfe garbage",
        b'{"schema_version": 2, "profiles": 5}',
        b'{"schema_version": "two"}',
    ],
)
def test_corrupt_file_is_moved_aside_and_defaults_used(content: bytes) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    store = SettingsStore()
    assert store.settings == Settings()
    assert len(store.messages) == 1 and "moved to settings.json.corrupt-" in store.messages[0]
    moved = [p for p in path.parent.iterdir() if p.name.startswith("settings.json.corrupt-")]
    assert [p.read_bytes() for p in moved] == [content]
    assert json.loads(path.read_text())["schema_version"] == SCHEMA_VERSION


def test_every_earlier_version_has_a_fixture() -> None:
    versions = {
        json.loads((FIXTURES / f).read_text()).get("schema_version", 0)
        for f in os.listdir(FIXTURES)
        if f.startswith("settings_v")
    }
    assert versions == set(range(len(MIGRATIONS)))


def test_migrates_version_0() -> None:
    path = put_fixture("settings_v0.json")
    original = path.read_bytes()
    store = SettingsStore()
    s = store.settings
    openai = s.profile("openai")
    assert openai is not None
    assert (openai.model, openai.base_url, openai.max_tokens) == (
        "gpt-4o",
        "http://127.0.0.1:8000/v1",
        4096,
    )
    assert s.profile("anthropic") is not None
    assert s.agent("builtin") == BuiltinAgent(name="builtin", profile="openai")
    assert s.agent("custom") == CustomAgent(
        name="custom", command=["python", "my_agent.py", "--json-stream"]
    )
    assert s.default_agent == "custom"
    assert (s.approvals.mode, s.appearance.theme, s.appearance.font_size) == (
        "auto_edit",
        "dark",
        13,
    )
    assert s.recent_workspaces == ["/home/u/project", "/home/u/other"]
    assert "upgraded from version 0" in store.messages[0]
    assert (path.parent / "settings.json.v0.bak").read_bytes() == original
    assert json.loads(path.read_text())["schema_version"] == SCHEMA_VERSION
    assert SettingsStore().messages == []  # upgraded once


def test_migrates_version_1() -> None:
    put_fixture("settings_v1.json")
    s = SettingsStore().settings
    work = s.profile("work")
    assert work is not None and (work.model, work.max_tokens) == ("claude-opus-4", 8000)
    assert s.agent("builtin") == BuiltinAgent(name="builtin", profile="work")
    assert s.agent("aionrs") == AionrsAgent(name="aionrs")
    assert s.agent("mine") == CustomAgent(
        name="mine", command=["/usr/bin/env", "my-agent"], env={"LOG": "1"}
    )
    assert (s.default_agent, s.approvals.mode, s.appearance.theme) == ("mine", "yolo", "light")


def test_failed_migration_keeps_the_old_file() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = json.loads((FIXTURES / "settings_v1.json").read_text())
    doc["agents"]["broken"] = {"what": "neither profile nor command"}
    path.write_text(json.dumps(doc))
    original = path.read_bytes()
    store = SettingsStore()
    assert store.settings == Settings()
    assert "could not be upgraded" in store.messages[0]
    assert "broken" in store.messages[0]
    assert path.read_bytes() == original
    backups = [p for p in path.parent.iterdir() if p.name.startswith("settings.json.v1-")]
    assert [b.read_bytes() for b in backups] == [original]


def test_newer_file_is_not_overwritten_on_load() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"schema_version": SCHEMA_VERSION + 1, "future": True}))
    original = path.read_bytes()
    store = SettingsStore()
    assert "newer Agent Desk" in store.messages[0]
    assert path.read_bytes() == original


def test_secret_looking_environment_is_rejected() -> None:
    with pytest.raises(ValidationError, match="keyring"):
        CustomAgent(name="x", command=["x"], env={"OPENAI_API_KEY": "sk-123"})
    with pytest.raises(ValidationError, match="keyring"):
        AionrsAgent(name="a", env={"GITHUB_TOKEN": "t"})
    assert CustomAgent(name="x", command=["x"], env={"TOKENIZERS_PARALLELISM": "1"}).env


def test_agents_are_a_discriminated_union_including_remote() -> None:
    runtime = RemoteRuntimeConfig(address="10.0.0.2", user_id="u", workspace_id="w")
    s = Settings(
        agents=[BuiltinAgent(name="b", profile="anthropic"), RemoteAgent(name="r", runtime=runtime)]
    )
    again = Settings.model_validate_json(s.model_dump_json())
    assert again == s
    assert isinstance(again.agents[1], RemoteAgent)
    assert again.agents[1].runtime.address == "10.0.0.2:42618"
    with pytest.raises(ValidationError, match="named like a profile"):
        Settings(agents=[RemoteAgent(name="openai", runtime=runtime)])
    with pytest.raises(ValidationError, match="duplicate profile"):
        Settings(profiles=[*Settings().profiles, Settings().profiles[0]])


def test_schema_has_titles_for_the_generated_dialog() -> None:
    schema = Settings.model_json_schema()
    profile = schema["$defs"]["ProviderProfile"]["properties"]
    assert {k: v.get("title") for k, v in profile.items()} == {
        "name": "Name",
        "provider": "Provider",
        "model": "Model",
        "base_url": "Base URL",
        "max_tokens": "Max tokens",
    }
    assert set(schema["properties"]["agents"]["items"]["discriminator"]["mapping"]) == {
        "builtin",
        "aionrs",
        "custom",
        "remote",
        "acp",
        "codex",
    }


def test_new_anthropic_profiles_default_to_a_current_model() -> None:
    fresh = SettingsStore().settings.profile("anthropic")
    assert fresh is not None and fresh.model == "claude-sonnet-4-6"
    put_fixture("settings_v0.json")  # an openai-only prototype file gets the default profile
    migrated = SettingsStore().settings.profile("anthropic")
    assert migrated is not None and migrated.model == "claude-sonnet-4-6"
