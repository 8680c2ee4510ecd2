"""``agentdesk agents list|add-remote``: configured agents, and registering remote runtimes.

``add-remote`` stores only connection settings; the runtime's signing key goes into the OS
keyring with ``agentdesk keys set NAME`` and is never an argument (argv is visible to every user
of the machine).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pydantic import ValidationError

from desktop.core.remote.config import RemoteRuntimeConfig, TlsMode
from desktop.core.settings import RemoteAgent, SettingsStore

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``agents list`` and ``agents add-remote NAME ...``."""
    commands = parser.add_subparsers(dest="action", required=True)
    commands.add_parser("list", help="show the configured agents")
    add = commands.add_parser("add-remote", help="register a remote Agent Runtime (gRPC)")
    add.add_argument("name")
    add.add_argument("--address", required=True, help="HOST:PORT of the runtime (port 42618)")
    add.add_argument("--user-id", required=True)
    add.add_argument("--workspace-id", required=True)
    add.add_argument("--agent-id", default="", help="agent slug (default: the Manager routes)")
    add.add_argument("--system-prompt", default="", help="system prompt sent with every turn")
    add.add_argument("--ca", type=Path, default=None, help="PEM file of the CA to trust")
    add.add_argument("--client-cert", type=Path, default=None, help="PEM client certificate")
    add.add_argument("--client-key", type=Path, default=None, help="PEM client private key")
    add.add_argument("--tls-server-name", default=None, help="name in the server certificate")
    add.add_argument(
        "--plaintext", action="store_true", help="no TLS (default: TLS with the system roots)"
    )


def _list(store: SettingsStore) -> int:
    settings = store.settings
    for agent in settings.agents:
        default = " (default)" if agent.name == settings.default_agent else ""
        where = agent.runtime.address if isinstance(agent, RemoteAgent) else ""
        print(f"{agent.name:<20} {agent.kind:<8} {where}{default}".rstrip())
    return EXIT_OK


def _absolute(path: Path | None) -> Path | None:
    return None if path is None else path.expanduser().resolve()


def _add_remote(store: SettingsStore, options: argparse.Namespace) -> int:
    settings = store.settings
    if settings.agent(options.name) is not None:
        print(f"agentdesk: agent {options.name!r} already exists", file=sys.stderr)
        return EXIT_USAGE
    if options.plaintext and (options.ca or options.client_cert or options.client_key):
        print("agentdesk: --plaintext cannot be combined with certificates", file=sys.stderr)
        return EXIT_USAGE
    tls = TlsMode.OFF if options.plaintext else TlsMode.CUSTOM_CA if options.ca else TlsMode.SYSTEM
    try:
        agent = RemoteAgent(
            name=options.name,
            runtime=RemoteRuntimeConfig(
                address=options.address,
                tls=tls,
                ca_file=_absolute(options.ca),
                client_cert_file=_absolute(options.client_cert),
                client_key_file=_absolute(options.client_key),
                tls_server_name=options.tls_server_name,
                user_id=options.user_id,
                workspace_id=options.workspace_id,
                agent_id=options.agent_id,
                system_prompt=options.system_prompt,
            ),
        )
        updated = settings.model_copy(update={"agents": [*settings.agents, agent]})
        type(settings).model_validate(updated.model_dump())  # e.g. a name clash with a profile
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'settings'}: {e['msg']}" for e in exc.errors()
        )
        print(f"agentdesk: invalid remote agent: {problems}", file=sys.stderr)
        return EXIT_USAGE
    store.save(updated, "agents")
    print(
        f"Added remote agent {agent.name} ({agent.runtime.address}, TLS {tls.value}). Store its "
        f"signing key with `agentdesk keys set {agent.name}`."
    )
    return EXIT_OK


def run(options: argparse.Namespace) -> int:
    """Run ``agentdesk agents`` and return its exit code."""
    store = SettingsStore()
    if options.action == "list":
        return _list(store)
    return _add_remote(store, options)
