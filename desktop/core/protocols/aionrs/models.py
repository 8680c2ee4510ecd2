"""Which model an aionrs agent runs and which it offers, for the picker and the price table.

aionrs is started with ``--model ID`` (or ``MODEL`` in its environment); aionrs builds that
report ``current_model`` and ``available_models`` in ``ready``/``config_changed`` capabilities
(read by AionUi too) are believed first. ``set_config {model}`` switches it between turns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from desktop.core.events import AgentChoice, ChoicesChanged


def launched_model(argv: Sequence[str], env: Mapping[str, str]) -> str | None:
    """The model named on the command line (``--model X``, ``-m X``, ``--model=X``) or env."""
    for index, arg in enumerate(argv):
        if arg.startswith("--model="):
            return arg.split("=", 1)[1] or None
        if arg in ("--model", "-m") and index + 1 < len(argv):
            return argv[index + 1]
    return env.get("MODEL") or None


def _choice(raw: Any) -> AgentChoice | None:
    if isinstance(raw, str) and raw:
        return AgentChoice(id=raw, name=raw)
    if isinstance(raw, dict):
        ident = raw.get("id") or raw.get("model") or raw.get("name")
        if isinstance(ident, str) and ident:
            return AgentChoice(
                id=ident, name=str(raw.get("name") or raw.get("display_name") or ident)
            )
    return None


def model_choices(capabilities: Mapping[str, Any], fallback: str | None) -> ChoicesChanged | None:
    """The models in ``capabilities`` (None: the agent names neither a model nor a list)."""
    current = capabilities.get("current_model")
    current = current if isinstance(current, str) and current else fallback
    raw = capabilities.get("available_models")
    available = [c for r in raw if (c := _choice(r))] if isinstance(raw, list) else []
    if current is None and not available:
        return None
    return ChoicesChanged(current=current, available=available)
