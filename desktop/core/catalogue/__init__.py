"""Ready-made real agents (Claude Code, Gemini CLI, Codex, codex-acp): find, install, launch."""

from desktop.core.catalogue.entries import (
    CATALOGUE,
    CatalogueEntry,
    agent_environment,
    catalogue_entry,
    find_entry_program,
    native_binary,
    npm_root,
)
from desktop.core.catalogue.npm import NpmInstallError, install, install_lines, installed_version

__all__ = [
    "CATALOGUE",
    "CatalogueEntry",
    "NpmInstallError",
    "agent_environment",
    "catalogue_entry",
    "find_entry_program",
    "install",
    "install_lines",
    "installed_version",
    "native_binary",
    "npm_root",
]
