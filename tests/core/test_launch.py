"""Agent launch resolution: login-shell PATH, child environment hygiene."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from desktop.core import shell_env
from desktop.core.launch.locate import child_environment
from desktop.core.launch.resolve import command_launch, resolve
from desktop.core.launch.spec import AgentNotFoundError, AgentRef, LaunchAionrs
from desktop.core.secrets import SecretStore
from desktop.core.settings import Settings


async def resolve_agent(name: str) -> object:
    """``--agent NAME`` with a fresh install's settings."""
    return await resolve(AgentRef(name), Settings(), SecretStore(environ={}))


def executable(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def login_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A login shell whose profile adds a folder that the app's own PATH lacks."""
    tools = tmp_path / "user-bin"
    tools.mkdir()
    executable(tools / "aionrs", "echo aionrs 0.2.10\n")
    shell = executable(
        tmp_path / "fake-shell", f'PATH="{tools}:$PATH"; export PATH; shift 2; shift; eval "$1"\n'
    )
    monkeypatch.setenv("SHELL", str(shell))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    shell_env.login_shell_path.cache_clear()
    yield tools
    shell_env.login_shell_path.cache_clear()


@pytest.mark.asyncio
async def test_aionrs_is_found_through_the_login_shell_path(
    login_shell: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHLVL", "1")  # even from a terminal, a missing program is looked up
    choice = await resolve_agent("aionrs")
    assert isinstance(choice, LaunchAionrs)
    assert choice.command == [str(login_shell / "aionrs"), "--json-stream"]


def test_started_from_a_desktop_the_agents_get_the_login_shell_path(
    login_shell: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SHLVL", raising=False)
    assert str(login_shell) in child_environment()["PATH"].split(os.pathsep)


def test_started_from_a_shell_the_login_shell_is_not_asked_again(
    login_shell: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHLVL", "2")
    assert child_environment()["PATH"] == "/usr/bin:/bin"
    assert shell_env.login_shell_path.cache_info().currsize == 0


@pytest.mark.asyncio
async def test_missing_aionrs_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHELL", str(executable(tmp_path / "sh", "exit 1\n")))
    monkeypatch.setenv("PATH", str(tmp_path))
    shell_env.login_shell_path.cache_clear()
    with pytest.raises(AgentNotFoundError, match="aionrs was not found"):
        await resolve_agent("aionrs")
    shell_env.login_shell_path.cache_clear()


def test_child_environment_drops_generic_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PROVIDER", "API_KEY", "BASE_URL", "MODEL"):
        monkeypatch.setenv(name, "parent-value")
    env = child_environment({"ANTHROPIC_API_KEY": "k"})
    assert not {"PROVIDER", "API_KEY", "BASE_URL", "MODEL"} & set(env)
    assert env["ANTHROPIC_API_KEY"] == "k"


def test_agent_cmd_is_split_like_a_shell() -> None:
    choice = command_launch("sh -c 'echo hi there'")
    assert choice.command[1:] == ["-c", "echo hi there"]
    assert choice.name == "sh"
