"""The settings model tree: one pydantic document, versioned, with no secrets in it.

Every field carries a ``title`` and a ``description`` so the Settings dialog can be generated from
``Settings.model_json_schema()`` (or from ``model_fields``) and a new field cannot be forgotten.
API keys are never part of this tree: a provider profile's ``name`` is the keyring username under
which ``desktop.core.secrets`` keeps its key.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from desktop.core.events import ApprovalMode
from desktop.core.remote.config import RemoteRuntimeConfig

#: The version this code writes. Older files are migrated by ``desktop.core.settings.migrations``.
SCHEMA_VERSION: Final = 2

#: Profile and agent names: short, stable identifiers (also the keyring username of a profile).
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$"
Name = Annotated[str, Field(pattern=NAME_PATTERN)]

#: Environment variable names that would hold a secret; those belong in the keyring instead.
_SECRET_ENV = re.compile(r"(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD)($|_)", re.IGNORECASE)
_MAX_RECENT = 10


class _Model(BaseModel):
    # extra="forbid": a typo in a hand-edited file is reported instead of silently ignored.
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class ProviderType(StrEnum):
    """LLM API families the built-in agent speaks."""

    ANTHROPIC = "anthropic"
    OPENAI = "openai"


class ProviderProfile(_Model):
    """A named provider configuration; its API key lives in the OS keyring under ``name``."""

    name: Name = Field(title="Name", description="Identifier; also the keyring entry of the key.")
    provider: ProviderType = Field(title="Provider", description="Which API the profile talks to.")
    model: str = Field(min_length=1, title="Model", description="Model id sent to the API.")
    base_url: str | None = Field(
        default=None,
        pattern=r"^https?://\S+$",
        title="Base URL",
        description="API endpoint; empty for the provider's default.",
    )
    max_tokens: int | None = Field(
        default=None,
        gt=0,
        le=1_000_000,
        title="Max tokens",
        description="Upper bound on tokens per reply; empty for the agent's default.",
    )


def _no_secret_env(env: dict[str, str]) -> dict[str, str]:
    bad = sorted(k for k in env if _SECRET_ENV.search(k))
    if bad:
        raise ValueError(
            f"{', '.join(bad)} look like secrets; settings are a plain file, so use key_env "
            "(a keyring reference) instead"
        )
    return env


class _AgentBase(_Model):
    name: Name = Field(title="Name", description="Shown in the agent picker; used by --agent.")


class BuiltinAgent(_AgentBase):
    """Agent Desk's own agent, driven by a provider profile."""

    kind: Literal["builtin"] = "builtin"
    profile: Name = Field(title="Profile", description="Provider profile the agent uses.")


class AionrsAgent(_AgentBase):
    """The aionrs binary (found on PATH unless ``command`` is a path); it keeps its own config."""

    kind: Literal["aionrs"] = "aionrs"
    command: str = Field(default="aionrs", title="Program", description="aionrs program or path.")
    args: list[str] = Field(default_factory=list, title="Extra arguments")
    env: dict[str, str] = Field(
        default_factory=dict, title="Environment", description="Extra, non-secret variables."
    )

    _check_env = field_validator("env")(_no_secret_env)


class AgentProtocol(StrEnum):
    """Wire protocols a custom command may speak."""

    AIONRS = "aionrs"
    ACP = "acp"
    CODEX = "codex"


class CustomAgent(_AgentBase):
    """Any program that speaks a supported protocol over stdio."""

    kind: Literal["custom"] = "custom"
    command: list[str] = Field(min_length=1, title="Command", description="Program and arguments.")
    protocol: AgentProtocol = Field(default=AgentProtocol.AIONRS, title="Protocol")
    env: dict[str, str] = Field(
        default_factory=dict, title="Environment", description="Extra, non-secret variables."
    )
    key_env: dict[str, Name] = Field(
        default_factory=dict,
        title="Keys in environment",
        description="Variable name → provider profile whose stored key is put there.",
    )
    resume_flag: str | None = Field(
        default=None, title="Resume flag", description="e.g. --resume, if the agent has sessions."
    )

    _check_env = field_validator("env")(_no_secret_env)


