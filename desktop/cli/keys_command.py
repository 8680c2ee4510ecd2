"""``agentdesk keys set|list|delete``: API keys of provider profiles, in the OS keyring only.

``keys set`` reads the key from standard input when it is not a terminal, otherwise from a
no-echo prompt; the key is never an argument (argv is visible to every user of the machine).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys

from desktop.core.secrets import PROVIDER_ENV, KeySource, SecretStore, SecretStoreError, mask
from desktop.core.settings import SettingsStore

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``keys set PROFILE``, ``keys list`` and ``keys delete PROFILE``."""
    commands = parser.add_subparsers(dest="action", required=True)
    setter = commands.add_parser("set", help="store the key of a profile (read from stdin)")
    setter.add_argument("profile")
    commands.add_parser("list", help="profiles and whether a key is stored (masked)")
    deleter = commands.add_parser("delete", help="remove the stored key of a profile")
    deleter.add_argument("profile")


def _read_key(profile: str) -> str:
    if sys.stdin.isatty():
        return getpass.getpass(f"API key for {profile}: ")
    return sys.stdin.readline()


async def _set(store: SecretStore, profile: str, provider: str) -> int:
    if not store.status.secure:
        print(
            f"agentdesk: the key cannot be stored: {store.status.message} For this shell, set "
            f"{PROVIDER_ENV.get(provider, 'the key variable')} instead.",
            file=sys.stderr,
        )
        return EXIT_FAILED
    key = _read_key(profile).strip()
    if not key:
        print("agentdesk: no key given", file=sys.stderr)
        return EXIT_USAGE
    await store.set(profile, key)
    print(f"Stored the key of {profile} ({mask(key)}) in the system keyring.")
    return EXIT_OK


async def _list(store: SecretStore, profiles: list[tuple[str, str]]) -> int:
    print(store.status.message)
    for name, provider in profiles:
        found = await store.get(name, provider)
        if found is None:
            state = "no key"
        elif found.source == KeySource.ENVIRONMENT:
            state = f"from {PROVIDER_ENV[provider]} ({mask(found.value.get_secret_value())})"
        else:
            state = f"stored ({mask(found.value.get_secret_value())})"
        print(f"{name:<20} {provider:<10} {state}")
    return EXIT_OK


async def _delete(store: SecretStore, profile: str) -> int:
    if await store.delete(profile):
        print(f"Deleted the key of {profile}.")
        return EXIT_OK
    print(f"agentdesk: no key is stored for {profile}", file=sys.stderr)
    return EXIT_FAILED


async def _main(options: argparse.Namespace) -> int:
    settings = SettingsStore().settings
    profiles = [(p.name, p.provider.value) for p in settings.profiles]
    store = SecretStore(announce=False)
    if options.action == "list":
        return await _list(store, profiles)
    provider = dict(profiles).get(options.profile)
    if provider is None and options.action == "set":
        known = ", ".join(name for name, _ in profiles) or "none"
        print(f"agentdesk: unknown profile {options.profile!r} (known: {known})", file=sys.stderr)
        return EXIT_USAGE
    if options.action == "set":
        return await _set(store, options.profile, provider or "")
    return await _delete(store, options.profile)


def run(options: argparse.Namespace) -> int:
    """Run ``agentdesk keys`` and return its exit code."""
    try:
        return asyncio.run(_main(options))
    except SecretStoreError as exc:
        print(f"agentdesk: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except (KeyboardInterrupt, EOFError):
        return EXIT_FAILED
