"""Slash commands an agent offers, from its protocol's own form into ``CommandsChanged``.

ACP agents send ``available_commands_update`` (name, description, an optional input hint) at
any time; the composer's ``/`` menu lists them beside Agent Desk's own commands. The Codex
app-server has no such list (its slash commands are the TUI's), nor has aionrs: their menu holds
Agent Desk's commands only.
"""

from __future__ import annotations

from typing import Any

from desktop.core.events import AgentCommand, CommandsChanged


def acp_commands(update: dict[str, Any]) -> CommandsChanged:
    """The commands of one ACP ``available_commands_update`` (malformed entries are skipped)."""
    commands: list[AgentCommand] = []
    for raw in update.get("availableCommands") or []:
        if not isinstance(raw, dict):
            continue
        name = str(raw.get("name") or "").strip().lstrip("/")
        if not name or any(c.isspace() for c in name):
            continue
        given = raw.get("input")
        hint = given.get("hint") if isinstance(given, dict) else None
        commands.append(
            AgentCommand(
                name=name,
                description=str(raw.get("description") or ""),
                hint=str(hint) if hint else None,
            )
        )
    return CommandsChanged(commands=commands)
