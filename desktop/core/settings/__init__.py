"""Agent Desk's settings: one versioned pydantic tree in ``<config>/settings.json``.

Use ``SettingsStore()`` to load (never fails; see ``messages``) and ``store.save(new)`` to change.
The models in ``desktop.core.settings.models`` carry titles and descriptions for the Settings
dialog, which is generated from them.
"""

from desktop.core.settings.models import (
    SCHEMA_VERSION,
    AgentConfig,
    AgentProtocol,
    AionrsAgent,
    Appearance,
    ApprovalDefaults,
    BuiltinAgent,
    CustomAgent,
    ProviderProfile,
    ProviderType,
    RemoteAgent,
    Settings,
    Theme,
)
from desktop.core.settings.store import SettingsStore, settings_path

__all__ = [
    "SCHEMA_VERSION",
    "AgentConfig",
    "AgentProtocol",
    "AionrsAgent",
    "Appearance",
    "ApprovalDefaults",
    "BuiltinAgent",
    "CustomAgent",
    "ProviderProfile",
    "ProviderType",
    "RemoteAgent",
    "Settings",
    "SettingsStore",
    "Theme",
    "settings_path",
]
