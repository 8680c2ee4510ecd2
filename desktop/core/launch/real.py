"""The ready-made real agents: ACP and Codex agents from the settings or the catalogue.

An ``AcpAgent``/``CodexAgent`` (or a catalogue name that is not in the settings: ``codex``,
``claude``, ``gemini``, ``codex-acp``) becomes a ``LaunchAcp``/``LaunchCodex`` with the keys for
the child's environment. A Codex custom provider's key goes under ``KEY_VARIABLE`` (its isolated
``CODEX_HOME`` names that variable, never the key). Imported by ``resolve`` only for these kinds,
which come from the (already loaded) settings.
"""

from __future__ import annotations

from desktop.core.catalogue.entries import catalogue_entry
from desktop.core.launch.locate import require_key, require_keys, require_program
from desktop.core.launch.spec import LaunchAcp, LaunchCodex
from desktop.core.protocols.codex.config import KEY_VARIABLE, CodexOptions
from desktop.core.secrets import SecretStore
from desktop.core.settings.models import AcpAgent, CodexAgent, CustomAgent


def preset_agent(name: str) -> AcpAgent | CodexAgent | None:
    """The ready-made configuration for a catalogue name that is not in the settings."""
    entry = catalogue_entry(name)
    if entry is None:
        return None
    if entry.protocol == "codex":
        return CodexAgent(name=name)
    return AcpAgent.model_validate({"name": name, "preset": entry.key})


async def real_launch(
    config: AcpAgent | CodexAgent | CustomAgent, secrets: SecretStore
) -> LaunchAcp | LaunchCodex:
    """The launch of an ACP or Codex agent (a custom command speaking either keeps its own
    configuration).

    Raises:
        AgentNotFoundError: the program is missing.
        MissingKeyError: a profile the agent needs has no key.
    """
    if isinstance(config, CodexAgent):
        return await _codex(config, secrets)
    if isinstance(config, AcpAgent):
        return await _acp(config, secrets)
    argv = [*require_program(config.command[0]), *config.command[1:]]
    keys = await require_keys(secrets, config.key_env, config.name)
    if config.protocol == "codex":
        return LaunchCodex(config.name, argv, CodexOptions(), dict(config.env), keys, entry=None)
    return LaunchAcp(config.name, argv, dict(config.env), keys)


async def _codex(config: CodexAgent, secrets: SecretStore) -> LaunchCodex:
    """Codex's app-server as ``config`` says (model, provider, sandbox, key profile).

    Raises:
        AgentNotFoundError: the program is missing.
        MissingKeyError: the key profile has no key.
    """
    entry = catalogue_entry("codex")
    assert entry is not None
    argv = require_program(config.command, entry)
    options = CodexOptions(
        model=config.model,
        base_url=config.base_url,
        approval_policy=config.approval_policy,
        sandbox=config.sandbox,
    )
    keys: dict[str, str] = {}
    if config.key_profile:
        variable = KEY_VARIABLE if options.custom_provider else "OPENAI_API_KEY"
        keys[variable] = await require_key(secrets, config.key_profile, needed_by=config.name)
    return LaunchCodex(
        name=config.name, command=argv, options=options, env=dict(config.env), keys=keys
    )


async def _acp(config: AcpAgent, secrets: SecretStore) -> LaunchAcp:
    """An ACP agent: a catalogue preset (its program overridable) or a custom command.

    Raises:
        AgentNotFoundError: the program is missing.
        MissingKeyError: a profile named in ``key_env`` has no key.
    """
    preset = None if config.preset == "custom" else catalogue_entry(config.preset)
    if preset is None:
        argv = [*require_program(config.command[0]), *config.command[1:]]
    else:
        override = config.command[0] if config.command else None
        argv = [*require_program(override or preset.program, preset), *config.command[1:]]
    keys = await require_keys(secrets, config.key_env, config.name)
    env = dict(config.env)
    if config.base_url and preset is not None and preset.base_url_variable:
        env[preset.base_url_variable] = config.base_url
    codex = None
    if preset is not None and preset.key == "codex-acp" and config.base_url:
        codex = CodexOptions(base_url=config.base_url)
    return LaunchAcp(
        name=config.name,
        command=argv,
        env=env,
        keys=keys,
        entry=preset.key if preset else None,
        serve_fs=preset.serve_fs if preset else True,
        codex=codex,
    )
