"""Real agents (Codex, codex-acp, claude-agent-acp, Gemini CLI) against the fake LLM server.

The pinned npm packages are installed once into ``$AGENTDESK_TEST_NPM_CACHE`` (default
``~/.cache/agentdesk-test-agents``) with Agent Desk's own installer and reused afterwards. An
agent whose package cannot be installed makes its tests SKIP with npm's error.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from desktop.core.catalogue import (
    CATALOGUE,
    NpmInstallError,
    catalogue_entry,
    find_entry_program,
    install,
)
from desktop.core.launch.spec import LaunchAcp, LaunchCodex
from desktop.core.protocols.codex.config import KEY_VARIABLE, CodexOptions, Sandbox
from tests.fakes.fake_llm import FakeLLM
from tests.fakes.fake_llm_dialects import install_dialects

AGENTS = ("codex", "codex-acp", "claude", "gemini")


def npm_cache_root() -> Path:
    """Where the pinned packages live between runs."""
    configured = os.environ.get("AGENTDESK_TEST_NPM_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "agentdesk-test-agents"


@pytest.fixture(scope="session")
def npm_agents() -> dict[str, list[str] | str]:
    """``{key: argv}`` for installed agents, ``{key: error}`` for those npm could not install."""
    root = npm_cache_root()
    found: dict[str, list[str] | str] = {}
    for entry in CATALOGUE:
        try:
            asyncio.run(install(entry, root))
        except NpmInstallError as exc:
            found[entry.key] = str(exc)
            continue
        local = root / entry.key / "node_modules" / ".bin" / entry.program
        argv = find_entry_program(entry, str(local), root)
        found[entry.key] = argv if argv is not None else f"{local} is missing after install"
    return found


@dataclass
class RealAgent:
    """One agent set up against the fake LLM in a fresh workspace and HOME."""

    key: str
    choice: LaunchAcp | LaunchCodex
    workspace: Path
    llm: FakeLLM


@pytest.fixture
def llm() -> Iterator[FakeLLM]:
    with install_dialects(FakeLLM()) as server:
        yield server


def gemini_settings(home: Path) -> None:
    folder = home / ".gemini"
    folder.mkdir(parents=True, exist_ok=True)
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
        "model": {"name": "gemini-2.5-flash"},
    }
    (folder / "settings.json").write_text(json.dumps(settings))


@pytest.fixture
def make_agent(
    npm_agents: dict[str, list[str] | str],
    llm: FakeLLM,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> object:
    """``make_agent(key, sandbox=...)`` → ``RealAgent`` (skips when npm failed for it)."""
    home = tmp_path / "home"
    home.mkdir()
    workspace = tmp_path / "ws"
    workspace.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    for name in list(os.environ):
        if name.startswith(("OPENAI_", "CODEX_", "ANTHROPIC_", "GEMINI_", "GOOGLE_")):
            monkeypatch.delenv(name)

    def make(key: str, sandbox: Sandbox = "workspace-write") -> RealAgent:
        argv = npm_agents[key]
        if isinstance(argv, str):
            pytest.skip(f"npm could not install {key}: {argv}")
        entry = catalogue_entry(key)
        assert entry is not None
        env: dict[str, str] = {}
        codex = None
        if key in ("codex", "codex-acp"):
            codex = CodexOptions(model="fake-model", base_url=llm.openai_base_url, sandbox=sandbox)
            env[KEY_VARIABLE] = "sk-fake"
        elif key == "claude":
            env.update(ANTHROPIC_BASE_URL=llm.url, ANTHROPIC_API_KEY="sk-ant-fake")
        else:
            gemini_settings(home)
            env.update(GEMINI_API_KEY="fake-key", GOOGLE_GEMINI_BASE_URL=llm.url)
        choice: LaunchAcp | LaunchCodex
        if entry.protocol == "codex":
            assert codex is not None
            choice = LaunchCodex(key, list(argv), codex, keys=env, entry=key)
        else:
            choice = LaunchAcp(
                key, list(argv), keys=env, entry=key, serve_fs=entry.serve_fs, codex=codex
            )
        return RealAgent(key, choice, workspace, llm)

    return make
