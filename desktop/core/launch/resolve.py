"""From ``--agent``/``--profile``/``--agent-cmd`` and the settings to a ``Launch``.

The one resolution both the window and ``agentdesk exec`` use. A provider profile becomes the
built-in agent's flags (``--provider --model [--base-url] [--max-tokens]``); its key, read from
the keyring facade, goes only into the launch's ``keys`` (``ANTHROPIC_API_KEY``/
``OPENAI_API_KEY``), never into argv, settings or logs; the spawn moves it into a pipe the
built-in agent inherits (``desktop.core.key_pipe``). Light at import time: the settings models
are only named for the type checker (configurations are told apart by their ``kind``), so
``exec --agent-cmd`` resolves and spawns its agent before pydantic loads.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.core.launch.locate import (
    BUILTIN_AGENT_ENV,
    builtin_agent_command,
    require_key,
    require_keys,
    require_program,
)
from desktop.core.launch.spec import (
    AgentNotFoundError,
    AgentRef,
    Launch,
    LaunchAionrs,
    LaunchRemote,
)
from desktop.core.start_problem import StartProblem

if TYPE_CHECKING:
    from desktop.core.secrets import SecretStore
    from desktop.core.settings.models import AnyAgent, ProviderProfile, Settings


def _display_name(argv: list[str]) -> str:
    """``python fake_agent.py`` is called ``fake_agent``, ``/usr/bin/aionrs`` ``aionrs``."""
    first = Path(argv[0]).stem
    if first.startswith("python") and len(argv) > 1 and not argv[1].startswith("-"):
        return Path(argv[1]).stem
    return first


def command_launch(command: str) -> LaunchAionrs:
    """``--agent-cmd "COMMAND ARGS"``: any program speaking the aionrs JSON Stream Protocol.

    Raises:
        AgentNotFoundError: the command is empty or its program is missing.
    """
    argv = shlex.split(command, posix=sys.platform != "win32")
    if not argv:
        raise AgentNotFoundError("--agent-cmd is empty")
    program = require_program(argv[0])
    return LaunchAionrs(name=_display_name(argv), command=[*program, *argv[1:]])


def profile_args(profile: ProviderProfile) -> list[str]:
    """The built-in agent's command-line flags for ``profile`` (no key: that goes in env)."""
    args = ["--provider", profile.provider.value, "--model", profile.model]
    if profile.base_url:
        args += ["--base-url", profile.base_url]
    if profile.max_tokens is not None:
        args += ["--max-tokens", str(profile.max_tokens)]
    return args


def _profile(settings: Settings, name: str) -> ProviderProfile:
    profile = settings.profile(name)
    if profile is None:
        known = ", ".join(p.name for p in settings.profiles) or "none"
        raise AgentNotFoundError(
            f"unknown profile {name!r} (known: {known})",
            problem=StartProblem.UNKNOWN_PROFILE,
            subject=name,
        )
    return profile


def _config(settings: Settings, ref: AgentRef) -> AnyAgent | None:
    """The configuration ``ref`` names (a catalogue preset when the settings lack it); None for
    ``--profile`` alone (the built-in agent with that profile)."""
    name = ref.name or (None if ref.profile else settings.default_agent)
    if name is None:
        return None
    config = settings.agent(name)
    if config is None:
        from desktop.core.launch import real  # ACP/Codex: their models load with the settings

        config = real.preset_agent(name)  # codex, claude, gemini, codex-acp work without settings
    if config is None:
        known = ", ".join(a.name for a in settings.agents) or "none"
        raise AgentNotFoundError(
            f"unknown agent {name!r} (configured: {known})",
            problem=StartProblem.UNKNOWN_AGENT,
            subject=name,
        )
    if ref.profile and config.kind == "remote":
        raise AgentNotFoundError("--profile applies to the built-in agent, not a remote runtime")
    if ref.profile and config.kind != "builtin":
        raise AgentNotFoundError(f"--profile applies to the built-in agent, not {config.kind}")
    return config


async def _builtin(name: str, profile: str, settings: Settings, secrets: SecretStore) -> Launch:
    """The built-in agent running ``profile``, its key in ``keys``."""
    from desktop.core.secrets import PROVIDER_ENV  # loaded with ``secrets`` already

    chosen = _profile(settings, profile)
    provider = chosen.provider.value
    variable = PROVIDER_ENV[provider]
    key = await require_key(secrets, chosen.name, provider=provider, variable=variable)
    command = [*builtin_agent_command(), *profile_args(chosen)]
    return LaunchAionrs(name, command, BUILTIN_AGENT_ENV, {variable: key})


async def resolve(ref: AgentRef, settings: Settings | None, secrets: SecretStore | None) -> Launch:
    """The launch of ``ref``: a command needs neither settings nor keys; a name (default: the
    settings' default agent) is looked up in ``settings``, its keys in ``secrets``.

    Raises:
        AgentNotFoundError: unknown agent or profile, missing program, ``--profile`` for an
            agent that is not the built-in one.
        MissingKeyError: a profile the agent needs has no key.
        MissingSigningKeyError: a remote agent has no signing key.
        desktop.core.secrets.SecretStoreError: the keyring failed.
    """
    if ref.command is not None:
        return command_launch(ref.command)
    assert settings is not None and secrets is not None, "a named agent needs the settings"
    config = _config(settings, ref)
    if config is None:
        return await _builtin("builtin", ref.profile or "", settings, secrets)
    if config.kind == "builtin":
        return await _builtin(config.name, ref.profile or config.profile, settings, secrets)
    if config.kind == "aionrs":
        command = [*require_program(config.command), "--json-stream", *config.args]
        return LaunchAionrs(config.name, command, dict(config.env))
    if config.kind == "remote":
        key = await require_key(secrets, config.name, signing=True)
        return LaunchRemote(config.name, config.runtime, key)
    if config.kind == "custom" and config.protocol == "aionrs":
        argv = [*require_program(config.command[0]), *config.command[1:]]
        keys = await require_keys(secrets, config.key_env, config.name)
        return LaunchAionrs(config.name, argv, dict(config.env), keys, config.resume_flag)
    from desktop.core.launch import real

    return await real.real_launch(config, secrets)
