"""Settings ▸ MCP servers: the servers every agent gets, edited like the other lists.

A list (name, kind, where; its check box switches a server on or off), Add and Remove, and the
selected server's form (``mcp_form``). The page keeps a working copy; the dialog's Save writes it
to ``mcp.json`` through ``McpStore`` (atomic) and the secrets typed to the keyring
(``secret_entry(server, name)``), and deletes the secrets of removed servers and rows from the
keyring: the file never holds a secret value.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.mcp import McpConfig, McpServer, secret_entry
from desktop.core.mcp.store import McpStore
from desktop.core.secrets import SecretStore, SecretStoreError
from desktop.ui import theme
from desktop.ui.conversation.items import set_role
from desktop.ui.i18n.core_text import translated
from desktop.ui.qt_async import TaskScope
from desktop.ui.settings.mcp_form import McpForm, problem_text
from desktop.ui.settings.split import list_and_detail

#: The list's switches drawn like the dialog's check boxes (its style sheet has none for them).
_SHEET = """
QListWidget#settingsList::indicator {{ width: 14px; height: 14px; border: 2px solid {muted};
    border-radius: 4px; background: {window}; }}
QListWidget#settingsList::indicator:checked {{ background: {accent}; border-color: {accent}; }}
"""


@dataclass
class McpEntry:
    """One server as edited: its ``mcp.json`` data and the secret values typed (unsaved)."""

    data: dict[str, Any]
    typed: dict[str, str] = field(default_factory=dict)


class McpPage(QWidget):
    """The MCP servers page.

    Args:
        secrets: The keyring (secrets are written there on save).
        scope: Where the keyring writes and the Test run.
        workspace: The window's folder, for "This workspace".
        store: The servers file (default: ``<config>/mcp.json``).

    Signals:
        changed(): something on the page was edited (not saved yet).
    """

    changed = Signal()

    def __init__(
        self,
        secrets: SecretStore,
        scope: TaskScope,
        workspace: Path | None = None,
        store: McpStore | None = None,
    ) -> None:
        super().__init__()
        self.setObjectName("mcpPage")
        theme.follow(self, _SHEET)
        self.store = store or McpStore()
        self._secrets = secrets
        self._scope = scope
        self._workspace = workspace
        self.entries: list[McpEntry] = []
        #: The keyring writes of the last save (they run in the background).
        self.secrets_task: asyncio.Task[None] | None = None
        self._row = -1
        self.list = QListWidget()
        self.list.setObjectName("settingsList")
        self.list.setAccessibleName(QCoreApplication.translate("McpSettings", "MCP servers"))
        self.list.setMinimumWidth(200)
        self.list.setMaximumWidth(220)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.add = QToolButton()
        self.add.setObjectName("addButton")
        self.add.setText(QCoreApplication.translate("McpSettings", "Add"))
        self.add.setAccessibleName(QCoreApplication.translate("McpSettings", "Add an MCP server"))
        self.remove = QToolButton()
        self.remove.setObjectName("removeButton")
        self.remove.setText(QCoreApplication.translate("McpSettings", "Remove"))
        self.remove.setAccessibleName(
            QCoreApplication.translate("McpSettings", "Remove the selected MCP server")
        )
        self.form = McpForm(secrets, scope, workspace)
        self.box = QGroupBox(QCoreApplication.translate("McpSettings", "Server"))
        QVBoxLayout(self.box).addWidget(self.form)
        self.empty = QLabel(
            QCoreApplication.translate(
                "McpSettings",
                "No MCP servers yet. Add one: its tools go to every agent that takes them.",
            )
        )
        self.empty.setWordWrap(True)
        set_role(self.empty, "muted")
        self.status = QLabel()
        self.status.setObjectName("mcpStatus")
        self.status.setWordWrap(True)
        set_role(self.status, "message", level="info")
        self._build()
        self.list.currentRowChanged.connect(self._on_row)
        self.list.itemChanged.connect(self._on_item_changed)
        self.add.clicked.connect(self.new_server)
        self.remove.clicked.connect(self._on_remove)
        self.form.changed.connect(self._on_form_changed)
        self.load()

    def _build(self) -> None:
        detail = list_and_detail(self, self.list, self.add, self.remove)
        detail.addWidget(self.empty)
        detail.addWidget(self.box)
        detail.addWidget(self.status)
        detail.addStretch(1)

    # ------------------------------------------------------------------ list
    def load(self) -> None:
        """Show the servers of ``mcp.json`` (a problem loading it is said on the page)."""
        self.entries = [McpEntry(s.model_dump(mode="json")) for s in self.store.config.servers]
        self._row = -1
        self.list.blockSignals(True)
        self.list.clear()
        for entry in self.entries:
            self.list.addItem(self._item(entry))
        self.list.blockSignals(False)
        self.list.setCurrentRow(0 if self.entries else -1)
        self._on_row(self.list.currentRow())
        self._say("\n".join(self.store.messages), "warning" if self.store.messages else "info")

    def _item(self, entry: McpEntry) -> QListWidgetItem:
        item = QListWidgetItem()
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        self._label(item, entry)
        return item

    def _label(self, item: QListWidgetItem, entry: McpEntry) -> None:
        data = entry.data
        kind = "stdio" if data.get("transport") == "stdio" else "HTTP"
        places = data.get("workspaces") or []
        where = (
            QCoreApplication.translate("McpSettings", "all workspaces")
            if not places
            else QCoreApplication.translate("McpSettings", "this workspace")
        )
        if places and [str(self._workspace)] != list(places):
            where = QCoreApplication.translate("McpSettings", "{0} workspaces").format(len(places))
        self.list.blockSignals(True)
        item.setText(f"{data.get('name') or '?'}\n{kind} · {where}")
        item.setCheckState(
            Qt.CheckState.Checked if data.get("enabled", True) else Qt.CheckState.Unchecked
        )
        item.setToolTip(QCoreApplication.translate("McpSettings", "Checked: enabled"))
        self.list.blockSignals(False)

    def _commit(self) -> None:
        if 0 <= self._row < len(self.entries):
            entry = self.entries[self._row]
            entry.data, typed = self.form.value()
            entry.typed = {**{k: v for k, v in entry.typed.items() if k not in typed}, **typed}
            item = self.list.item(self._row)
            if item is not None:
                self._label(item, entry)

    def _on_row(self, row: int) -> None:
        self._commit()
        self._row = row
        shown = 0 <= row < len(self.entries)
        if shown:
            entry = self.entries[row]
            self.form.blockSignals(True)
            self.form.set_value(entry.data, entry.typed)
            self.form.blockSignals(False)
        self.box.setVisible(shown)
        self.empty.setVisible(not self.entries)
        self.remove.setEnabled(shown)

    def _on_item_changed(self, item: QListWidgetItem) -> None:
        row = self.list.row(item)
        if not 0 <= row < len(self.entries):
            return
        enabled = item.checkState() == Qt.CheckState.Checked
        self.entries[row].data["enabled"] = enabled
        if row == self._row:
            self.form.enabled.setChecked(enabled)
        self.changed.emit()

    def _on_form_changed(self) -> None:
        self._commit()
        self.changed.emit()

    def new_server(self) -> None:
        """Add a stdio server with example values, select it, and put the cursor in its name."""
        self._commit()
        taken = {e.data.get("name") for e in self.entries}
        name, n = "server", 2
        while name in taken:
            name, n = f"server-{n}", n + 1
        entry = McpEntry({"name": name, "transport": "stdio", "command": "", "enabled": True})
        self.entries.append(entry)
        self.list.addItem(self._item(entry))
        self.list.setCurrentRow(len(self.entries) - 1)
        self.form.name.setFocus()
        self.form.name.selectAll()
        self.changed.emit()

    def select(self, name: str) -> None:
        """Select the server called ``name``."""
        for row, entry in enumerate(self.entries):
            if entry.data.get("name") == name:
                self.list.setCurrentRow(row)

    def _on_remove(self) -> None:
        row = self._row
        if not 0 <= row < len(self.entries):
            return
        self._row = -1
        del self.entries[row]
        self.list.takeItem(row)
        self._on_row(self.list.currentRow())
        self.changed.emit()

    # ------------------------------------------------------------------ save
    def validated(self) -> McpConfig | str:
        """The edited servers as a valid configuration, or what is wrong, in words."""
        self._commit()
        servers = []
        for entry in self.entries:
            try:
                servers.append(McpServer.model_validate(entry.data))
            except ValidationError as exc:
                name = entry.data.get("name") or "?"
                return QCoreApplication.translate("McpSettings", "MCP server {0}: {1}").format(
                    name, problem_text(exc)
                )
        try:
            return McpConfig(servers=tuple(servers))
        except ValidationError as exc:
            return problem_text(exc)

    def missing_secrets(self, config: McpConfig) -> list[str]:
        """Secret rows of new servers or new secret names with no value typed."""
        before = {s.name: set(s.secret_names()) for s in self.store.config.servers}
        typed = {str(e.data.get("name")): e.typed for e in self.entries}
        missing = []
        for server in config.servers:
            for name in server.secret_names():
                if name not in before.get(server.name, set()) and name not in typed[server.name]:
                    missing.append(f"{server.name}: {name}")
        return missing

    def save(self, config: McpConfig) -> None:
        """Write ``config`` to ``mcp.json`` (raises ``OSError``), then the typed secrets to the
        keyring and the dropped ones out of it (in the background; the page says how it went)."""
        old = {s.name: set(s.secret_names()) for s in self.store.config.servers}
        self.store.save(config)
        writes: list[tuple[str, str]] = []
        for entry in self.entries:
            server = config.server(str(entry.data.get("name")))
            if server is None:
                continue
            for name in server.secret_names():
                if entry.typed.get(name):
                    writes.append((secret_entry(server.name, name), entry.typed[name]))
        deletes: list[str] = []
        for name, secrets in old.items():
            now = config.server(name)
            keep = set(now.secret_names()) if now is not None else set()
            deletes += [secret_entry(name, secret) for secret in sorted(secrets - keep)]
        for entry in self.entries:
            entry.typed = {}
        if writes or deletes:
            self.secrets_task = self._scope.spawn(
                self._store_secrets(writes, deletes), name="mcp-secrets"
            )
        else:
            self._say(
                QCoreApplication.translate("McpSettings", "MCP servers saved to {0}").format(
                    self.store.path
                ),
                "info",
            )
        if 0 <= self._row < len(self.entries):
            entry = self.entries[self._row]
            self.form.blockSignals(True)
            self.form.set_value(entry.data, {})
            self.form.blockSignals(False)

    async def _store_secrets(self, writes: list[tuple[str, str]], deletes: list[str]) -> None:
        try:
            for key, value in writes:
                await self._secrets.set(key, value)
            for key in deletes:
                await self._secrets.delete(key)
        except SecretStoreError as exc:
            self._say(
                QCoreApplication.translate(
                    "McpSettings", "MCP servers saved, but a secret was not: {0}"
                ).format(translated(exc.text)),
                "error",
            )
            return
        self._say(
            QCoreApplication.translate(
                "McpSettings", "MCP servers saved to {0}; {1} secret(s) stored in the keyring."
            ).format(self.store.path, len(writes)),
            "info",
        )

    def _say(self, text: str, level: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))
        set_role(self.status, "message", level=level)
