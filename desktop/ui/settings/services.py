"""What the Settings dialog and the windows share: the settings store and the keyring facade.

Built once by the composition root (``AppContext``). The ``SecretStore`` is created on first use
(classifying the keyring backend can cost a D-Bus round trip, which start-up need not pay).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from desktop.core.catalogue import CATALOGUE
from desktop.core.launch.deferred import deferred_factory
from desktop.core.secrets import SecretStore
from desktop.core.session import BackendFactory
from desktop.core.settings import Appearance, SettingsStore
from desktop.ui.settings.words import agent_kind


class SettingsServices:
    """The settings store, the keyring facade and agent resolution for new conversations.

    Args:
        store: The settings of this run.
        secrets: The keyring facade (default: the system keyring, created when first needed).
        app: Where Settings → Appearance is applied (at once, and after every change).
    """

    def __init__(
        self,
        store: SettingsStore,
        secrets: SecretStore | None = None,
        *,
        app: QApplication | None = None,
    ) -> None:
        self.store = store
        self._secrets = secrets
        self._app = app
        self._appearance: Appearance | None = None  # none applied yet: apply the stored one
        if app is not None:
            store.subscribe(self._on_settings)
            self._on_settings("appearance")
        #: ``SettingsStore.messages`` are shown once per run (by the first dialog that opens).
        self.messages_shown = False

    def _on_settings(self, section: str) -> None:
        """Apply the stored appearance at once, and again after every change."""
        current = self.store.settings.appearance
        if section in ("", "appearance") and current != self._appearance and self._app:
            from desktop.ui.settings.appearance import apply

            apply(self._app, current)
            self._appearance = current

    @property
    def secrets(self) -> SecretStore:
        """The keyring facade."""
        if self._secrets is None:
            self._secrets = SecretStore(announce=False)
        return self._secrets

    @secrets.setter
    def secrets(self, value: SecretStore) -> None:
        self._secrets = value

    def agent_names(self) -> list[tuple[str, str]]:
        """(name, label) of every agent a new conversation can use: Settings, then catalogue."""
        settings = self.store.settings
        names = [
            (a.name, agent_kind(a.kind) if a.name == a.kind else f"{a.name} ({agent_kind(a.kind)})")
            for a in settings.agents
        ]
        known = {a.name for a in settings.agents}
        names += [(e.key, f"{e.title}") for e in CATALOGUE if e.key not in known]
        return names

    def factory_for(self, agent: str, workspace: Path) -> BackendFactory:
        """A factory that resolves ``agent`` with the settings and keys current at each start."""

        return deferred_factory(lambda: self.store.settings, lambda: self.secrets, agent, workspace)