class AcpAgent(_AgentBase):
    """An Agent Client Protocol agent: a catalogue preset or a custom command."""

    kind: Literal["acp"] = "acp"
    preset: Literal["claude", "gemini", "codex-acp", "custom"] = Field(
        default="custom", title="Agent", description="Catalogue entry, or custom for command."
    )
    command: list[str] = Field(
        default_factory=list,
        title="Command",
        description="Program and arguments (custom), or a program path overriding the preset's.",
    )
    base_url: str | None = Field(
        default=None,
        pattern=r"^https?://\S+$",
        title="Base URL",
        description="Provider endpoint for presets that take one; empty for the default.",
    )
    env: dict[str, str] = Field(
        default_factory=dict, title="Environment", description="Extra, non-secret variables."
    )
    key_env: dict[str, Name] = Field(
        default_factory=dict,
        title="Keys in environment",
        description="Variable name → provider profile whose stored key is put there.",
    )

    _check_env = field_validator("env")(_no_secret_env)

    @model_validator(mode="after")
    def _custom_needs_command(self) -> AcpAgent:
        if self.preset == "custom" and not self.command:
            raise ValueError("a custom ACP agent needs a command")
        return self


class CodexAgent(_AgentBase):
    """OpenAI Codex through ``codex app-server``; a base URL means an Agent Desk-managed
    provider (isolated CODEX_HOME, key from the keyring in the child's environment only)."""

    kind: Literal["codex"] = "codex"
    command: str = Field(default="codex", title="Program", description="codex program or path.")
    model: str | None = Field(default=None, title="Model", description="Empty: Codex's default.")
    base_url: str | None = Field(
        default=None,
        pattern=r"^https?://\S+$",
        title="Base URL",
        description="OpenAI Responses endpoint of a custom provider; empty: Codex's own login.",
    )
    key_profile: Name | None = Field(
        default=None, title="Key", description="Provider profile whose stored key Codex uses."
    )
    sandbox: Literal["read-only", "workspace-write", "danger-full-access"] = Field(
        default="workspace-write", title="Sandbox", description="What commands may touch."
    )
    approval_policy: Literal["on-request", "on-failure", "never"] = Field(
        default="on-request", title="Approval policy", description="When Codex asks."
    )
    env: dict[str, str] = Field(
        default_factory=dict, title="Environment", description="Extra, non-secret variables."
    )

    _check_env = field_validator("env")(_no_secret_env)


class RemoteAgent(_AgentBase):
    """An Agent Runtime reached over gRPC; its signing key is in the keyring under ``name``."""

    kind: Literal["remote"] = "remote"
    runtime: RemoteRuntimeConfig = Field(
        title="Runtime", description="Connection settings of the runtime."
    )


AnyAgent = BuiltinAgent | AionrsAgent | CustomAgent | RemoteAgent | AcpAgent | CodexAgent
AgentConfig = Annotated[AnyAgent, Field(discriminator="kind")]


class ApprovalDefaults(_Model):
    """How new conversations start approving tool calls."""

    mode: ApprovalMode = Field(
        default=ApprovalMode.DEFAULT,
        title="Approval mode",
        description="default asks for edits and commands; auto_edit approves reads and edits; "
        "yolo approves everything.",
    )


class Theme(StrEnum):
    """Colour scheme choice."""

    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


class Appearance(_Model):
    """Look of the window."""

    theme: Theme = Field(default=Theme.SYSTEM, title="Theme", description="Follow the system?")
    font_size: int = Field(default=11, ge=6, le=48, title="Font size", description="In points.")


#: Built-in extensions (``desktop/core/extensions/builtin``) the user can switch on.
BuiltinExtension = Literal["read_only_auto_approve", "shell_deny_list", "file_change_review"]


class ExtensionSettings(_Model):
    """Which extensions load. Added within schema 2: files without it get these defaults."""

    enabled_builtins: list[BuiltinExtension] = Field(
        default_factory=list,
        title="Enabled built-ins",
        description="Built-in extensions that are switched on (all are off by default).",
    )
    disabled: list[str] = Field(
        default_factory=list,
        title="Disabled extensions",
        description="Extension folder names that are not loaded even when found.",
    )


