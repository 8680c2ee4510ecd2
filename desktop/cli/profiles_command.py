"""``agentdesk profiles list|add|remove``: provider profiles in the settings file."""

from __future__ import annotations

import argparse
import asyncio
import sys

from pydantic import ValidationError

from desktop.core.secrets import SecretStore, SecretStoreError
from desktop.core.settings import BuiltinAgent, ProviderProfile, ProviderType, SettingsStore

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``profiles list``, ``profiles add NAME ...`` and ``profiles remove NAME``."""
    commands = parser.add_subparsers(dest="action", required=True)
    commands.add_parser("list", help="show the provider profiles")
    add = commands.add_parser("add", help="add a provider profile")
    add.add_argument("name")
    add.add_argument("--provider", required=True, choices=[p.value for p in ProviderType])
    add.add_argument("--model", required=True)
    add.add_argument("--base-url", default=None)
    add.add_argument("--max-tokens", type=int, default=None)
    remove = commands.add_parser("remove", help="remove a profile (and its stored key)")
    remove.add_argument("name")


def _list(store: SettingsStore) -> int:
    for p in store.settings.profiles:
        extras = [f"base_url={p.base_url}"] if p.base_url else []
        extras += [f"max_tokens={p.max_tokens}"] if p.max_tokens is not None else []
        print(f"{p.name:<20} {p.provider.value:<10} {p.model:<28} {' '.join(extras)}".rstrip())
    return EXIT_OK


def _add(store: SettingsStore, options: argparse.Namespace) -> int:
    settings = store.settings
    if settings.profile(options.name) is not None:
        print(f"agentdesk: profile {options.name!r} already exists", file=sys.stderr)
        return EXIT_USAGE
    try:
        profile = ProviderProfile(
            name=options.name,
            provider=ProviderType(options.provider),
            model=options.model,
            base_url=options.base_url,
            max_tokens=options.max_tokens,
        )
    except ValidationError as exc:
        problems = "; ".join(f"{e['loc'][0]}: {e['msg']}" for e in exc.errors())
        print(f"agentdesk: invalid profile: {problems}", file=sys.stderr)
        return EXIT_USAGE
    store.save(settings.model_copy(update={"profiles": [*settings.profiles, profile]}), "profiles")
    print(f"Added profile {profile.name}. Store its key with `agentdesk keys set {profile.name}`.")
    return EXIT_OK


def _remove(store: SettingsStore, name: str) -> int:
    settings = store.settings
    if settings.profile(name) is None:
        print(f"agentdesk: no profile {name!r}", file=sys.stderr)
        return EXIT_USAGE
    users = [a.name for a in settings.agents if isinstance(a, BuiltinAgent) and a.profile == name]
    if users:
        print(
            f"agentdesk: profile {name!r} is used by agent(s) {', '.join(users)}; change them "
            "first",
            file=sys.stderr,
        )
        return EXIT_FAILED
    profiles = [p for p in settings.profiles if p.name != name]
    store.save(settings.model_copy(update={"profiles": profiles}), "profiles")
    print(f"Removed profile {name}.")
    try:
        secrets = SecretStore(announce=False)
        if secrets.status.secure and asyncio.run(secrets.delete(name)):
            print("Deleted its stored key.")
    except SecretStoreError as exc:
        print(f"agentdesk: its stored key could not be deleted: {exc}", file=sys.stderr)
    return EXIT_OK


def run(options: argparse.Namespace) -> int:
    """Run ``agentdesk profiles`` and return its exit code."""
    store = SettingsStore()
    for message in store.messages:
        print(f"agentdesk: {message}", file=sys.stderr)
    if options.action == "list":
        return _list(store)
    if options.action == "add":
        return _add(store, options)
    return _remove(store, options.name)
