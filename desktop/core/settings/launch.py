"""From settings to a runnable agent: command line, environment and the keys it needs.

A provider profile becomes the built-in agent's flags (``--provider --model [--base-url]
[--max-tokens]``); its key, read from the keyring facade, goes only into the launch environment
(``ANTHROPIC_API_KEY``/``OPENAI_API_KEY``), never into argv, settings or logs; the spawn moves it
into a pipe the built-in agent inherits (``desktop.core.key_pipe``), out of its real environment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from desktop.core.agents import (
    BUILTIN_AGENT_ENV,
    AgentChoice,
    AgentNotFoundError,
    StartProblem,
    builtin_agent_command,
)
from desktop.core.secrets import PROVIDER_ENV, SecretStore
from desktop.core.settings.models import (
    AcpAgent,
    AionrsAgent,
    BuiltinAgent,
    CodexAgent,
    CustomAgent,
    ProviderProfile,
    RemoteAgent,
    Settings,
)
from desktop.core.shell_env import find_program


class MissingKeyError(AgentNotFoundError):
    """A profile has no key in the keyring, in memory or in the environment.

    ``subject`` is the profile, ``provider`` its provider type when known (a window offers a key
    field for it; the message keeps the command-line instruction for ``agentdesk exec``).
    """

    def __init__(self, message: str, *, subject: str = "", provider: str | None = None) -> None:
        super().__init__(message, problem=StartProblem.MISSING_KEY, subject=subject)
        self.provider = provider


@dataclass(frozen=True)
class Launch:
    """An agent ready to start: ``env`` holds the keys (pass it to ``make_backend_factory``)."""

    choice: AgentChoice
    env: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def secrets(self) -> list[str]:
        """The key values in ``env`` (to redact from anything written)."""
        return list(self.env.values())


def profile_args(profile: ProviderProfile) -> list[str]:
    """The built-in agent's command-line flags for ``profile`` (no key: that goes in env)."""
    args = ["--provider", profile.provider.value, "--model", profile.model]
    if profile.base_url:
        args += ["--base-url", profile.base_url]
    if profile.max_tokens is not None:
        args += ["--max-tokens", str(profile.max_tokens)]
    return args


async def profile_key_env(profile: ProviderProfile, secrets: SecretStore) -> dict[str, str]:
    """``{ENV_VAR: key}`` for the built-in agent running ``profile``.

    Raises:
        MissingKeyError: no key is stored or set in the environment.
        desktop.core.secrets.SecretStoreError: the keyring failed.
    """
    stored = await secrets.get(profile.name, profile.provider.value)
    variable = PROVIDER_ENV[profile.provider.value]
    if stored is None:
        raise MissingKeyError(
            f"profile {profile.name!r} has no API key: run `agentdesk keys set {profile.name}` "
            f"or set {variable}",
            subject=profile.name,
            provider=profile.provider.value,
        )
    return {variable: stored.value.get_secret_value()}


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


async def resolve_launch(
    settings: Settings,
    secrets: SecretStore,
    *,
    agent: str | None = None,
    profile: str | None = None,
) -> Launch:
    """Resolve ``--agent NAME`` (default: the settings' default agent) and ``--profile NAME``.

    ``--profile`` alone runs the built-in agent with that profile.

    Raises:
        AgentNotFoundError: unknown agent or profile, missing program, unsupported kind.
        MissingKeyError: the profile has no key.
        desktop.core.secrets.SecretStoreError: the keyring failed.
    """
    name = agent or (None if profile else settings.default_agent)
    config = settings.agent(name) if name else BuiltinAgent(name="builtin", profile=profile or "")
    if config is None and name:
        from desktop.core.catalogue.launch import preset_agent

        config = preset_agent(name)  # codex, claude, gemini, codex-acp work without settings
    if config is None:
        known = ", ".join(a.name for a in settings.agents) or "none"
        raise AgentNotFoundError(
            f"unknown agent {name!r} (configured: {known})",
            problem=StartProblem.UNKNOWN_AGENT,
            subject=str(name),
        )
    if profile and not isinstance(config, BuiltinAgent):
        raise AgentNotFoundError(f"--profile applies to the built-in agent, not {config.kind}")
    if isinstance(config, BuiltinAgent):
        chosen = _profile(settings, profile or config.profile)
        command = [*builtin_agent_command(), *profile_args(chosen)]
        return Launch(
            AgentChoice(name=config.name, command=command, env=BUILTIN_AGENT_ENV),
            await profile_key_env(chosen, secrets),
        )
    if isinstance(config, AionrsAgent):
        program = config.command if os.sep in config.command else find_program(config.command)
        if program is None:
            raise AgentNotFoundError(
                f"{config.command!r} was not found on PATH or the login shell's PATH",
                problem=StartProblem.MISSING_PROGRAM,
                subject=config.command,
            )
        command = [program, "--json-stream", *config.args]
        return Launch(AgentChoice(name=config.name, command=command, env=dict(config.env)))
    if isinstance(config, CustomAgent):
        program = config.command[0]
        found = program if os.sep in program else find_program(program)
        if found is None:
            raise AgentNotFoundError(
                f"{program!r} was not found on PATH or the login shell's PATH",
                problem=StartProblem.MISSING_PROGRAM,
                subject=program,
            )
        keys: dict[str, str] = {}
        for variable, profile_name in config.key_env.items():
            stored = await secrets.get(profile_name)
            if stored is None:
                raise MissingKeyError(
                    f"agent {config.name!r} needs the key of profile {profile_name!r}: run "
                    f"`agentdesk keys set {profile_name}`",
                    subject=profile_name,
                )
            keys[variable] = stored.value.get_secret_value()
        choice = AgentChoice(
            name=config.name,
            command=[found, *config.command[1:]],
            protocol=config.protocol.value,
            env=dict(config.env),
            resume_flag=config.resume_flag,
        )
        return Launch(choice, keys)
    if isinstance(config, AcpAgent | CodexAgent):
        from desktop.core.catalogue.launch import resolve_real_agent

        choice, keys = await resolve_real_agent(config, secrets)
        return Launch(choice, keys)
    assert isinstance(config, RemoteAgent)
    raise AgentNotFoundError(
        f"agent {config.name!r} is a remote runtime; it is not started as a local process"
    )
