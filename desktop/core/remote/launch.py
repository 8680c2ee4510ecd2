"""From a configured remote agent to a backend factory, with its signing key from the keyring.

The key is stored like an API key (keyring service ``agentdesk``, user name = the agent's name,
``agentdesk keys set NAME``) and is only ever held in memory by the backend.
"""

from __future__ import annotations

from desktop.core.agents import AgentChoice, AgentNotFoundError
from desktop.core.remote.config import RemoteRuntimeConfig, make_remote_factory
from desktop.core.secrets import SecretStore
from desktop.core.session import BackendFactory
from desktop.core.settings import RemoteAgent, Settings


class MissingSigningKeyError(AgentNotFoundError):
    """No signing key is stored for a remote agent."""


async def remote_factory_for(
    name: str, runtime: RemoteRuntimeConfig, secrets: SecretStore, *, ready_timeout: float = 15.0
) -> BackendFactory:
    """The backend factory of the remote agent ``name``.

    Raises:
        MissingSigningKeyError: no key is stored under ``name``.
        desktop.core.secrets.SecretStoreError: the keyring failed.
    """
    stored = await secrets.get(name)
    if stored is None or not stored.value.get_secret_value():
        raise MissingSigningKeyError(
            f"remote agent {name!r} has no signing key: run `agentdesk keys set {name}`"
        )
    return make_remote_factory(
        runtime, stored.value.get_secret_value(), name=name, ready_timeout=ready_timeout
    )


async def resolve_remote_agent(
    settings: Settings, secrets: SecretStore, agent: str | None, profile: str | None = None
) -> tuple[AgentChoice, BackendFactory] | None:
    """``--agent NAME`` (default: the settings' default agent) if it is a remote runtime.

    Returns None for every other kind (they are launched as local processes). The choice's
    ``resume_flag`` marks the agent as keeping sessions: a continued conversation resumes with
    its stored session id, which the runtime keys its state by.

    Raises:
        MissingSigningKeyError: no signing key is stored for it.
        AgentNotFoundError: ``--profile`` was given for a remote agent.
        desktop.core.secrets.SecretStoreError: the keyring failed.
    """
    name = agent or (None if profile else settings.default_agent)
    config = settings.agent(name) if name else None
    if not isinstance(config, RemoteAgent):
        return None
    if profile:
        raise AgentNotFoundError("--profile applies to the built-in agent, not a remote runtime")
    factory = await remote_factory_for(config.name, config.runtime, secrets)
    choice = AgentChoice(name=config.name, command=[], protocol="remote", resume_flag="session_id")
    return choice, factory
