"""The welcome panel: connect a model provider or pick an installed agent, without a terminal.

Shown in place of the conversation when its agent cannot start for want of a key or a program
(``desktop.ui.welcome.controller``). Choosing a provider writes its profile and the built-in
agent to the settings and the key to the OS keyring (``SecretStore``, off the GUI thread);
"Test connection" is Settings' one-token check; installing reuses Settings' catalogue box.
Everything runs in the pane's task scope; no dialog, no nested loop.
"""

from __future__ import annotations

from pydantic import ValidationError
from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop.core.catalogue import CATALOGUE
from desktop.core.events import StartFix
from desktop.core.secrets import SecretStoreError
from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.i18n.core_text import translated
from desktop.ui.qt_async import TaskScope
from desktop.ui.settings.catalogue import CatalogueBox
from desktop.ui.settings.connection import check_connection
from desktop.ui.settings.services import SettingsServices
from desktop.ui.theme import set_role, text_label
from desktop.ui.welcome.setup import NO_KEY, PROFILES, ProviderChoice, with_provider

#: The segmented choice: (value, label). ``agent``: an installed agent instead of a provider.
CHOICES = (
    (ProviderChoice.ANTHROPIC.value, QT_TRANSLATE_NOOP("WelcomePanel", "Anthropic")),
    (ProviderChoice.OPENAI.value, QT_TRANSLATE_NOOP("WelcomePanel", "OpenAI")),
    (ProviderChoice.COMPATIBLE.value, QT_TRANSLATE_NOOP("WelcomePanel", "Local / compatible")),
    ("agent", QT_TRANSLATE_NOOP("WelcomePanel", "Installed agent")),
)
#: Base URLs of the usual local servers (filled in by the quick buttons).
LOCAL_SERVERS = (("Ollama", "http://localhost:11434/v1"), ("LM Studio", "http://localhost:1234/v1"))


def _intro(fix: StartFix | None) -> str:
    agent = (
        fix.agent
        if fix is not None and fix.agent
        else QCoreApplication.translate("WelcomePanel", "The agent")
    )
    if agent == "builtin":  # the settings' name of Agent Desk's own agent
        agent = QCoreApplication.translate("WelcomePanel", "Agent Desk's built-in agent")
    if fix is not None and fix.problem == "missing_program":
        return (
            f"{agent} is not installed on this computer. Install it below, pick another agent, "
            "or connect a model provider for Agent Desk's own agent."
        )
    return (
        f"{agent} needs a model to talk to. Connect a provider — your key is kept in the "
        "system keyring, never in a file."
    )


