"""The edit form of one MCP server: name, kind (stdio or HTTP, each with its own fields), scope,
enabled, and a Test button.

stdio shows the command, its arguments (one shell-quoted line) and environment rows; HTTP shows
the URL and header rows; each row can be a secret (kept in the keyring). Test starts the server
as it is typed (unsaved secrets included) with the same check as ``agentdesk mcp test``, on a
worker thread with its own event loop (the MCP SDK's transports never touch the window's loop),
and shows the server's tools, or the reason it failed with the end of its stderr.
"""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.mcp import McpServer, McpTransport
from desktop.core.secrets import SecretStore, SecretStoreError
from desktop.ui.conversation.items import set_role
from desktop.ui.i18n.core_text import translated
from desktop.ui.qt_async import TaskScope
from desktop.ui.settings.mcp_rows import SecretRows

#: Where a server applies, as the scope choice's data (not words: the labels are translated).
_ALL, _HERE, _LISTED = "all", "here", "listed"
_EXAMPLE_URL = "https://example.com/mcp"


def problem_text(exc: ValidationError | ValueError) -> str:
    """A validation error in one line (the field and what is wrong with it)."""
    if isinstance(exc, ValidationError):
        return "; ".join(
            (".".join(str(p) for p in e["loc"]) + ": " if e["loc"] else "")
            + str(e["msg"]).removeprefix("Value error, ")
            for e in exc.errors()
        )
    return str(exc)


def _check_in_thread(server: Any, cwd: Path | None) -> list[tuple[str, str]]:
    """Start the server on this (worker) thread's own loop: its tools' names and summaries."""
    from desktop.agent.mcp_client import check_server

    tools = asyncio.run(check_server(server, cwd))
    out = []
    for tool in tools:
        lines = (tool.description or "").strip().splitlines()
        out.append((str(tool.name), lines[0] if lines else ""))
    return out


