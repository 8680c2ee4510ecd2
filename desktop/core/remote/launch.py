"""From a configured remote agent to a backend factory, with its signing key from the keyring.

The key is stored like an API key (keyring service ``agentdesk``, user name = the agent's name,
``agentdesk keys set NAME``) and is only ever held in memory by the backend.
"""

from __future__ import annotations

from desktop.core.agents import AgentNotFoundError
from desktop.core.remote.config import RemoteRuntimeConfig, make_remote_factory
from desktop.core.secrets import SecretStore
from desktop.core.session import BackendFactory


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
