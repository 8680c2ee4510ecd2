"""Master–detail pages for the settings lists: provider profiles and agents.

The page keeps a working copy (plain JSON dicts) of its list; the selected entry is edited in a
generated form and written back to the copy when the selection moves or the dialog saves.
Agents are a discriminated union: one generated form per ``kind``, switched by the entry's kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

from pydantic import BaseModel
from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.secrets import SecretStore
from desktop.core.settings.models import AnyAgent, ProviderProfile
from desktop.ui.conversation.items import set_role
from desktop.ui.qt_async import TaskScope
from desktop.ui.settings.editors import focus_target
from desktop.ui.settings.forms import FieldEditor, ModelForm, NameChoice
from desktop.ui.settings.keys import KeyPanel
from desktop.ui.settings.split import list_and_detail
from desktop.ui.settings.words import agent_kind, default_label, tr

#: Agent kind → model class, from the union itself (a new kind gets a form by itself).
AGENT_KINDS: dict[str, type[BaseModel]] = {
    cls.model_fields["kind"].default: cls for cls in get_args(AnyAgent)
}

_NEW_AGENT: dict[str, dict[str, Any]] = {
    "builtin": {"profile": "anthropic"},
    "aionrs": {},
    "custom": {"command": ["my-agent", "--json-stream"]},
    "remote": {"runtime": {"address": "localhost:42618", "user_id": "me", "workspace_id": "ws"}},
    "acp": {"preset": "claude"},
    "codex": {},
}


class ListPage(QWidget):
    """A list of named entries with add/remove and a detail pane.

    Signals:
        changed(): an entry was added, removed or edited.
        renamed(str, str): an entry's name changed from the first to the second.
    """

    changed = Signal()
    renamed = Signal(str, str)

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entries: list[dict[str, Any]] = []
        self._row = -1
        self.list = QListWidget()
        self.list.setObjectName("settingsList")
        self.list.setAccessibleName(title)
        self.list.setMinimumWidth(120)  # narrower in a narrow dialog, never cut
        self.list.setMaximumWidth(170)
        self.add = QToolButton()
        self.add.setText(QCoreApplication.translate("Settings", "Add"))
        self.add.setObjectName("addButton")
        self.add.setAccessibleName(
            QCoreApplication.translate("Settings", "Add to {0}").format(title)
        )
        self.remove = QToolButton()
        self.remove.setText(QCoreApplication.translate("Settings", "Remove"))
        self.remove.setObjectName("removeButton")
        self.remove.setAccessibleName(
            QCoreApplication.translate("Settings", "Remove from {0}").format(title)
        )
        self.detail = list_and_detail(self, self.list, self.add, self.remove)
        self.detail.setSpacing(12)
        self.list.currentRowChanged.connect(self._on_row)
        self.remove.clicked.connect(self._on_remove)

    # ------------------------------------------------------------------ to implement
    def _form(self, entry: dict[str, Any]) -> ModelForm:
        raise NotImplementedError

    def _shown(self, entry: dict[str, Any]) -> None:
        """The entry is now in the form (subclasses update key panels)."""

    # ------------------------------------------------------------------ data
    def load(self, entries: list[dict[str, Any]]) -> None:
        """Show ``entries`` (JSON dicts); selects the first."""
        self.entries = [dict(e) for e in entries]
        self._row = -1
        self.list.blockSignals(True)
        self.list.clear()
        for entry in self.entries:
            self.list.addItem(self.label(entry))
        self.list.blockSignals(False)
        self.list.setCurrentRow(0 if self.entries else -1)
        if not self.entries:
            self._on_row(-1)

    def values(self) -> list[dict[str, Any]]:
        """The edited entries (including the one in the form)."""
        self._commit()
        return [dict(e) for e in self.entries]

    def select(self, name: str) -> None:
        """Select the entry called ``name``."""
        for row, entry in enumerate(self.entries):
            if entry.get("name") == name:
                self.list.setCurrentRow(row)

    def append(self, entry: dict[str, Any]) -> None:
        """Add ``entry`` and select it."""
        self._commit()
        self.entries.append(entry)
        self.list.addItem(self.label(entry))
        self.list.setCurrentRow(len(self.entries) - 1)
        self.changed.emit()

    def unique_name(self, base: str) -> str:
        """``base``, or ``base-2`` … when taken."""
        taken = {e.get("name") for e in self.entries}
        name, n = base, 2
        while name in taken:
            name, n = f"{base}-{n}", n + 1
        return name

    @staticmethod
    def label(entry: dict[str, Any]) -> str:
        """How ``entry`` reads in the list (and in choices that name it)."""
        name, kind = str(entry.get("name", "?")), entry.get("kind")
        return name if kind in (None, name) else f"{name} · {agent_kind(str(kind))}"

    def _commit(self) -> None:
        if 0 <= self._row < len(self.entries):
            entry = self.entries[self._row]
            before = entry.get("name")
            entry.update(self._form(entry).value())
            self.list.item(self._row).setText(self.label(entry))
            if before and entry.get("name") and before != entry.get("name"):
                self.renamed.emit(str(before), str(entry.get("name")))

    def _on_row(self, row: int) -> None:
        self._commit()
        self._row = row
        if 0 <= row < len(self.entries):
            entry = self.entries[row]
            form = self._form(entry)
            form.set_value(entry)
            self._shown(entry)
        self.remove.setEnabled(0 <= row < len(self.entries))

    def _on_remove(self) -> None:
        row = self._row
        if not 0 <= row < len(self.entries):
            return
        self._row = -1
        del self.entries[row]
        self.list.takeItem(row)
        self.changed.emit()


class ProfilesPage(ListPage):
    """Provider profiles, each with its API key."""

    def __init__(self, secrets: SecretStore, scope: TaskScope, status: str) -> None:
        super().__init__(QCoreApplication.translate("Settings", "Providers"))
        self.add.setToolTip(QCoreApplication.translate("Settings", "New profile"))
        self.add.setAccessibleName(QCoreApplication.translate("Settings", "New profile"))
        self.form = ModelForm(ProviderProfile)
        self.form.changed.connect(self.changed)
        box = QGroupBox(QCoreApplication.translate("Settings", "Profile"))
        QVBoxLayout(box).addWidget(self.form)
        self.detail.addWidget(box)
        self.keys = KeyPanel(secrets, scope, profile=self._profile_values)
        keys_box = QGroupBox(QCoreApplication.translate("Settings", "API key"))
        keys_layout = QVBoxLayout(keys_box)
        self.keyring_status = QLabel(status)
        self.keyring_status.setObjectName("keyringStatus")
        self.keyring_status.setWordWrap(True)
        set_role(self.keyring_status, "muted")
        keys_layout.addWidget(self.keyring_status)
        keys_layout.addWidget(self.keys)
        self.detail.addWidget(keys_box)
        self.detail.addStretch(1)
        self.add.clicked.connect(self._on_add)

    def _form(self, entry: dict[str, Any]) -> ModelForm:
        del entry
        return self.form

    def _shown(self, entry: dict[str, Any]) -> None:
        self.keys.show_entry(str(entry.get("name", "")), entry.get("provider"))

    def _profile_values(self) -> tuple[str, str, str | None]:
        data = self.form.value()
        return str(data.get("provider")), str(data.get("model")), data.get("base_url")

    def names(self) -> list[tuple[str, str]]:
        """(name, label) of every profile as edited (unsaved ones too)."""
        self._commit()
        return [(str(e.get("name")), _profile_label(e)) for e in self.entries]

    def new_profile(self) -> str:
        """Add a profile with example values, select it and put the cursor in its name."""
        name = self.unique_name("profile")
        self.append({"name": name, "provider": "openai", "model": "gpt-4.1"})
        field = focus_target(self.form.editors["name"])
        if isinstance(field, QLineEdit):
            field.setFocus()
            field.selectAll()
        return name

    def _on_add(self) -> None:
        self.new_profile()


def _profile_label(entry: dict[str, Any]) -> str:
    provider = {"anthropic": "Anthropic", "openai": "OpenAI"}.get(str(entry.get("provider")), "")
    model = entry.get("model") or ""
    details = " · ".join(str(part) for part in (provider, model) if part)
    return f"{entry.get('name')} — {details}" if details else str(entry.get("name"))


class AgentsPage(ListPage):
    """Agents of every kind; a remote runtime's signing key is edited here too.

    Args:
        profiles: (name, label) of the provider profiles, for the fields that name one.

    Signals:
        new_profile_requested(NameChoice): "New profile…" was chosen in that field.
    """

    new_profile_requested = Signal(object)

    def __init__(
        self,
        secrets: SecretStore,
        scope: TaskScope,
        profiles: Callable[[], list[tuple[str, str]]] | None = None,
    ) -> None:
        super().__init__(QCoreApplication.translate("Settings", "Agents"))
        self.forms: dict[str, ModelForm] = {}
        self.stack = QStackedWidget()
        #: The fields that name a provider profile: a choice of the profiles, and "New profile…".
        self.profile_choices: list[NameChoice] = []
        for kind, model in AGENT_KINDS.items():
            overrides: dict[str, FieldEditor] = {}
            for field in ("profile", "key_profile"):
                if field in model.model_fields:
                    optional = not model.model_fields[field].is_required()
                    choice = NameChoice(
                        profiles,
                        empty=default_label(field) if optional else None,
                        new=QCoreApplication.translate("Settings", "New profile…"),
                    )
                    choice.new_requested.connect(
                        lambda c=choice: self.new_profile_requested.emit(c)
                    )
                    self.profile_choices.append(choice)
                    overrides[field] = choice
            form = ModelForm(model, skip=frozenset({"kind"}), overrides=overrides)
            form.changed.connect(self.changed)
            self.forms[kind] = form
            self.stack.addWidget(form)
        self.kind = QLabel()
        self.kind.setWordWrap(True)
        set_role(self.kind, "muted")
        self.box = QGroupBox(QCoreApplication.translate("Settings", "Agent"))
        inner = QVBoxLayout(self.box)
        inner.addWidget(self.kind)
        inner.addWidget(self.stack)
        self.detail.addWidget(self.box)
        self.keys = KeyPanel(secrets, scope)
        self.keys_box = QGroupBox(QCoreApplication.translate("Settings", "Signing key"))
        QVBoxLayout(self.keys_box).addWidget(self.keys)
        self.detail.addWidget(self.keys_box)
        self.catalogue_slot = QVBoxLayout()
        self.detail.addLayout(self.catalogue_slot)
        self.detail.addStretch(1)
        menu = QMenu(self.add)
        for kind in AGENT_KINDS:
            action = menu.addAction(agent_kind(kind))
            action.setData(kind)
        menu.triggered.connect(self._on_add_kind)
        self.add.setMenu(menu)
        self.add.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.add_buttons = {a.data(): a for a in menu.actions()}

    def _form(self, entry: dict[str, Any]) -> ModelForm:
        return self.forms[str(entry.get("kind", "builtin"))]

    def _shown(self, entry: dict[str, Any]) -> None:
        kind = str(entry.get("kind", "builtin"))
        ignored, preferred = QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred
        for name, form in self.forms.items():
            # a stack is as tall as its tallest page unless the hidden ones are ignored
            policy = preferred if name == kind else ignored
            form.setSizePolicy(preferred, policy)
        self.stack.setCurrentWidget(self.forms[kind])
        doc = (AGENT_KINDS[kind].__doc__ or "").strip().splitlines()[0]
        self.kind.setText(f"<b>{agent_kind(kind)}</b> — {tr(doc)}")
        self.keys_box.setVisible(kind == "remote")
        if kind == "remote":
            self.keys.show_entry(str(entry.get("name", "")))

    def rename_profile(self, old: str, new: str) -> None:
        """A profile was renamed: the agents that name it follow (form and entries)."""
        self._commit()
        for entry in self.entries:
            for field in ("profile", "key_profile"):
                if entry.get(field) == old:
                    entry[field] = new
            keys = entry.get("key_env")
            if isinstance(keys, dict):
                entry["key_env"] = {var: new if p == old else p for var, p in keys.items()}
        if 0 <= self._row < len(self.entries):  # the form shows the entry as it is now
            shown = self.entries[self._row]
            self._form(shown).set_value(shown)

    def add_kind(self, kind: str) -> None:
        """Add a new agent of ``kind`` with example values."""
        self.append({"kind": kind, "name": self.unique_name(kind), **_NEW_AGENT.get(kind, {})})

    def _on_add_kind(self, action: Any) -> None:
        self.add_kind(str(action.data()))
