"""What a resolved agent launch is: one frozen, typed record per protocol, and why one fails.

``Launch`` is a tagged union (``type``): ``LaunchAionrs`` (the built-in agent, aionrs and any
``--agent-cmd``), ``LaunchAcp``, ``LaunchCodex`` and ``LaunchRemote``. Keys live only in
``keys`` (the child's environment, never argv) and are listed by ``secrets`` for redaction.
Light on purpose: ``agentdesk exec`` imports it before the session engine and pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from desktop.core.start_problem import StartProblem

if TYPE_CHECKING:
    from desktop.core.protocols.codex.config import CodexOptions
    from desktop.core.remote.config import RemoteRuntimeConfig


class AgentNotFoundError(Exception):
    """The chosen agent is unknown or cannot be started here.

    ``problem`` says why, ``subject`` what it is about (a profile, program or agent name); the
    message stays the sentence for the command line.
    """

    def __init__(
        self, message: str, *, problem: StartProblem = StartProblem.UNAVAILABLE, subject: str = ""
    ) -> None:
        super().__init__(message)
        self.problem = problem
        self.subject = subject


class MissingKeyError(AgentNotFoundError):
    """A profile has no key in the keyring, in memory or in the environment.

    ``subject`` is the profile, ``provider`` its provider type when known (a window offers a key
    field for it; the message keeps the command-line instruction for ``agentdesk exec``).
    """

    def __init__(self, message: str, *, subject: str = "", provider: str | None = None) -> None:
        super().__init__(message, problem=StartProblem.MISSING_KEY, subject=subject)
        self.provider = provider


class MissingSigningKeyError(AgentNotFoundError):
    """No signing key is stored for a remote agent."""


@dataclass(frozen=True)
class AgentRef:
    """Which agent to launch: ``--agent NAME`` (None: the settings' default), ``--profile NAME``
    (alone: the built-in agent with that profile) or ``--agent-cmd "COMMAND ARGS"``."""

    name: str | None = None
    profile: str | None = None
    command: str | None = None


@dataclass(frozen=True)
class LaunchAionrs:
    """An agent speaking the aionrs JSON Stream Protocol (built-in, aionrs, custom, command)."""

    name: str
    command: list[str]
    env: Mapping[str, str] = field(default_factory=dict)
    keys: Mapping[str, str] = field(default_factory=dict, repr=False)
    resume_flag: str | None = "--resume"
    type: Literal["aionrs"] = "aionrs"

    @property
    def keeps_sessions(self) -> bool:
        """Whether a continued conversation resumes the agent's own session."""
        return self.resume_flag is not None


@dataclass(frozen=True)
class LaunchAcp:
    """An Agent Client Protocol agent (Claude Code, Gemini CLI, codex-acp, a custom command)."""

    name: str
    command: list[str]
    env: Mapping[str, str] = field(default_factory=dict)
    keys: Mapping[str, str] = field(default_factory=dict, repr=False)
    #: The catalogue entry it was found by (its environment rules), None for a custom command.
    entry: str | None = None
    serve_fs: bool = True
    #: codex-acp with a custom provider: the isolated ``CODEX_HOME`` it gets.
    codex: CodexOptions | None = None
    type: Literal["acp"] = "acp"
    keeps_sessions: Literal[True] = True


@dataclass(frozen=True)
class LaunchCodex:
    """Codex's app-server."""

    name: str
    command: list[str]
    options: CodexOptions
    env: Mapping[str, str] = field(default_factory=dict)
    keys: Mapping[str, str] = field(default_factory=dict, repr=False)
    entry: str | None = "codex"
    type: Literal["codex"] = "codex"
    keeps_sessions: Literal[True] = True


@dataclass(frozen=True)
class LaunchRemote:
    """A remote runtime over gRPC; the runtime keys its state by the session id."""

    name: str
    runtime: RemoteRuntimeConfig
    signing_key: str = field(repr=False)
    type: Literal["remote"] = "remote"
    keeps_sessions: Literal[True] = True

    @property
    def keys(self) -> Mapping[str, str]:
        """No keys go into a local environment (the signing key stays in the backend)."""
        return {}


Launch = LaunchAionrs | LaunchAcp | LaunchCodex | LaunchRemote


def launch_secrets(launch: Launch) -> list[str]:
    """The key values of ``launch`` (to redact from anything written)."""
    values = list(launch.keys.values())
    if isinstance(launch, LaunchRemote):
        values.append(launch.signing_key)
    return values