class CheckpointSettings(_Model):
    """Checkpoints of the workspace around each turn, for review and restore.

    Added within schema 2: files without it get these defaults."""

    size_limit_mb: float = Field(
        default=10,
        gt=0,
        title="Largest file recorded",
        description="In MB; larger files are left out of checkpoints (and named).",
    )
    disk_budget_gb: float = Field(
        default=2,
        gt=0,
        title="Disk space for checkpoints",
        description="In GB per workspace; the oldest conversations' checkpoints go first.",
    )


#: The model of a fresh install's Anthropic profile (the built-in agent's own default too).
#: Only new profiles get it: a stored profile's model is the user's choice and is never rewritten,
#: so changing this needs no settings migration.
DEFAULT_ANTHROPIC_MODEL: Final = "claude-sonnet-4-6"


def default_profiles() -> list[ProviderProfile]:
    """The profiles a fresh install has (keys still to be set)."""
    return [
        ProviderProfile(
            name="anthropic", provider=ProviderType.ANTHROPIC, model=DEFAULT_ANTHROPIC_MODEL
        ),
        ProviderProfile(name="openai", provider=ProviderType.OPENAI, model="gpt-4.1"),
    ]


def default_agents() -> list[AnyAgent]:
    """The agents a fresh install has."""
    return [BuiltinAgent(name="builtin", profile="anthropic"), AionrsAgent(name="aionrs")]


class Settings(_Model):
    """The whole settings document (``settings.json``)."""

    schema_version: Literal[2] = Field(default=2, title="Schema version")
    profiles: list[ProviderProfile] = Field(default_factory=default_profiles, title="Providers")
    agents: list[AgentConfig] = Field(default_factory=default_agents, title="Agents")
    default_agent: Name = Field(
        default="builtin", title="Default agent", description="Agent of new conversations."
    )
    approvals: ApprovalDefaults = Field(default_factory=ApprovalDefaults, title="Approvals")
    stop_idle_agents_after: float = Field(
        default=10,
        ge=0,
        title="Stop idle agents after",
        description="Minutes without a prompt before a conversation's agent is stopped to free "
        "its memory; the next prompt resumes it. 0: never.",
    )
    check_for_updates: bool = Field(
        default=True,
        title="Check for updates",
        description="Once a day, ask the project's releases page whether a newer version "
        "exists. Nothing is sent but the request.",
    )
    appearance: Appearance = Field(default_factory=Appearance, title="Appearance")
    extensions: ExtensionSettings = Field(default_factory=ExtensionSettings, title="Extensions")
    checkpoints: CheckpointSettings = Field(default_factory=CheckpointSettings, title="Checkpoints")
    recent_workspaces: list[str] = Field(
        default_factory=list,
        max_length=_MAX_RECENT,
        title="Recent workspaces",
        description="Most recent first.",
    )

    @model_validator(mode="after")
    def _unique_names(self) -> Settings:
        for label, names in (
            ("profile", [p.name for p in self.profiles]),
            ("agent", [a.name for a in self.agents]),
        ):
            dupes = sorted({n for n in names if names.count(n) > 1})
            if dupes:
                raise ValueError(f"duplicate {label} name(s): {', '.join(dupes)}")
        # Profile keys and remote agents' signing keys share the keyring service ``agentdesk``.
        profiles = {p.name for p in self.profiles}
        clash = sorted(a.name for a in self.agents if a.kind == "remote" and a.name in profiles)
        if clash:
            raise ValueError(f"remote agent(s) named like a profile: {', '.join(clash)}")
        return self

    def profile(self, name: str) -> ProviderProfile | None:
        """The profile called ``name``."""
        return next((p for p in self.profiles if p.name == name), None)

    def agent(self, name: str) -> AnyAgent | None:
        """The agent called ``name``."""
        return next((a for a in self.agents if a.name == name), None)

    def with_recent_workspace(self, path: str) -> Settings:
        """A copy with ``path`` first in the recent list (deduplicated, bounded)."""
        recent = [path, *(p for p in self.recent_workspaces if p != path)][:_MAX_RECENT]
        return self.model_copy(update={"recent_workspaces": recent})
