"""The two checks every launch makes: is the program there, and is the key there.

``require_program`` is the one place that looks a program up (the login shell's PATH, or the
catalogue's npm folder and native binary) and says "not found"; ``require_key`` the one place
that reads a key from the keyring facade and says which command stores it. Also the child's
environment (``child_environment``) and the built-in agent's command line. Light: no pydantic.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from desktop.core.catalogue.entries import CatalogueEntry, find_entry_program
from desktop.core.key_pipe import KEY_PIPE_ENV
from desktop.core.launch.spec import (
    AgentNotFoundError,
    MissingKeyError,
    MissingSigningKeyError,
)
from desktop.core.shell_env import find_program, search_path
from desktop.core.start_problem import StartProblem

if TYPE_CHECKING:
    from desktop.core.secrets import SecretStore

_STRIPPED_ENV = ("PROVIDER", "API_KEY", "BASE_URL", "MODEL")
BUILTIN_AGENT_ENV: Mapping[str, str] = {KEY_PIPE_ENV: "1"}
"""The built-in agent takes its provider keys from an inherited pipe (``desktop.core.key_pipe``):
its environment, readable by every command it runs, never holds them."""


def builtin_agent_command() -> list[str]:
    """The command that runs Agent Desk's own agent with this interpreter (or frozen bundle)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "agent", "--json-stream"]
    return [sys.executable, "-m", "desktop.agent", "--json-stream"]


def child_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The parent's environment minus aionrs's generic ``PROVIDER``/``API_KEY``/``BASE_URL``/
    ``MODEL`` (they would silently override the agent's configuration), with PATH as the login
    shell has it, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in _STRIPPED_ENV}
    env["PATH"] = search_path()
    env.setdefault("PYTHONUNBUFFERED", "1")
    env.update(extra or {})
    return env


def require_program(
    program: str, entry: CatalogueEntry | None = None, *, hint: str = ""
) -> list[str]:
    """The argv prefix that runs ``program`` (a path, or a name on the login shell's PATH; for a
    catalogue ``entry`` also its npm folder and native binary).

    Raises:
        AgentNotFoundError: (``missing_program``) it is nowhere; the message names ``hint``, or
            for a catalogue entry how to install it.
    """
    if entry is not None:
        found = find_entry_program(entry, program)
        hint = f"; install it with `npm install -g {entry.spec}` or from Settings → Agents"
    else:
        path = program if os.sep in program else find_program(program)
        found = [path] if path is not None else None
    if found is None:
        raise AgentNotFoundError(
            f"{program} was not found on PATH or the login shell's PATH{hint}",
            problem=StartProblem.MISSING_PROGRAM,
            subject=program,
        )
    return found


async def require_key(
    secrets: SecretStore,
    user: str,
    *,
    provider: str | None = None,
    needed_by: str | None = None,
    variable: str | None = None,
    signing: bool = False,
) -> str:
    """The key stored under ``user`` (a profile, or a remote agent's name when ``signing``).

    ``provider``: the profile's provider (its environment ``variable`` counts too, and the error
    names it); ``needed_by``: the agent that names the profile (said in the error).

    Raises:
        MissingKeyError: no key for a profile.
        MissingSigningKeyError: no signing key for a remote agent.
        desktop.core.secrets.SecretStoreError: the keyring failed.
    """
    stored = await secrets.get(user, provider)
    if stored is not None and stored.value.get_secret_value():
        return stored.value.get_secret_value()
    instruction = f"run `agentdesk keys set {user}`"
    if signing:
        raise MissingSigningKeyError(f"remote agent {user!r} has no signing key: {instruction}")
    if needed_by is not None:
        message = f"agent {needed_by!r} needs the key of profile {user!r}: {instruction}"
    else:
        message = f"profile {user!r} has no API key: {instruction} or set {variable}"
    raise MissingKeyError(message, subject=user, provider=provider)


async def require_keys(
    secrets: SecretStore, key_env: Mapping[str, str], agent: str
) -> dict[str, str]:
    """``{VARIABLE: key}`` for an agent's ``key_env`` (variable → profile whose key goes there).

    Raises:
        MissingKeyError: a profile has no key.
        desktop.core.secrets.SecretStoreError: the keyring failed.
    """
    return {
        variable: await require_key(secrets, profile, needed_by=agent)
        for variable, profile in key_env.items()
    }
