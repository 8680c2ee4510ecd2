"""The models and modes an ACP agent offers per session → ``ChoicesChanged``; choosing one.

ACP carries both in ``session/new`` (and ``session/load``): ``modes`` (``currentModeId``,
``availableModes``; changed with ``session/set_mode``, reported by ``current_mode_update``) and
``configOptions``, where a select option of category ``model`` is the model (changed with
``session/set_config_option``, reported by ``config_option_update``); agents on the unstable
API (claude-agent-acp) send ``models`` instead, switched with ``session/set_model``. An agent
that sends none of these offers no choice, and the window shows no picker.
"""

from __future__ import annotations

from typing import Any

from desktop.core.events import AgentChoice, ChoiceKind, ChoicesChanged


def _choice(raw: dict[str, Any], id_key: str) -> AgentChoice | None:
    value = raw.get(id_key)
    if not isinstance(value, str) or not value:
        return None
    return AgentChoice(
        id=value, name=str(raw.get("name") or value), description=str(raw.get("description") or "")
    )


class SessionChoices:
    """What one ACP session offers: its modes and its model option, as last reported."""

    def __init__(self) -> None:
        self.modes: list[AgentChoice] = []
        self.mode: str | None = None
        #: The id of the config option that is the model (None: the agent offers none).
        self.model_option: str | None = None
        self.models: list[AgentChoice] = []
        self.model: str | None = None
        #: The models came in the unstable ``models`` field (switched by ``session/set_model``).
        self.unstable_models = False

    def read_session(self, data: dict[str, Any]) -> list[ChoicesChanged]:
        """Take ``modes`` and ``configOptions`` of a session/new or session/load result."""
        events = []
        modes = data.get("modes")
        if isinstance(modes, dict):
            available = modes.get("availableModes") or []
            self.modes = [c for m in available if isinstance(m, dict) if (c := _choice(m, "id"))]
            self.mode = modes.get("currentModeId") or None
            events.append(self.mode_event())
        options = data.get("configOptions")
        offered = isinstance(options, list) and self.read_options(options)
        if offered or self.read_models(data.get("models")):
            events.append(self.model_event())
        return events

    def read_options(self, options: list[Any]) -> bool:
        """Take a list of config options; whether it has a model option."""
        for option in options:
            if not isinstance(option, dict) or option.get("category") != "model":
                continue
            if option.get("type") != "select":
                continue
            values: list[dict[str, Any]] = []
            for entry in option.get("options") or []:
                if isinstance(entry, dict) and "options" in entry:  # a group of options
                    values += [o for o in entry["options"] if isinstance(o, dict)]
                elif isinstance(entry, dict):
                    values.append(entry)
            self.model_option = str(option.get("id"))
            self.models = [c for v in values if (c := _choice(v, "value"))]
            current = option.get("currentValue")
            self.model = current if isinstance(current, str) else None
            return True
        return False

    def read_models(self, models: Any) -> bool:
        """Take the unstable ``models`` of a session result (``currentModelId``,
        ``availableModels``: ``{modelId, name, description}``; claude-agent-acp sends it and
        switches with ``session/set_model``), unless a model config option is there."""
        if self.model_option is not None or not isinstance(models, dict):
            return False
        available = models.get("availableModels") or []
        self.models = [c for m in available if isinstance(m, dict) if (c := _choice(m, "modelId"))]
        current = models.get("currentModelId")
        self.model = current if isinstance(current, str) else None
        self.unstable_models = True
        return True

    def mode_event(self) -> ChoicesChanged:
        return ChoicesChanged(kind=ChoiceKind.MODE, current=self.mode, available=self.modes)

    def model_event(self) -> ChoicesChanged:
        return ChoicesChanged(kind=ChoiceKind.MODEL, current=self.model, available=self.models)
