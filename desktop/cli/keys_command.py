"""``agentdesk keys set|list|delete``: secrets in the OS keyring only.

Two kinds of names hold a key: provider profiles (their API key) and remote runtime agents
(their signing key, see ``desktop.core.launch``). Both live under the keyring service
``agentdesk`` with the name as user name; settings refuse a remote agent named like a profile, so
a name always means one thing. ``keys set`` reads the key from standard input when it is not a
terminal, otherwise from a no-echo prompt; the key is never an argument (argv is visible to every
user of the machine).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from dataclasses import dataclass

from desktop.core.secrets import PROVIDER_ENV, KeySource, SecretStore, SecretStoreError, mask
from desktop.core.settings import RemoteAgent, Settings, SettingsStore

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
REMOTE = "remote"


@dataclass(frozen=True)
class _Owner:
    """A name that holds a key: a profile (``kind`` = its provider) or a remote agent."""

    name: str
    kind: str

    @property
    def what(self) -> str:
        return "signing key" if self.kind == REMOTE else "API key"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``keys set NAME``, ``keys list [NAME]`` and ``keys delete NAME``."""
    commands = parser.add_subparsers(dest="action", required=True)
    setter = commands.add_parser(
        "set", help="store the API key of a profile or the signing key of a remote agent (stdin)"
    )
    setter.add_argument("profile", metavar="NAME", help="a profile or a remote agent")
    lister = commands.add_parser(
        "list", help="profiles and remote agents and whether a key is stored (masked)"
    )
    lister.add_argument("profile", metavar="NAME", nargs="?", help="show only this one")
    deleter = commands.add_parser("delete", help="remove the stored key of a profile or agent")
    deleter.add_argument("profile", metavar="NAME", help="a profile or a remote agent")


def _owners(settings: Settings) -> list[_Owner]:
    profiles = [_Owner(p.name, p.provider.value) for p in settings.profiles]
    remotes = [_Owner(a.name, REMOTE) for a in settings.agents if isinstance(a, RemoteAgent)]
    return profiles + remotes


def _unknown(name: str, owners: list[_Owner]) -> str:
    profiles = ", ".join(o.name for o in owners if o.kind != REMOTE) or "none"
    remotes = ", ".join(o.name for o in owners if o.kind == REMOTE) or "none"
    return (
        f"agentdesk: unknown profile or remote agent {name!r} (profiles: {profiles}; remote "
        f"agents: {remotes}). Add one with `agentdesk profiles add` or `agentdesk agents "
        "add-remote`."
    )


def _read_key(owner: _Owner) -> str:
    if sys.stdin.isatty():
        return getpass.getpass(f"{owner.what.capitalize()} for {owner.name}: ")
    return sys.stdin.readline()


async def _set(store: SecretStore, owner: _Owner) -> int:
    if not store.status.secure:
        if owner.kind == REMOTE:
            hint = "A remote agent's signing key can only come from the keyring."
        else:
            hint = (
                f"For this shell, set {PROVIDER_ENV.get(owner.kind, 'the key variable')} instead."
            )
        print(
            f"agentdesk: the key cannot be stored: {store.status.message} {hint}", file=sys.stderr
        )
        return EXIT_FAILED
    key = _read_key(owner).strip()
    if not key:
        print("agentdesk: no key given", file=sys.stderr)
        return EXIT_USAGE
    await store.set(owner.name, key)
    print(f"Stored the {owner.what} of {owner.name} ({mask(key)}) in the system keyring.")
    return EXIT_OK


async def _list(store: SecretStore, owners: list[_Owner]) -> int:
    print(store.status.message)
    for owner in owners:
        # A remote agent's kind is no provider, so no environment variable stands in for it.
        found = await store.get(owner.name, owner.kind)
        if found is None:
            state = "no key"
        elif found.source == KeySource.ENVIRONMENT:
            state = f"from {PROVIDER_ENV[owner.kind]} ({mask(found.value.get_secret_value())})"
        else:
            state = f"stored ({mask(found.value.get_secret_value())})"
        print(f"{owner.name:<20} {owner.kind:<10} {state}")
    return EXIT_OK


async def _delete(store: SecretStore, name: str, owner: _Owner | None, owners: list[_Owner]) -> int:
    if await store.delete(name):
        print(f"Deleted the {owner.what if owner else 'key'} of {name}.")
        return EXIT_OK
    if owner is None:  # a stale key of a removed agent can still be deleted, else say why not
        print(_unknown(name, owners), file=sys.stderr)
        return EXIT_USAGE
    print(f"agentdesk: no key is stored for {name}", file=sys.stderr)
    return EXIT_FAILED


async def _main(options: argparse.Namespace) -> int:
    owners = _owners(SettingsStore().settings)
    store = SecretStore(announce=False)
    name: str | None = options.profile
    owner = next((o for o in owners if o.name == name), None)
    if options.action == "list":
        if name is not None and owner is None:
            print(_unknown(name, owners), file=sys.stderr)
            return EXIT_USAGE
        return await _list(store, [owner] if owner else owners)
    assert name is not None
    if options.action == "set":
        if owner is None:
            print(_unknown(name, owners), file=sys.stderr)
            return EXIT_USAGE
        return await _set(store, owner)
    return await _delete(store, name, owner, owners)


def run(options: argparse.Namespace) -> int:
    """Run ``agentdesk keys`` and return its exit code."""
    try:
        return asyncio.run(_main(options))
    except SecretStoreError as exc:
        print(f"agentdesk: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except (KeyboardInterrupt, EOFError):
        return EXIT_FAILED
