"""Which agent to run, and how: names, commands, environments and backend factories.

``--agent NAME`` picks a known agent; ``--agent-cmd "COMMAND ARGS"`` runs any program that speaks
the aionrs JSON Stream Protocol. The child environment never carries aionrs's generic
``PROVIDER``/``API_KEY``/``BASE_URL``/``MODEL`` variables from the parent (they would silently
override the agent's configuration).
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from desktop.core.key_pipe import KEY_PIPE_ENV
from desktop.core.lines import DEFAULT_LINE_LIMIT
from desktop.core.paths import app_paths
from desktop.core.shell_env import find_program, search_path

if TYPE_CHECKING:
    from desktop.core.backend import AgentBackend
    from desktop.core.session import BackendFactory

DEFAULT_AGENT = "builtin"
_STRIPPED_ENV = ("PROVIDER", "API_KEY", "BASE_URL", "MODEL")
BUILTIN_AGENT_ENV: Mapping[str, str] = {KEY_PIPE_ENV: "1"}
"""The built-in agent takes its provider keys from an inherited pipe (``desktop.core.key_pipe``):
its environment, readable by every command it runs, never holds them."""


class StartProblem(StrEnum):
    """Why an agent cannot start, in terms a window can act on (a closed set: a UI offers one
    fix per value, e.g. a key field for ``missing_key``, Install for ``missing_program``)."""

    MISSING_KEY = "missing_key"
    MISSING_PROGRAM = "missing_program"
    KEYRING_LOCKED = "keyring_locked"
    UNKNOWN_AGENT = "unknown_agent"
    UNKNOWN_PROFILE = "unknown_profile"
    UNAVAILABLE = "unavailable"


class AgentNotFoundError(Exception):
    """The chosen agent is unknown or its program is not installed.

    ``problem`` says which, ``subject`` what it is about (a profile, program or agent name); the
    message stays the sentence for the command line.
    """

    def __init__(
        self, message: str, *, problem: StartProblem = StartProblem.UNAVAILABLE, subject: str = ""
    ) -> None:
        super().__init__(message)
        self.problem = problem
        self.subject = subject


@dataclass(frozen=True)
class AgentChoice:
    """A resolved agent: its command line, protocol, and extra environment."""

    name: str
    command: list[str]
    protocol: str = "aionrs"
    env: Mapping[str, str] = field(default_factory=dict)
    resume_flag: str | None = "--resume"
    #: Protocol-specific launch options (ACP and Codex agents; see desktop.core.catalogue).
    options: Mapping[str, Any] = field(default_factory=dict)


def builtin_agent_command() -> list[str]:
    """The command that runs Agent Desk's own agent with this interpreter (or frozen bundle)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "agent", "--json-stream"]
    return [sys.executable, "-m", "desktop.agent", "--json-stream"]


def _display_name(argv: list[str]) -> str:
    """``python fake_agent.py`` is called ``fake_agent``, ``/usr/bin/aionrs`` ``aionrs``."""
    first = Path(argv[0]).stem
    if first.startswith("python") and len(argv) > 1 and not argv[1].startswith("-"):
        return Path(argv[1]).stem
    return first


def resolve_agent(name: str | None = None, command: str | None = None) -> AgentChoice:
    """Turn ``--agent``/``--agent-cmd`` into an ``AgentChoice``.

    Raises:
        AgentNotFoundError: unknown name, or its program is missing.
    """
    if command:
        argv = shlex.split(command, posix=sys.platform != "win32")
        if not argv:
            raise AgentNotFoundError("--agent-cmd is empty")
        program = find_program(argv[0]) if os.sep not in argv[0] else argv[0]
        if program is None:
            raise AgentNotFoundError(
                f"{argv[0]!r} was not found on PATH or the login shell's PATH",
                problem=StartProblem.MISSING_PROGRAM,
                subject=argv[0],
            )
        return AgentChoice(name=_display_name(argv), command=[program, *argv[1:]])
    name = name or DEFAULT_AGENT
    if name == "builtin":
        return AgentChoice(name="builtin", command=builtin_agent_command(), env=BUILTIN_AGENT_ENV)
    if name == "aionrs":
        program = find_program("aionrs")
        if program is None:
            raise AgentNotFoundError(
                "aionrs was not found on PATH or the login shell's PATH; install it or pass "
                "--agent-cmd",
                problem=StartProblem.MISSING_PROGRAM,
                subject="aionrs",
            )
        return AgentChoice(name="aionrs", command=[program, "--json-stream"])
    raise AgentNotFoundError(
        f"unknown agent {name!r} (known: builtin, aionrs)",
        problem=StartProblem.UNKNOWN_AGENT,
        subject=name,
    )


def child_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The parent's environment minus aionrs's generic overrides, with PATH as the login
    shell has it, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in _STRIPPED_ENV}
    env["PATH"] = search_path()
    env.setdefault("PYTHONUNBUFFERED", "1")
    env.update(extra or {})
    return env


def make_backend_factory(
    choice: AgentChoice,
    workspace: Path,
    *,
    env: Mapping[str, str] | None = None,
    ready_timeout: float = 30.0,
    heartbeat_interval: float = 30.0,
    heartbeat_timeout: float = 10.0,
    line_limit: int = DEFAULT_LINE_LIMIT,
    protocol_log: bool | None = None,
) -> BackendFactory:
    """A factory that starts ``choice`` in ``workspace``, resuming a session id when given."""
    # Imported here, not at the top: resolving an agent and its environment must not load the
    # session engine and the pydantic wire models, so ``agentdesk exec`` can spawn the agent
    # first and import those while the agent starts up.
    from desktop.core.protocols.aionrs.adapter import AionrsBackend, LaunchSpec
    from desktop.core.protocols.aionrs.usage import UsageCounter
    from desktop.core.redaction import Redactor, secret_values
    from desktop.core.traffic_log import TrafficLog

    if choice.protocol in ("acp", "codex"):
        from desktop.core.catalogue.launch import make_real_factory

        return make_real_factory(choice, workspace, env=env)
    if choice.protocol != "aionrs":
        raise AgentNotFoundError(f"protocol {choice.protocol!r} is not supported")
    usage = UsageCounter()
    child_env = child_environment({**choice.env, **(env or {})})
    if protocol_log is None:
        protocol_log = os.environ.get("AGENTDESK_PROTOCOL_LOG", "") not in ("", "0")

    def factory(resume_id: str | None) -> AgentBackend:
        argv = list(choice.command)
        if resume_id and choice.resume_flag:
            argv += [choice.resume_flag, resume_id]
        traffic = None
        if protocol_log:
            folder = app_paths().logs / "protocol"
            stamp = f"{os.getpid()}-{id(usage):x}-{resume_id or 'new'}"
            traffic = TrafficLog(
                folder / f"{choice.name}-{stamp}.log", Redactor(secret_values(child_env))
            )
        return AionrsBackend(
            LaunchSpec(argv=argv, cwd=workspace, env=child_env, name=choice.name),
            ready_timeout=ready_timeout,
            heartbeat_interval=heartbeat_interval,
            heartbeat_timeout=heartbeat_timeout,
            line_limit=line_limit,
            usage=usage,
            traffic_log=traffic,
        )

    return factory
