"""The Settings dialog (Ctrl+,): every field of ``Settings``, generated from the models.

Pages: Providers (profiles and their keys), Agents (every kind, remote signing keys, the
catalogue with Install), General (default agent, approvals, appearance, the rest of the tree)
MCP servers (saved to ``mcp.json`` and the keyring, ``mcp_page``) and, when a window passes one,
its Extensions page. The dialog is non-modal and never runs a
nested event loop. Save validates the whole document, shows errors next to the fields, and
writes through ``SettingsStore.save`` (atomic); listeners (windows, appearance) react to it.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.core.catalogue import CATALOGUE
from desktop.core.settings import Settings
from desktop.ui import theme
from desktop.ui.conversation.items import set_role
from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.i18n.core_text import shown
from desktop.ui.qt_async import TaskScope
from desktop.ui.settings.catalogue import CatalogueBox
from desktop.ui.settings.forms import FieldEditor, ModelForm, NameChoice
from desktop.ui.settings.lists import AgentsPage, ProfilesPage
from desktop.ui.settings.mcp_page import McpPage
from desktop.ui.settings.prices import PricesBox
from desktop.ui.settings.services import SettingsServices
from desktop.ui.settings.style import SHEET
from desktop.ui.settings.words import tr

#: The line under each page's title.
_PAGE_HINTS = {
    "Providers": QT_TRANSLATE_NOOP(
        "Settings", "The APIs the built-in agent talks to, and their keys."
    ),
    "Agents": QT_TRANSLATE_NOOP("Settings", "The agents new conversations can use."),
    "General": QT_TRANSLATE_NOOP(
        "Settings", "New conversations, approvals and the look of the window."
    ),
    "Extensions": QT_TRANSLATE_NOOP("Settings", "What extensions do, and which of them are on."),
    "MCP servers": QT_TRANSLATE_NOOP(
        "Settings", "Tool servers every agent gets (secrets stay in the keyring)."
    ),
}

#: The page names, for the catalogue (the pages are keyed by their English names).
_PAGE_NAMES = (
    QT_TRANSLATE_NOOP("Settings", "Providers"),
    QT_TRANSLATE_NOOP("Settings", "Agents"),
    QT_TRANSLATE_NOOP("Settings", "General"),
    QT_TRANSLATE_NOOP("Settings", "Extensions"),
    QT_TRANSLATE_NOOP("Settings", "MCP servers"),
)

#: Top-level fields edited on their own pages (lists) or not editable (the version).
LIST_FIELDS = frozenset({"profiles", "agents"})
PAGE_FIELDS = frozenset({"extensions"})
READ_ONLY = frozenset({"schema_version"})


def _scrolled(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(widget)
    return area


def _errors_by_section(exc: ValidationError) -> dict[str, list[tuple[tuple[Any, ...], str]]]:
    sections: dict[str, list[tuple[tuple[Any, ...], str]]] = {}
    for error in exc.errors():
        loc = tuple(error["loc"])
        sections.setdefault(str(loc[0]) if loc else "", []).append((loc[1:], error["msg"]))
    return sections


class WindowPage(QWidget):
    """A page a window adds to its Settings: its Extensions page (``desktop.ui.extensions``,
    above this package, which it does not import). It says when it was edited and gives its
    section of the settings document.

    Signals:
        edited(): something on the page changed (not saved yet).
    """

    edited = Signal()

    def settings_value(self) -> dict[str, Any]:
        """The page's section of the settings document, as it reads now."""
        return {}


