"""The catalogue of ready-made real agents and how to find their programs.

Each entry names its npm package (pinned), the program it installs, and how to spawn it: npm's
``.bin`` entries for Codex and codex-acp are node launchers that start a native binary and leave
it running when killed, so the native binary is spawned directly. A program is looked for on
PATH (including the login shell's PATH), then in Agent Desk's own npm folder
(``<data>/npm/<entry>``), where ``desktop.core.catalogue.npm`` installs it on request.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from desktop.core.paths import app_paths
from desktop.core.shell_env import find_program

_SECRET = re.compile(r"(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)($|_)", re.I)


@dataclass(frozen=True)
class CatalogueEntry:
    """One ready-made agent."""

    key: str
    title: str
    protocol: Literal["acp", "codex"]
    package: str
    version: str
    program: str
    args: tuple[str, ...] = ()
    #: Glob (relative to the package's scope folder) of the native binary, when there is one.
    native: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    #: Prefixes of secret variables this agent may receive from the parent environment.
    secret_prefixes: tuple[str, ...] = ()
    #: Variables for a provider's key and endpoint.
    key_variable: str | None = None
    base_url_variable: str | None = None
    serve_fs: bool = True

    @property
    def spec(self) -> str:
        """``package@version`` for npm."""
        return f"{self.package}@{self.version}"


CATALOGUE: tuple[CatalogueEntry, ...] = (
    CatalogueEntry(
        key="claude",
        title="Claude Code (claude-agent-acp)",
        protocol="acp",
        package="@zed-industries/claude-agent-acp",
        version="0.23.1",
        program="claude-agent-acp",
        env={
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
        },
        secret_prefixes=("ANTHROPIC_", "CLAUDE_"),
        key_variable="ANTHROPIC_API_KEY",
        base_url_variable="ANTHROPIC_BASE_URL",
    ),
    CatalogueEntry(
        key="gemini",
        title="Gemini CLI",
        protocol="acp",
        package="@google/gemini-cli",
        version="0.61.0",
        program="gemini",
        args=("--acp",),
        env={"GEMINI_CLI_NO_RELAUNCH": "1"},
        secret_prefixes=("GEMINI_", "GOOGLE_"),
        key_variable="GEMINI_API_KEY",
        base_url_variable="GOOGLE_GEMINI_BASE_URL",
        # gemini reads a new file through fs/read_text_file and fails on "not found".
        serve_fs=False,
    ),
    CatalogueEntry(
        key="codex-acp",
        title="Codex (codex-acp)",
        protocol="acp",
        package="@zed-industries/codex-acp",
        version="0.16.0",
        program="codex-acp",
        native="codex-acp-*/bin/codex-acp",
        env={"RUST_LOG": "warn"},
        secret_prefixes=("OPENAI_", "CODEX_"),
        key_variable="OPENAI_API_KEY",
    ),
    CatalogueEntry(
        key="codex",
        title="OpenAI Codex (app-server)",
        protocol="codex",
        package="@openai/codex",
        version="0.169.0",
        program="codex",
        args=("app-server",),
        native="codex-*/vendor/*/bin/codex",
        env={"RUST_LOG": "warn"},
        secret_prefixes=("OPENAI_", "CODEX_"),
        key_variable="OPENAI_API_KEY",
    ),
)


def catalogue_entry(key: str) -> CatalogueEntry | None:
    """The entry called ``key``."""
    return next((e for e in CATALOGUE if e.key == key), None)


def npm_root(environ: Mapping[str, str] | None = None) -> Path:
    """Agent Desk's npm folder: ``<data>/npm``."""
    return app_paths(dict(environ) if environ is not None else None).data / "npm"


def native_binary(launcher: Path, entry: CatalogueEntry) -> Path | None:
    """The native binary behind an npm launcher (``node_modules/.bin/x`` or a global shim)."""
    if entry.native is None:
        return None
    script = launcher.resolve()
    for parent in script.parents:
        if (parent / "package.json").is_file():
            package_dir = parent
            break
    else:
        return None
    scope_dirs = [package_dir.parent, package_dir / "node_modules" / package_dir.parent.name]
    for scope in scope_dirs:
        for candidate in sorted(scope.glob(entry.native)):
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return candidate
    return None


def find_entry_program(
    entry: CatalogueEntry, command: str | None = None, root: Path | None = None
) -> list[str] | None:
    """The argv prefix that runs ``entry`` (native binary when there is one), or None."""
    name = command or entry.program
    found = name if os.sep in name else find_program(name)
    if found is None:
        local = (root or npm_root()) / entry.key / "node_modules" / ".bin" / entry.program
        found = str(local) if local.exists() else None
    if found is None:
        return None
    native = native_binary(Path(found), entry)
    return [str(native or found), *entry.args]


def agent_environment(
    base: Mapping[str, str], entry: CatalogueEntry | None, extra: Mapping[str, str]
) -> dict[str, str]:
    """``base`` without secrets meant for other agents, plus the entry's defaults and ``extra``.

    A secret-looking variable (``*_API_KEY``, ``*_TOKEN`` ...) is passed on only when it starts
    with one of the entry's own prefixes; a custom agent (no entry) keeps none of them.
    """
    allowed = entry.secret_prefixes if entry is not None else ()
    env = {
        k: v for k, v in base.items() if not _SECRET.search(k) or k.startswith(allowed or ("\0",))
    }
    if entry is not None:
        for key, value in entry.env.items():
            env.setdefault(key, value)
        if entry.key == "claude" and hasattr(os, "geteuid") and os.geteuid() == 0:
            env["IS_SANDBOX"] = "1"  # Claude Code refuses to run as root otherwise
    env.update(extra)
    return env