class WelcomePanel(QWidget):
    """Provider or agent choice, key, Test connection, Start.

    Signals:
        configured(str): settings and key are saved; start this agent now.
        agent_chosen(str): the user picked an installed agent for this window.
        settings_requested(str): open Settings on this page.
    """

    configured = Signal(str)
    agent_chosen = Signal(str)
    settings_requested = Signal(str)

    def __init__(
        self,
        services: SettingsServices,
        scope: TaskScope,
        agent: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("welcomePanel")
        self._services = services
        self._scope = scope
        self.agent = agent
        self.title = QLabel(self.tr("Set up an agent"))
        set_role(self.title, "welcomeTitle")
        self.intro = text_label(_intro(None), role="muted")
        self.choice = QButtonGroup(self)
        self.choice.setExclusive(True)
        segmented = QHBoxLayout()
        segmented.setSpacing(0)
        for index, (value, label) in enumerate(CHOICES):
            button = QPushButton(self.tr(label))
            button.setCheckable(True)
            button.setProperty("choice", value)
            set_role(button, "segment", position=_position(index, len(CHOICES)))
            self.choice.addButton(button, index)
            segmented.addWidget(button)
        self.pages: list[QWidget] = []
        self.key = QLineEdit()
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setAccessibleName(self.tr("API key"))
        self.model = QLineEdit()
        self.model.setAccessibleName(self.tr("Model"))
        self.base_url = QLineEdit()
        self.base_url.setAccessibleName(self.tr("Base URL"))
        self.base_url.setPlaceholderText(self.tr("http://localhost:11434/v1"))
        self.pages.append(self._provider_page())
        self.catalogue = CatalogueBox(scope)
        self.catalogue.setTitle("")
        self.agent_list = QComboBox()
        self.agent_list.setAccessibleName(self.tr("Agent to use"))
        for entry in CATALOGUE:
            self.agent_list.addItem(entry.title, entry.key)
        self.pages.append(self._agent_page())
        self.result = text_label("", role="message")
        set_role(self.result, "message", level="info")
        self.settings = QPushButton(self.tr("Open Settings"))
        set_role(self.settings, "link")
        self.test = QPushButton(self.tr("Test connection"))
        self.start = QPushButton(self.tr("Start"))
        set_role(self.start, "primary")
        self.start.setDefault(True)
        self.start.setMinimumWidth(120)
        self._build(segmented)
        self.choice.idToggled.connect(self._on_choice)
        self.test.clicked.connect(self._on_test)
        self.start.clicked.connect(self._on_start)
        self.key.returnPressed.connect(self._on_start)
        self.settings.clicked.connect(self._on_settings)
        self.choice.button(0).setChecked(True)

    # ------------------------------------------------------------------ layout
    def _provider_page(self) -> QWidget:
        page = QWidget()
        form = QFormLayout(page)
        form.setContentsMargins(0, 0, 0, 0)
        form.setVerticalSpacing(12)
        form.setHorizontalSpacing(16)
        self.url_row = QWidget()
        url = QHBoxLayout(self.url_row)
        url.setContentsMargins(0, 0, 0, 0)
        url.setSpacing(6)
        url.addWidget(self.base_url, 1)
        for name, address in LOCAL_SERVERS:
            quick = QPushButton(name)
            set_role(quick, "chipButton")
            quick.setToolTip(address)
            quick.clicked.connect(lambda _=False, a=address: self.base_url.setText(a))
            url.addWidget(quick)
        form.addRow("Server", self.url_row)
        form.addRow("API key", self.key)
        form.addRow("Model", self.model)
        self._form = form
        return page

    def _agent_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(10)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Use")))
        row.addWidget(self.agent_list, 1)
        layout.addLayout(row)
        layout.addWidget(self.catalogue)
        return page

    def _build(self, segmented: QHBoxLayout) -> None:
        card = QWidget()
        card.setObjectName("welcomeCard")
        card.setMaximumWidth(600)
        column = QVBoxLayout(card)
        column.setContentsMargins(32, 28, 32, 24)
        column.setSpacing(0)
        column.addWidget(self.title)
        column.addSpacing(6)
        column.addWidget(self.intro)
        column.addSpacing(22)
        column.addLayout(segmented)
        column.addSpacing(20)
        for page in self.pages:  # one shown; hidden ones take no height (unlike a stack)
            column.addWidget(page)
        column.addSpacing(12)
        column.addWidget(self.result)
        column.addSpacing(16)
        buttons = QHBoxLayout()
        buttons.addWidget(self.settings)
        buttons.addStretch(1)
        buttons.addWidget(self.test)
        buttons.addSpacing(8)
        buttons.addWidget(self.start)
        column.addLayout(buttons)
        body = QWidget()
        body.setObjectName("welcomeBody")
        outer = QVBoxLayout(body)
        outer.setContentsMargins(24, 24, 24, 24)
        outer.addStretch(1)
        centre = QHBoxLayout()
        centre.addStretch(1)
        centre.addWidget(card, 100)
        centre.addStretch(1)
        outer.addLayout(centre)
        outer.addStretch(2)
        scroll = QScrollArea()
        scroll.setObjectName("welcomeScroll")
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)

    # ------------------------------------------------------------------ public
    def show_fix(self, fix: StartFix | None) -> None:
        """Say why the agent cannot start and preselect what fixes it."""
        self.intro.setText(_intro(fix))
        self._say("", "info")
        index = 0
        if fix is not None and fix.problem == "missing_program":
            index = len(CHOICES) - 1
            found = self.agent_list.findData(fix.agent)
            if found >= 0:
                self.agent_list.setCurrentIndex(found)
        elif fix is not None and fix.provider == "openai":
            profile = self._services.store.settings.profile(fix.subject)
            index = 2 if profile is not None and profile.base_url else 1
        self.choice.button(index).setChecked(True)
        self._on_choice(index, True)

    @property
    def current(self) -> str:
        """The checked choice's value."""
        button = self.choice.checkedButton()
        return str(button.property("choice")) if button is not None else ""

    # ------------------------------------------------------------------ slots
    def _on_choice(self, index: int, checked: bool) -> None:
        if not checked:
            return
        value = CHOICES[index][0]
        agent_page = value == "agent"
        self.pages[0].setVisible(not agent_page)
        self.pages[1].setVisible(agent_page)
        self.test.setVisible(not agent_page)
        self.start.setText(self.tr("Use this agent") if agent_page else self.tr("Start"))
        self._say("", "info")
        if agent_page:
            self.catalogue.refresh()
            return
        choice = ProviderChoice(value)
        name, _provider, default_model = PROFILES[choice]
        stored = self._services.store.settings.profile(name)
        self.model.setText(stored.model if stored is not None else default_model)
        self.model.setPlaceholderText(
            self.tr("e.g. llama3.1, qwen2.5-coder") if choice == ProviderChoice.COMPATIBLE else ""
        )
        local = choice == ProviderChoice.COMPATIBLE
        self._form.setRowVisible(self.url_row, local)
        if local:
            self.base_url.setText(stored.base_url or "" if stored is not None else "")
        self.key.clear()
        self.key.setPlaceholderText(
            self.tr("Optional for local servers")
            if local
            else (self.tr("sk-ant-…") if choice == ProviderChoice.ANTHROPIC else self.tr("sk-…"))
        )

    def _values(self) -> tuple[ProviderChoice, str, str | None, str]:
        choice = ProviderChoice(self.current)
        local = choice == ProviderChoice.COMPATIBLE
        key = self.key.text().strip() or (NO_KEY if local else "")
        base_url = self.base_url.text().strip() or None if local else None
        return choice, self.model.text().strip(), base_url, key

    def _on_test(self) -> None:
        choice, model, base_url, key = self._values()
        if not key:
            self._say(
                QCoreApplication.translate("WelcomePanel", "Paste your API key first."), "warning"
            )
            return
        provider = PROFILES[choice][1].value
        self._run(self._test(provider, model, key, base_url))

    async def _test(self, provider: str, model: str, key: str, base_url: str | None) -> None:
        self._say(self.tr("Testing…"), "info")
        result = await check_connection(provider, model, key, base_url)
        self._say(result.message, "success" if result.ok else "error")

    def _on_start(self) -> None:
        if self.current == "agent":
            agent = str(self.agent_list.currentData())
            catalogue = self.catalogue
            if catalogue.ready and agent in catalogue.status and agent not in catalogue.installed:
                title = self.agent_list.currentText()
                said = self.tr("{title} is not installed yet: press Install above.")
                self._say(said.format(title=title), "warning")
                return
            self.agent_chosen.emit(agent)
            return
        choice, model, base_url, key = self._values()
        if not key:
            self._say(
                QCoreApplication.translate("WelcomePanel", "Paste your API key first."), "warning"
            )
            self.key.setFocus()
            return
        if choice == ProviderChoice.COMPATIBLE and not base_url:
            self._say(
                QCoreApplication.translate(
                    "WelcomePanel", "Enter the server's address, e.g. http://localhost:11434/v1."
                ),
                "warning",
            )
            return
        if not model:
            self._say(QCoreApplication.translate("WelcomePanel", "Enter a model name."), "warning")
            return
        self._run(self._save(choice, model, base_url, key))

    async def _save(
        self, choice: ProviderChoice, model: str, base_url: str | None, key: str
    ) -> None:
        store = self._services.store
        try:
            settings, profile, agent = with_provider(
                store.settings, self.agent, choice, model, base_url
            )
        except ValidationError as exc:
            error = exc.errors()[0]["msg"]
            self._say(
                QCoreApplication.translate("WelcomePanel", "Check the fields: {error}").format(
                    error=error
                ),
                "error",
            )
            return
        self._say(self.tr("Saving…"), "info")
        try:
            await self._services.secrets.set(profile, key)
            store.save(settings, "agents")
        except SecretStoreError as exc:
            self._say(translated(exc.text), "error")
            return
        except (OSError, ValueError) as exc:
            self._say(str(exc), "error")
            return
        self.key.clear()
        self._say(self.tr("Saved. Starting the agent…"), "info")
        self.configured.emit(agent)

    def _on_settings(self) -> None:
        self.settings_requested.emit("Agents" if self.current == "agent" else "Providers")

    def _run(self, work: object) -> None:
        async def guarded() -> None:
            for button in (self.test, self.start):
                button.setEnabled(False)
            try:
                await work  # type: ignore[misc]
            finally:
                for button in (self.test, self.start):
                    button.setEnabled(True)

        self._scope.spawn(guarded(), name="welcome")

    def _say(self, text: str, level: str) -> None:
        self.result.setText(text)
        self.result.setVisible(bool(text))
        set_role(self.result, "message", level=level)


def _position(index: int, count: int) -> str:
    return "first" if index == 0 else "last" if index == count - 1 else "middle"
