"""The key row of a provider profile or remote agent: masked key, set/replace/delete, test.

Every keyring call goes through ``SecretStore`` (worker thread, timeout, one-sentence errors) in
the dialog's task scope, so a locked keyring never freezes the window. The typed key lives only
in a password field and in the call that stores or tests it; the row shows it masked.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from desktop.core.secrets import KeySource, SecretStore, SecretStoreError, mask
from desktop.ui.conversation.items import set_role
from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.i18n.core_text import translated
from desktop.ui.qt_async import TaskScope
from desktop.ui.settings.connection import check_connection

#: (provider, model, base URL) of the profile as currently edited (unsaved edits count).
ProfileValues = Callable[[], tuple[str, str, str | None]]

_SOURCES = {
    KeySource.KEYRING: QT_TRANSLATE_NOOP("KeyPanel", "stored in the system keyring"),
    KeySource.MEMORY: QT_TRANSLATE_NOOP("KeyPanel", "kept in memory for this run only"),
    KeySource.ENVIRONMENT: QT_TRANSLATE_NOOP("KeyPanel", "from the environment"),
}


class KeyPanel(QWidget):
    """Key state and actions for one keyring entry (a profile or a remote agent).

    Args:
        secrets: The keyring facade.
        scope: Where the keyring and network calls run.
        profile: ``None`` for a remote agent's signing key (no connection test).

    Signals:
        finished(str): an operation ended; the text is what the result line shows.
    """

    finished = Signal(str)

    def __init__(
        self,
        secrets: SecretStore,
        scope: TaskScope,
        profile: ProfileValues | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._secrets = secrets
        self._scope = scope
        self._profile = profile
        self.entry = ""
        self.provider: str | None = None
        self._can_delete = False
        self.masked = QLabel(self.tr("Checking the keyring…"))
        self.masked.setObjectName("maskedKey")
        self.masked.setAccessibleName(self.tr("Stored key"))
        self.field = QLineEdit()
        self.field.setEchoMode(QLineEdit.EchoMode.Password)
        self.field.setPlaceholderText(self.tr("Paste a new key, then Save key"))
        self.field.setAccessibleName(self.tr("New key"))
        self.save = QPushButton(self.tr("Save key"))
        set_role(self.save, "primary")
        self.delete = QPushButton(self.tr("Delete key"))
        set_role(self.delete, "danger")
        self.test = QPushButton(self.tr("Test connection"))
        self.test.setVisible(profile is not None)
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setObjectName("keyResult")
        set_role(self.result, "message", level="info")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.masked)
        row = QHBoxLayout()
        row.addWidget(self.field, 1)
        row.addWidget(self.save)
        layout.addLayout(row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.test)
        buttons.addWidget(self.delete)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addWidget(self.result)
        self._connect_signals()

    def _connect_signals(self) -> None:
        self.save.clicked.connect(self._on_save)
        self.field.returnPressed.connect(self._on_save)
        self.delete.clicked.connect(self._on_delete)
        self.test.clicked.connect(self._on_test)

    # ------------------------------------------------------------------ public

    def show_entry(self, entry: str, provider: str | None = None) -> None:
        """Show the key of keyring entry ``entry`` (a profile or remote agent name)."""
        self.entry, self.provider = entry, provider
        self.field.clear()
        self._say("", "info")
        self._run(self._refresh)

    # ------------------------------------------------------------------ slots

    def _on_save(self) -> None:
        key = self.field.text().strip()
        if not key:
            self._say(
                QCoreApplication.translate("KeyPanel", "Paste a key first."),
                "warning",
            )
            return
        self._run(lambda: self._save(key))

    def _on_delete(self) -> None:
        self._run(self._delete)

    def _on_test(self) -> None:
        typed = self.field.text().strip()
        self._run(lambda: self._test(typed))

    # ------------------------------------------------------------------ work

    def _run(self, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        # a factory, not a coroutine: a task cancelled before its first step never awaits it
        try:
            self._scope.spawn(self._guard(make), name=f"key:{self.entry}")
        except RuntimeError:  # the dialog is closing: its scope is gone
            return
        self._busy(True)

    async def _guard(self, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        try:
            await make()
        except SecretStoreError as exc:
            self._say(translated(exc.text), "error")
        except ValueError as exc:
            self._say(str(exc), "error")
        finally:
            self._busy(False)
            self.finished.emit(self.result.text())

    async def _refresh(self) -> None:
        stored = await self._secrets.get(self.entry, self.provider)
        if stored is None:
            self.masked.setText(self.tr("No key stored"))
            self._can_delete = False
            self.save.setText(self.tr("Save key"))
            return
        where = self.tr(_SOURCES[stored.source])
        self.masked.setText(f"{mask(stored.value.get_secret_value())}  ·  {where}")
        self._can_delete = stored.source != KeySource.ENVIRONMENT
        self.save.setText(self.tr("Replace key"))

    async def _save(self, key: str) -> None:
        source = await self._secrets.set(self.entry, key)
        self.field.clear()
        await self._refresh()
        self._say(
            QCoreApplication.translate("KeyPanel", "Key saved ({where}).").format(
                where=self.tr(_SOURCES[source])
            ),
            "info",
        )

    async def _delete(self) -> None:
        removed = await self._secrets.delete(self.entry)
        await self._refresh()
        self._say(
            QCoreApplication.translate("KeyPanel", "Key deleted.")
            if removed
            else QCoreApplication.translate("KeyPanel", "There was no stored key."),
            "info",
        )

    async def _test(self, typed: str) -> None:
        assert self._profile is not None
        provider, model, base_url = self._profile()
        key = typed
        if not key:
            stored = await self._secrets.get(self.entry, provider)
            if stored is None:
                self._say(
                    QCoreApplication.translate(
                        "KeyPanel", "No key to test: paste one or save one first."
                    ),
                    "warning",
                )
                return
            key = stored.value.get_secret_value()
        self._say(self.tr("Testing…"), "info")
        result = await check_connection(provider, model, key, base_url)
        self._say(result.message, "info" if result.ok else "error")

    def _busy(self, busy: bool) -> None:
        for button in (self.save, self.test):
            button.setEnabled(not busy)
        self.delete.setEnabled(not busy and self._can_delete)

    def _say(self, text: str, level: str) -> None:
        self.result.setText(text)
        set_role(self.result, "message", level=level)