class SettingsDialog(QDialog):
    """Edit and save the settings; ``extensions_page`` is the window's Extensions page."""

    def __init__(
        self,
        services: SettingsServices,
        scope: TaskScope,
        parent: QWidget | None = None,
        extensions_page: WindowPage | None = None,
        workspace: Path | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle(QCoreApplication.translate("Settings", "Settings — Agent Desk"))
        self.setModal(False)
        self.resize(920, 640)
        self.services = services
        self.scope = scope
        theme.follow(self, SHEET)  # the app's palette, live
        store = services.store
        self.banner = QLabel()
        self.banner.setObjectName("settingsBanner")
        self.banner.setWordWrap(True)
        set_role(self.banner, "message", level="warning")
        self.banner.setVisible(False)
        status = services.secrets.status
        keyring = shown(status.message, status.text)
        self.profiles = ProfilesPage(services.secrets, scope, keyring)
        self.agents = AgentsPage(services.secrets, scope, self.profiles.names)
        self.catalogue = CatalogueBox(scope)
        self.agents.catalogue_slot.addWidget(self.catalogue)
        self.default_agent = NameChoice(self._agent_names)
        overrides: dict[str, FieldEditor] = {"default_agent": self.default_agent}
        skip = LIST_FIELDS | PAGE_FIELDS | READ_ONLY
        self.general = ModelForm(Settings, skip=skip, overrides=overrides)
        self.extensions_page = extensions_page
        #: Pages by their (untranslated) name, which ``show_page`` takes.
        self.pages: dict[str, QWidget] = {
            "Providers": self.profiles,
            "Agents": self.agents,
            "General": _scrolled(self._general_page()),
        }
        self.mcp = McpPage(services.secrets, scope, workspace)
        self.pages["MCP servers"] = self.mcp
        if extensions_page is not None:
            self.pages["Extensions"] = _scrolled(extensions_page)
        self._build()
        self._connect_signals()
        self._on_page(self.nav.currentRow())
        self.load(store.settings)
        if store.messages and not services.messages_shown:
            services.messages_shown = True
            self.banner.setText("\n".join(store.messages))
            self.banner.setVisible(True)

    # ------------------------------------------------------------------ layout
    def _general_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 8, 0)
        layout.addWidget(self.general)
        self.prices = PricesBox(page)
        layout.addWidget(self.prices)
        layout.addStretch(1)
        return page

    def _build(self) -> None:
        self.nav = QListWidget()
        self.nav.setObjectName("settingsNav")
        self.nav.setAccessibleName(self.tr("Settings pages"))
        self.nav.setMinimumWidth(112)
        self.nav.setMaximumWidth(150)
        self.stack = QStackedWidget()
        for name, page in self.pages.items():
            self.nav.addItem(tr(name))
            self.nav.item(self.nav.count() - 1).setToolTip(tr(_PAGE_HINTS.get(name, "")))
            self.stack.addWidget(page)
        self.heading = QLabel()
        self.heading.setObjectName("pageTitle")
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        set_role(self.hint, "muted")
        column = QVBoxLayout()
        column.setSpacing(2)
        column.addWidget(self.heading)
        column.addWidget(self.hint)
        column.addSpacing(10)
        column.addWidget(self.stack, 1)
        self.status = QLabel()
        self.status.setObjectName("settingsStatus")
        self.status.setWordWrap(True)
        set_role(self.status, "message", level="info")
        self.save_button = QPushButton(QCoreApplication.translate("Settings", "Save"))
        self.save_button.setDefault(True)
        self.save_button.setToolTip(
            QCoreApplication.translate("Settings", "Save every page (Ctrl+S)")
        )
        set_role(self.save_button, "primary")
        self.close_button = QPushButton(QCoreApplication.translate("Settings", "Close"))
        self.close_button.setToolTip(
            QCoreApplication.translate("Settings", "Close (Esc); unsaved changes are dropped")
        )
        body = QHBoxLayout()
        body.setSpacing(18)
        body.addWidget(self.nav)
        body.addLayout(column, 1)
        footer = QHBoxLayout()
        footer.addWidget(self.status, 1)
        footer.addWidget(self.close_button)
        footer.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 16, 18, 14)
        layout.setSpacing(12)
        layout.addWidget(self.banner)
        layout.addLayout(body, 1)
        layout.addLayout(footer)
        self.nav.setCurrentRow(0)

    def _connect_signals(self) -> None:
        self.nav.currentRowChanged.connect(self._on_page)
        self.agents.new_profile_requested.connect(self._new_profile_for)
        self.profiles.renamed.connect(self.agents.rename_profile)
        self.agents.changed.connect(self.default_agent.refresh)
        for keys, step in (("Ctrl+PgDown", 1), ("Ctrl+PgUp", -1)):
            QShortcut(QKeySequence(keys), self, partial(self._step_page, step))
        self.save_button.clicked.connect(self.save)
        self.close_button.clicked.connect(self.close)
        for page in (self.profiles, self.agents, self.mcp):
            page.changed.connect(self._on_edited)
        self.general.changed.connect(self._on_edited)
        if self.extensions_page is not None:
            self.extensions_page.edited.connect(self._on_edited)
        QShortcut(QKeySequence.StandardKey.Save, self, self.save)
        self.nav.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def _on_page(self, row: int) -> None:
        self.stack.setCurrentIndex(row)
        name = list(self.pages)[row] if 0 <= row < len(self.pages) else ""
        self.heading.setText(tr(name))
        self.hint.setText(tr(_PAGE_HINTS.get(name, "")))

    def _step_page(self, step: int) -> None:
        self.nav.setCurrentRow((self.nav.currentRow() + step) % self.nav.count())

    def _new_profile_for(self, choice: NameChoice) -> None:
        """ "New profile…" in an agent's profile field: make one, pick it, show it."""
        self.show_page("Providers")
        choice.set_value(self.profiles.new_profile())
        choice.changed.emit()

    def _agent_names(self) -> list[tuple[str, str]]:
        """Agents as edited (unsaved ones too), then the ready-made ones not among them."""
        names = [(str(e.get("name")), self.agents.label(e)) for e in self.agents.values()]
        known = {name for name, _ in names}
        return names + [(e.key, e.title) for e in CATALOGUE if e.key not in known]

    # ------------------------------------------------------------------ data
    def show_page(self, name: str) -> None:
        """Switch to the page called ``name``."""
        self.nav.setCurrentRow(list(self.pages).index(name))

    def load(self, settings: Settings) -> None:
        """Show ``settings`` in every page."""
        data = settings.model_dump(mode="json")
        self.profiles.load(data["profiles"])
        self.agents.load(data["agents"])
        self.general.set_value(data)
        self.default_agent.refresh()
        self.catalogue.refresh()
        self._say("", "info")

    def document(self) -> dict[str, Any]:
        """The edited settings as JSON data (not yet validated)."""
        data = self.services.store.settings.model_dump(mode="json")
        data.update(self.general.value())
        data["profiles"] = self.profiles.values()
        data["agents"] = self.agents.values()
        if self.extensions_page is not None:
            data["extensions"] = self.extensions_page.settings_value()
        return data

    def save(self) -> bool:
        """Validate and write; False (with the errors shown) when something is invalid."""
        try:
            settings = Settings.model_validate(self.document())
        except ValidationError as exc:
            self._show_errors(exc)
            return False
        mcp = self.mcp.validated()
        missing = self.mcp.missing_secrets(mcp) if not isinstance(mcp, str) else []
        if isinstance(mcp, str) or missing:
            self.show_page("MCP servers")
            why = mcp if isinstance(mcp, str) else ""
            if not why:
                why = QCoreApplication.translate("Settings", "no value for the secret {0}").format(
                    ", ".join(missing)
                )
            self._say(QCoreApplication.translate("Settings", "Not saved — ") + why, "error")
            return False
        try:
            self.services.store.save(settings)
            self.mcp.save(mcp)
        except OSError as exc:
            self._say(
                QCoreApplication.translate(
                    "Settings", "Could not write the settings file: {0}"
                ).format(exc),
                "error",
            )
            return False
        self.general.show_errors({})
        self.default_agent.refresh()
        self._say(
            QCoreApplication.translate("Settings", "Saved to {0}").format(self.services.store.path),
            "info",
        )
        return True

    def _show_errors(self, exc: ValidationError) -> None:
        sections = _errors_by_section(exc)
        self.general.show_errors(
            {k: v[0][1] for k, v in sections.items() if k in self.general.editors}
        )
        lines = []
        for section, errors in sections.items():
            for loc, message in errors[:3]:
                where = self._where(section, loc)
                lines.append(f"{where}: {message}")
        self._say(
            QCoreApplication.translate("Settings", "Not saved — ") + "; ".join(lines[:4]), "error"
        )

    def _where(self, section: str, loc: tuple[Any, ...]) -> str:
        if section in LIST_FIELDS and loc and isinstance(loc[0], int):
            page = self.profiles if section == "profiles" else self.agents
            entry = page.entries[loc[0]] if loc[0] < len(page.entries) else {}
            fields = [str(p) for p in loc[1:] if not isinstance(p, int) and p not in page_kinds()]
            return f"{section[:-1]} {entry.get('name', loc[0])!r} {'.'.join(fields)}".strip()
        return ".".join([section, *(str(p) for p in loc)]) or "settings"

    def _on_edited(self) -> None:
        self._say(QCoreApplication.translate("Settings", "Unsaved changes"), "warning")

    def _say(self, text: str, level: str) -> None:
        self.status.setText(text)
        set_role(self.status, "message", level=level)


def page_kinds() -> frozenset[str]:
    """Discriminator tags pydantic puts into error locations of agents."""
    from desktop.ui.settings.lists import AGENT_KINDS

    return frozenset(AGENT_KINDS)