class McpForm(QWidget):
    """One server as edited; ``value()`` is its ``mcp.json`` entry plus the secrets typed.

    Args:
        secrets: The keyring (Test reads stored secrets from it).
        scope: Where Test runs.
        workspace: The window's folder ("This workspace"), if the dialog has one.

    Signals:
        changed(): the user edited something.
    """

    changed = Signal()

    def __init__(self, secrets: SecretStore, scope: TaskScope, workspace: Path | None) -> None:
        super().__init__()
        self._secrets = secrets
        self._scope = scope
        self._workspace = workspace
        self._other_places: tuple[str, ...] = ()
        self.name = QLineEdit()
        self.name.setAccessibleName(QCoreApplication.translate("McpSettings", "Name"))
        self.name.setPlaceholderText(
            QCoreApplication.translate("McpSettings", "Letters, digits and dashes")
        )
        self.kind = QComboBox()
        self.kind.addItem(
            QCoreApplication.translate("McpSettings", "Local program (stdio)"),
            McpTransport.STDIO.value,
        )
        self.kind.addItem(
            QCoreApplication.translate("McpSettings", "HTTP server"), McpTransport.HTTP.value
        )
        self.kind.setAccessibleName(QCoreApplication.translate("McpSettings", "Kind"))
        self.command = QLineEdit()
        self.command.setPlaceholderText(
            QCoreApplication.translate("McpSettings", "Program, e.g. npx or /usr/bin/my-server")
        )
        self.command.setAccessibleName(QCoreApplication.translate("McpSettings", "Command"))
        self.args = QLineEdit()
        self.args.setPlaceholderText(
            QCoreApplication.translate("McpSettings", "Arguments, as on a command line")
        )
        self.args.setAccessibleName(QCoreApplication.translate("McpSettings", "Arguments"))
        self.env = SecretRows(
            QCoreApplication.translate("McpSettings", "Variable"),
            QCoreApplication.translate("McpSettings", "Add variable"),
        )
        self.url = QLineEdit()
        self.url.setPlaceholderText(_EXAMPLE_URL)
        self.url.setAccessibleName(QCoreApplication.translate("McpSettings", "URL"))
        self.headers = SecretRows(
            QCoreApplication.translate("McpSettings", "Header"),
            QCoreApplication.translate("McpSettings", "Add header"),
        )
        self.scope_choice = QComboBox()
        self.scope_choice.setAccessibleName(QCoreApplication.translate("McpSettings", "Where"))
        self.enabled = QCheckBox(QCoreApplication.translate("McpSettings", "Enabled"))
        self.test = QPushButton(QCoreApplication.translate("McpSettings", "Test"))
        self.test.setToolTip(
            QCoreApplication.translate(
                "McpSettings", "Start the server as typed here and list its tools"
            )
        )
        self.result = QLabel()
        self.result.setObjectName("mcpTestResult")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        set_role(self.result, "message", level="info")
        self._build()
        self._connect()

    def _build(self) -> None:
        # One form, so every label lines up; the kind shows its own rows (stdio or HTTP).
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        translate = QCoreApplication.translate
        for label, widget in (
            (translate("McpSettings", "Name"), self.name),
            (translate("McpSettings", "Kind"), self.kind),
            (translate("McpSettings", "Command"), self.command),
            (translate("McpSettings", "Arguments"), self.args),
            (translate("McpSettings", "Environment"), self.env),
            (translate("McpSettings", "URL"), self.url),
            (translate("McpSettings", "Headers"), self.headers),
            (translate("McpSettings", "Where"), self.scope_choice),
        ):
            form.addRow(label, widget)
        form.addRow("", self.enabled)
        self.rows = form
        self.stdio_fields: tuple[QWidget, ...] = (self.command, self.args, self.env)
        self.http_fields: tuple[QWidget, ...] = (self.url, self.headers)
        test_line = QHBoxLayout()
        test_line.addWidget(self.test)
        test_line.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        layout.addLayout(test_line)
        layout.addWidget(self.result)

    def _connect(self) -> None:
        self.kind.currentIndexChanged.connect(self._on_kind)
        for edit in (self.name, self.command, self.args, self.url):
            edit.textEdited.connect(self.changed)
        for rows in (self.env, self.headers):
            rows.changed.connect(self.changed)
        self.kind.activated.connect(self.changed)
        self.scope_choice.activated.connect(self.changed)
        self.enabled.toggled.connect(self.changed)
        self.test.clicked.connect(self._on_test)

    def _on_kind(self, index: int) -> None:
        for widget in self.stdio_fields:
            self.rows.setRowVisible(widget, index == 0)
        for widget in self.http_fields:
            self.rows.setRowVisible(widget, index == 1)

    # ------------------------------------------------------------------ data
    def set_value(self, data: dict[str, Any], typed: dict[str, str]) -> None:
        """Show a server's ``mcp.json`` entry and the secret values typed for it (unsaved)."""
        self.name.setText(str(data.get("name", "")))
        stdio = data.get("transport", "stdio") == McpTransport.STDIO.value
        self.kind.setCurrentIndex(0 if stdio else 1)
        self._on_kind(self.kind.currentIndex())
        self.command.setText(str(data.get("command") or ""))
        self.args.setText(shlex.join(data.get("args") or []))
        self.url.setText(str(data.get("url") or ""))
        self.env.set_rows(dict(data.get("env") or {}), tuple(data.get("secret_env") or ()))
        self.headers.set_rows(
            dict(data.get("headers") or {}), tuple(data.get("secret_headers") or ())
        )
        for rows in (self.env, self.headers):
            for row in rows.rows:
                if row.secret.isChecked() and row.name.text() in typed:
                    row.value.setText(typed[row.name.text()])
        self._fill_scope(tuple(data.get("workspaces") or ()))
        self.enabled.setChecked(bool(data.get("enabled", True)))
        self._say("", "info")

    def _fill_scope(self, places: tuple[str, ...]) -> None:
        here = str(self._workspace) if self._workspace else None
        self._other_places = places if places and places != (here,) else ()
        combo = self.scope_choice
        combo.clear()
        combo.addItem(QCoreApplication.translate("McpSettings", "All workspaces"), _ALL)
        if here:
            name = self._workspace.name if self._workspace else here
            combo.addItem(
                QCoreApplication.translate("McpSettings", "This workspace ({0})").format(name),
                _HERE,
            )
        if self._other_places:
            combo.addItem(
                QCoreApplication.translate("McpSettings", "These workspaces: {0}").format(
                    ", ".join(self._other_places)
                ),
                _LISTED,
            )
        chosen = _ALL if not places else (_HERE if places == (here,) else _LISTED)
        combo.setCurrentIndex(max(combo.findData(chosen), 0))

    def value(self) -> tuple[dict[str, Any], dict[str, str]]:
        """(the ``mcp.json`` entry as JSON data, the secret values typed by name)."""
        stdio = self.kind.currentData() == McpTransport.STDIO.value
        where = self.scope_choice.currentData()
        places: tuple[str, ...] = ()
        if where == _HERE and self._workspace:
            places = (str(self._workspace),)
        elif where == _LISTED:
            places = self._other_places
        data: dict[str, Any] = {
            "name": self.name.text().strip(),
            "transport": self.kind.currentData(),
            "workspaces": list(places),
            "enabled": self.enabled.isChecked(),
        }
        if stdio:
            rows = self.env.value()
            try:
                args = shlex.split(self.args.text())
            except ValueError:
                args = [self.args.text()]
            data |= {
                "command": self.command.text().strip() or None,
                "args": args,
                "env": rows.plain,
                "secret_env": list(rows.secret_names),
            }
        else:
            rows = self.headers.value()
            data |= {
                "url": self.url.text().strip() or None,
                "headers": rows.plain,
                "secret_headers": list(rows.secret_names),
            }
        return data, rows.typed

    # ------------------------------------------------------------------ test
    def _on_test(self) -> None:
        data, typed = self.value()
        try:
            server = McpServer.model_validate(data)
        except ValidationError as exc:
            self._say(
                QCoreApplication.translate("McpSettings", "Cannot test: {0}").format(
                    problem_text(exc)
                ),
                "error",
            )
            return
        try:
            self._scope.spawn(self._test(server, typed), name=f"mcp-test:{server.name}")
        except RuntimeError:  # the dialog is closing
            return
        self.test.setEnabled(False)
        self._say(
            QCoreApplication.translate("McpSettings", "Starting {0}…").format(server.name), "info"
        )

    async def _test(self, server: McpServer, typed: dict[str, str]) -> None:
        from desktop.agent.mcp_client import McpServerError
        from desktop.core.mcp.resolve import resolve_server

        try:
            resolved = await resolve_server(server, self._secrets, typed)
            tools = await asyncio.to_thread(_check_in_thread, resolved, self._workspace)
        except (LookupError, McpServerError) as exc:
            self._say(str(exc), "error")
        except SecretStoreError as exc:
            self._say(translated(exc.text), "error")
        else:
            lines = [
                QCoreApplication.translate("McpSettings", "Working: {0} tools.").format(len(tools))
            ]
            lines += [
                f"• {name} — {summary}" if summary else f"• {name}" for name, summary in tools
            ]
            self._say("\n".join(lines), "info")
        finally:
            self.test.setEnabled(True)

    def _say(self, text: str, level: str) -> None:
        self.result.setText(text)
        set_role(self.result, "message", level=level)
