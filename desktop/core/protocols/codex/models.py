"""The models Codex offers (``model/list``) as ``AgentChoice``s.

Codex takes a model per turn (``turn/start``'s ``model``), so the window's picker lists what
``model/list`` answers (``data``: ``{id, model, displayName, description}``) and the next turn
uses the one chosen. A Codex that does not answer ``model/list`` offers the thread's model only.
"""

from __future__ import annotations

from typing import Any

from desktop.core.events import AgentChoice


def model_choices(result: Any) -> list[AgentChoice]:
    """The models of a ``model/list`` answer (malformed entries are skipped)."""
    data = result.get("data") if isinstance(result, dict) else None
    choices = []
    for entry in data if isinstance(data, list) else []:
        if not isinstance(entry, dict):
            continue
        model = entry.get("model") or entry.get("id")
        if isinstance(model, str) and model:
            name = entry.get("displayName") or model
            description = entry.get("description") or ""
            choices.append(AgentChoice(id=model, name=str(name), description=str(description)))
    return choices
