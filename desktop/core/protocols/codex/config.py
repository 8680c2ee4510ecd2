"""Codex settings from an agent profile, and the isolated ``CODEX_HOME`` Agent Desk writes.

With Codex's own provider (the user's ``codex login``), Codex keeps its usual home and Agent Desk
only passes model, approval policy and sandbox on ``thread/start``. With a custom provider
(``base_url`` set) Agent Desk writes ``<data>/codex-homes/<agent>/config.toml`` and points
``CODEX_HOME`` there. The API key never goes into that file: ``env_key`` names the variable that
holds it, and only the child's environment carries the value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import tomli_w

from desktop.core.atomic_file import atomic_write

Sandbox = Literal["read-only", "workspace-write", "danger-full-access"]
ApprovalPolicy = Literal["on-request", "on-failure", "never"]

#: The variable that carries a custom provider's key to the child (named in config.toml).
KEY_VARIABLE = "AGENTDESK_CODEX_API_KEY"
#: Parent variables Codex reads on its own; a custom provider must not pick them up.
_CODEX_PREFIXES = ("OPENAI_", "CODEX_")


@dataclass(frozen=True)
class CodexOptions:
    """What the agent profile says about model, provider and sandbox."""

    model: str | None = None
    base_url: str | None = None
    provider_name: str = "agentdesk"
    wire_api: str = "responses"
    approval_policy: ApprovalPolicy = "on-request"
    sandbox: Sandbox = "workspace-write"
    disable_network_features: bool = True

    @property
    def custom_provider(self) -> bool:
        """Whether Agent Desk configures the provider (and so owns ``CODEX_HOME``)."""
        return bool(self.base_url)

    def thread_params(self, cwd: Path) -> dict[str, Any]:
        """Parameters of ``thread/start`` / ``thread/resume``."""
        params: dict[str, Any] = {
            "cwd": str(cwd),
            "approvalPolicy": self.approval_policy,
            "sandbox": self.sandbox,
        }
        if self.model:
            params["model"] = self.model
        if self.custom_provider:
            params["modelProvider"] = self.provider_name
        return params


def config_document(options: CodexOptions, workspace: Path) -> dict[str, Any]:
    """The ``config.toml`` contents for a custom provider (no secrets)."""
    doc: dict[str, Any] = {
        "model_provider": options.provider_name,
        "approval_policy": options.approval_policy,
        "sandbox_mode": options.sandbox,
        "analytics": {"enabled": False},
        "model_providers": {
            options.provider_name: {
                "name": "Agent Desk provider",
                "base_url": options.base_url,
                "wire_api": options.wire_api,
                "env_key": KEY_VARIABLE,
                "request_max_retries": 0,
                "stream_max_retries": 0,
                "stream_idle_timeout_ms": 60000,
            }
        },
        "projects": {str(workspace): {"trust_level": "trusted"}},
    }
    if options.model:
        doc["model"] = options.model
    if options.disable_network_features:
        # Without this Codex contacts github.com and chatgpt.com for plugins at startup.
        doc["features"] = {"plugins": False, "apps": False, "remote_plugin": False}
    return doc


def write_codex_home(folder: Path, options: CodexOptions, workspace: Path) -> Path:
    """Write ``folder/config.toml`` (owner-only) and return ``folder``."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    atomic_write(folder / "config.toml", tomli_w.dumps(config_document(options, workspace)))
    return folder


def codex_environment(
    base: Mapping[str, str], options: CodexOptions, codex_home: Path | None, key: str | None
) -> dict[str, str]:
    """The child environment: a custom provider gets its own home and only its own key."""
    env = dict(base)
    if options.custom_provider:
        env = {k: v for k, v in env.items() if not k.startswith(_CODEX_PREFIXES)}
        if codex_home is not None:
            env["CODEX_HOME"] = str(codex_home)
        if key is not None:
            env[KEY_VARIABLE] = key
    elif key is not None:
        env["OPENAI_API_KEY"] = key
    env.setdefault("RUST_LOG", "warn")
    return env
