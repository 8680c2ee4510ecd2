"""An agent's name as a person reads it: "Built-in agent", "Claude Code", never "builtin".

Conversations, the status bar and the sidebar know an agent by its name in the settings
("builtin", "aionrs", "claude", or one the user chose), followed by its version once it is
ready ("builtin 0.4.0"). Those names are identifiers (history rows, the agent picker); what the
window shows is ``agent_title``: ours translated, the ready-made agents by their catalogue
title (``desktop.core.catalogue``), any other name as the user wrote it.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def agent_title(agent: str) -> str:
    """``agent`` (a name, maybe followed by a space and a version) in words."""
    name, space, rest = agent.partition(" ")
    title = _titles().get(name)
    if title is None:
        return agent
    return title + space + rest


def _titles() -> dict[str, str]:
    # Imported here: the status bar is built with the first frame, before the core is loaded.
    from desktop.core.catalogue.entries import CATALOGUE

    titles = {entry.key: entry.title.split(" (", 1)[0] for entry in CATALOGUE}
    titles["builtin"] = QCoreApplication.translate("AgentName", "Built-in agent")
    return titles
