"""From an ACP or Codex agent in the settings to a running backend.

``resolve_real_agent`` turns an ``AcpAgent``/``CodexAgent`` (or a catalogue name that is not in
the settings: ``codex``, ``claude``, ``gemini``, ``codex-acp``) into an ``AgentChoice`` plus the
keys for the child's environment; ``make_real_factory`` builds the backend factory. Each agent's
environment keeps only its own secrets (``agent_environment``); a Codex custom provider gets an
isolated ``CODEX_HOME`` under ``<data>/codex-homes/<agent>`` whose config names the key variable,
never the key.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from desktop.core.agents import AgentChoice, AgentNotFoundError, StartProblem, child_environment
from desktop.core.backend import AgentBackend
from desktop.core.catalogue.entries import (
    CatalogueEntry,
    agent_environment,
    catalogue_entry,
    find_entry_program,
)
from desktop.core.paths import app_paths
from desktop.core.protocols.acp.adapter import AcpBackend, AcpLaunch
from desktop.core.protocols.codex.adapter import CodexAppServerBackend, CodexLaunch
from desktop.core.protocols.codex.config import (
    KEY_VARIABLE,
    CodexOptions,
    codex_environment,
    write_codex_home,
)
from desktop.core.secrets import SecretStore
from desktop.core.session import BackendFactory
from desktop.core.settings.models import AcpAgent, CodexAgent

#: ``resume_flag`` marker: the backend resumes by session id itself (no command-line flag).
RESUMES_BY_ID = "session_id"


def preset_agent(name: str) -> AcpAgent | CodexAgent | None:
    """The ready-made configuration for a catalogue name that is not in the settings."""
    entry = catalogue_entry(name)
    if entry is None:
        return None
    if entry.protocol == "codex":
        return CodexAgent(name=name)
    return AcpAgent.model_validate({"name": name, "preset": entry.key})


async def _key(secrets: SecretStore, profile: str, agent: str) -> str:
    from desktop.core.settings.launch import MissingKeyError

    stored = await secrets.get(profile)
    if stored is None:
        raise MissingKeyError(
            f"agent {agent!r} needs the key of profile {profile!r}: run "
            f"`agentdesk keys set {profile}`",
            subject=profile,
        )
    return stored.value.get_secret_value()


def _not_found(entry: CatalogueEntry | None, program: str) -> AgentNotFoundError:
    hint = (
        f"; install it with `npm install -g {entry.spec}` or from Settings → Agents"
        if entry is not None
        else ""
    )
    return AgentNotFoundError(
        f"{program!r} was not found on PATH or the login shell's PATH{hint}",
        problem=StartProblem.MISSING_PROGRAM,
        subject=program,
    )


async def resolve_real_agent(
    config: AcpAgent | CodexAgent, secrets: SecretStore
) -> tuple[AgentChoice, dict[str, str]]:
    """The choice (command, protocol, options) and the keys for the child's environment.

    Raises:
        AgentNotFoundError: the program is missing.
        desktop.core.settings.launch.MissingKeyError: a referenced key is not stored.
    """
    keys: dict[str, str] = {}
    if isinstance(config, CodexAgent):
        entry = catalogue_entry("codex")
        assert entry is not None
        argv = find_entry_program(entry, config.command)
        if argv is None:
            raise _not_found(entry, config.command)
        options = CodexOptions(
            model=config.model,
            base_url=config.base_url,
            approval_policy=config.approval_policy,
            sandbox=config.sandbox,
        )
        if config.key_profile:
            variable = KEY_VARIABLE if options.custom_provider else "OPENAI_API_KEY"
            keys[variable] = await _key(secrets, config.key_profile, config.name)
        choice = AgentChoice(
            name=config.name,
            command=argv,
            protocol="codex",
            env=dict(config.env),
            resume_flag=RESUMES_BY_ID,
            options={"entry": "codex", "codex": options},
        )
        return choice, keys
    preset = None if config.preset == "custom" else catalogue_entry(config.preset)
    if preset is None:
        program = config.command[0]
        found = program if os.sep in program else None
        from desktop.core.shell_env import find_program

        found = found or find_program(program)
        if found is None:
            raise _not_found(None, program)
        argv = [found, *config.command[1:]]
    else:
        override = config.command[0] if config.command else None
        found_argv = find_entry_program(preset, override)
        if found_argv is None:
            raise _not_found(preset, override or preset.program)
        argv = [*found_argv, *config.command[1:]]
    for variable, profile in config.key_env.items():
        keys[variable] = await _key(secrets, profile, config.name)
    env = dict(config.env)
    if config.base_url and preset is not None and preset.base_url_variable:
        env[preset.base_url_variable] = config.base_url
    options_map: dict[str, object] = {
        "entry": preset.key if preset else None,
        "serve_fs": preset.serve_fs if preset else True,
    }
    if preset is not None and preset.key == "codex-acp" and config.base_url:
        options_map["codex"] = CodexOptions(base_url=config.base_url)
    choice = AgentChoice(
        name=config.name,
        command=argv,
        protocol="acp",
        env=env,
        resume_flag=RESUMES_BY_ID,
        options=options_map,
    )
    return choice, keys


def _codex_home(choice: AgentChoice, options: CodexOptions, workspace: Path) -> Path | None:
    if not options.custom_provider:
        return None
    folder = app_paths().data / "codex-homes" / choice.name
    return write_codex_home(folder, options, workspace)


def make_real_factory(
    choice: AgentChoice,
    workspace: Path,
    *,
    env: Mapping[str, str] | None = None,
    ready_timeout: float = 60.0,
) -> BackendFactory:
    """A factory for an ACP or Codex ``choice`` (``env``: keys and extra variables)."""
    options = choice.options
    entry_key = options.get("entry")
    entry = catalogue_entry(entry_key) if isinstance(entry_key, str) else None
    base_env = agent_environment(child_environment(), entry, {**choice.env, **(env or {})})
    codex = options.get("codex")
    if choice.protocol == "codex" and not isinstance(codex, CodexOptions):
        codex = CodexOptions()  # a custom command speaking app-server keeps its own config

    def factory(resume_id: str | None) -> AgentBackend:
        child_env = dict(base_env)
        if isinstance(codex, CodexOptions) and codex.custom_provider:
            key = child_env.pop(KEY_VARIABLE, None)
            home = _codex_home(choice, codex, workspace)
            child_env = codex_environment(child_env, codex, home, key)
        if choice.protocol == "codex":
            assert isinstance(codex, CodexOptions)
            launch = CodexLaunch(
                argv=list(choice.command),
                cwd=workspace,
                env=child_env,
                name=choice.name,
                options=codex,
            )
            return CodexAppServerBackend(launch, resume_id=resume_id, ready_timeout=ready_timeout)
        acp = AcpLaunch(
            argv=list(choice.command),
            cwd=workspace,
            env=child_env,
            name=choice.name,
            serve_fs=bool(options.get("serve_fs", True)),
        )
        return AcpBackend(acp, resume_id=resume_id, ready_timeout=ready_timeout)

    return factory
