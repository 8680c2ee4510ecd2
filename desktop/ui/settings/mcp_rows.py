"""Rows of names and values with a "secret" switch each: an MCP server's env or headers.

A plain row's value goes to ``mcp.json``; a secret row's value goes to the OS keyring when the
dialog saves (entry ``mcp:<server>:<name>``), never to the file. A secret already in the keyring
is shown as an empty password field that says so: left empty it is kept, typed over it is
replaced. ``value()`` gives the plain pairs, the secret names and the secret values typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


@dataclass(frozen=True)
class RowValues:
    """What a set of rows holds: plain pairs, the secret names, and secret values typed now."""

    plain: dict[str, str] = field(default_factory=dict)
    secret_names: tuple[str, ...] = ()
    typed: dict[str, str] = field(default_factory=dict)


class SecretRow(QWidget):
    """One name, one value, and whether the value is a secret."""

    changed = Signal()
    removed = Signal(object)

    def __init__(self, noun: str, name: str = "", value: str = "", secret: bool = False) -> None:
        super().__init__()
        self.name = QLineEdit(name)
        self.name.setMinimumWidth(120)
        self.name.setPlaceholderText(noun)
        self.name.setAccessibleName(noun)
        self.value = QLineEdit(value)
        self.value.setAccessibleName(QCoreApplication.translate("McpSettings", "Value"))
        self.secret = QCheckBox(QCoreApplication.translate("McpSettings", "Secret"))
        self.secret.setToolTip(
            QCoreApplication.translate(
                "McpSettings", "Kept in the system keyring, never in the MCP server file"
            )
        )
        self.stored = False
        self.drop = QToolButton()
        self.drop.setText("✕")
        self.drop.setAccessibleName(QCoreApplication.translate("McpSettings", "Remove this row"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.name, 2)
        layout.addWidget(self.value, 3)
        layout.addWidget(self.secret)
        layout.addWidget(self.drop)
        self.secret.setChecked(secret)
        self._on_secret(secret)
        self.secret.toggled.connect(self._on_secret)
        for edit in (self.name, self.value):
            edit.textEdited.connect(self.changed)
        self.secret.toggled.connect(self.changed)
        self.drop.clicked.connect(lambda: self.removed.emit(self))

    def mark_stored(self) -> None:
        """The secret's value is in the keyring: the empty field keeps it."""
        self.stored = True
        self.value.setPlaceholderText(QCoreApplication.translate("McpSettings", "In the keyring"))
        self.value.setToolTip(
            QCoreApplication.translate("McpSettings", "Stored in the keyring; type to replace")
        )

    def _on_secret(self, secret: bool) -> None:
        mode = QLineEdit.EchoMode.Password if secret else QLineEdit.EchoMode.Normal
        self.value.setEchoMode(mode)
        if not secret and not self.stored:
            self.value.setPlaceholderText(QCoreApplication.translate("McpSettings", "Value"))
        elif not self.stored:
            self.value.setPlaceholderText(
                QCoreApplication.translate("McpSettings", "Secret value (goes to the keyring)")
            )


class SecretRows(QWidget):
    """Editable rows of ``SecretRow`` with an "Add" button under them.

    Args:
        noun: What a row's name is ("Variable", "Header").
        add_text: The words of the add button.

    Signals:
        changed(): a row was added, removed or edited.
    """

    changed = Signal()

    def __init__(self, noun: str, add_text: str) -> None:
        super().__init__()
        self._noun = noun
        self.rows: list[SecretRow] = []
        self._box = QVBoxLayout()
        self._box.setSpacing(4)
        self.add = QPushButton(add_text)
        self.add.clicked.connect(self._on_add)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self._box)
        add_line = QHBoxLayout()
        add_line.addWidget(self.add)
        add_line.addStretch(1)
        layout.addLayout(add_line)

    def set_rows(self, plain: dict[str, str], secrets: tuple[str, ...]) -> None:
        """Show ``plain`` pairs, then the ``secrets`` (stored in the keyring, values not shown)."""
        for row in list(self.rows):
            self._remove(row, quiet=True)
        for name, value in plain.items():
            self.add_row(name, value)
        for name in secrets:
            self.add_row(name, "", secret=True).mark_stored()

    def add_row(self, name: str = "", value: str = "", *, secret: bool = False) -> SecretRow:
        """A new row at the end."""
        row = SecretRow(self._noun, name, value, secret)
        row.changed.connect(self.changed)
        row.removed.connect(self._remove)
        self._box.addWidget(row)
        self.rows.append(row)
        return row

    def value(self) -> RowValues:
        """The rows as plain pairs, secret names and the secret values typed (empty rows are
        skipped)."""
        plain: dict[str, str] = {}
        names: list[str] = []
        typed: dict[str, str] = {}
        for row in self.rows:
            name = row.name.text().strip()
            if not name:
                continue
            if row.secret.isChecked():
                names.append(name)
                if row.value.text():
                    typed[name] = row.value.text()
            else:
                plain[name] = row.value.text()
        return RowValues(plain, tuple(names), typed)

    def _on_add(self) -> None:
        self.add_row().name.setFocus()
        self.changed.emit()

    def _remove(self, row: SecretRow, quiet: bool = False) -> None:
        self.rows.remove(row)
        self._box.removeWidget(row)
        row.hide()
        row.deleteLater()
        if not quiet:
            self.changed.emit()
