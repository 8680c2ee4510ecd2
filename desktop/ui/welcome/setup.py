"""What the welcome panel's choices change in the settings: a provider profile and the built-in
agent that uses it, or the default agent. Pure functions over the immutable ``Settings``."""

from __future__ import annotations

from enum import StrEnum

from desktop.core.settings import Settings
from desktop.core.settings.models import (
    DEFAULT_ANTHROPIC_MODEL,
    BuiltinAgent,
    ProviderProfile,
    ProviderType,
)


class ProviderChoice(StrEnum):
    """The providers the welcome panel offers."""

    ANTHROPIC = "anthropic"
    OPENAI = "openai"
    COMPATIBLE = "compatible"


#: Profile name, provider type and default model of each choice.
PROFILES: dict[ProviderChoice, tuple[str, ProviderType, str]] = {
    ProviderChoice.ANTHROPIC: ("anthropic", ProviderType.ANTHROPIC, DEFAULT_ANTHROPIC_MODEL),
    ProviderChoice.OPENAI: ("openai", ProviderType.OPENAI, "gpt-4.1"),
    ProviderChoice.COMPATIBLE: ("local", ProviderType.OPENAI, ""),
}

#: The key stored for a local server that wants none (the OpenAI client insists on one).
NO_KEY = "not-needed"


def builtin_agent_name(settings: Settings, agent: str) -> str:
    """The built-in agent to configure: ``agent`` when it is one, else the first, else builtin."""
    config = settings.agent(agent)
    if isinstance(config, BuiltinAgent):
        return agent
    first = next((a for a in settings.agents if isinstance(a, BuiltinAgent)), None)
    return first.name if first is not None else "builtin"


def with_provider(
    settings: Settings, agent: str, choice: ProviderChoice, model: str, base_url: str | None
) -> tuple[Settings, str, str]:
    """Settings where the built-in agent (see ``builtin_agent_name``) uses ``choice``, and that
    agent is the default. Returns (settings, profile name, built-in agent name).

    Raises:
        pydantic.ValidationError: a bad model or URL.
    """
    name, provider, _ = PROFILES[choice]
    profile = ProviderProfile(name=name, provider=provider, model=model, base_url=base_url or None)
    profiles = list(settings.profiles)
    index = next((i for i, p in enumerate(profiles) if p.name == name), None)
    if index is None:
        profiles.append(profile)
    else:
        profiles[index] = profile
    target = builtin_agent_name(settings, agent)
    agents = [a for a in settings.agents if a.name != target]
    agents.insert(0, BuiltinAgent(name=target, profile=name))
    updated = settings.model_copy(
        update={"profiles": profiles, "agents": agents, "default_agent": target}
    )
    return Settings.model_validate(updated.model_dump(mode="json")), name, target


def with_default_agent(settings: Settings, agent: str) -> Settings:
    """Settings whose new conversations use ``agent``."""
    return settings.model_copy(update={"default_agent": agent})
