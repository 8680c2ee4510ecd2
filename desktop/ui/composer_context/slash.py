"""The ``/`` menu's commands: Agent Desk's own and the ones the agent offers.

Agent Desk's: ``/new`` (a new conversation), ``/clear`` (the agent's context cleared: the
conversation continues as a new one, this one stays in the sidebar), ``/mode`` (the
approval-mode panel) and, only while the agent offers models to choose from, ``/model`` (the
status bar's model picker). The agent's commands come from its
``CommandsChanged`` events (ACP ``available_commands_update``); an agent that offers none adds
no row. A picked agent command is sent as its text (``/name``, or completed to ``/name `` for
its input when it takes one); ``/unknown`` typed whole is sent as text too.
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QCoreApplication

from desktop.core.events import AgentCommand
from desktop.ui.composer_context.popup import PopupChoice
from desktop.ui.i18n import QT_TRANSLATE_NOOP

# Agent Desk's commands: name → description (translated when shown).
DESK_COMMANDS = {
    "new": QT_TRANSLATE_NOOP("ComposerContext", "Start a new conversation"),
    "clear": QT_TRANSLATE_NOOP(
        "ComposerContext", "Clear the context: go on in a new conversation (this one is kept)"
    ),
    "mode": QT_TRANSLATE_NOOP("ComposerContext", "Choose the approval mode and always-rules"),
    "model": QT_TRANSLATE_NOOP("ComposerContext", "Choose the model the agent uses"),
}
#: Desk commands offered only while the agent offers what they choose from.
_NEEDS_MODELS = "model"
# Keys of the desk's rows in the popup (agent rows are ``agent:<name>``).
DESK, AGENT = "desk:", "agent:"


class Picked(NamedTuple):
    """What a picked row does: run Agent Desk's ``desk`` command, or put ``text`` in the prompt
    and send it now (``send``) or let the user write the command's input."""

    desk: str | None = None
    text: str = ""
    send: bool = False


class SlashCommands:
    """The commands the ``/`` menu offers and what picking one does."""

    def __init__(self) -> None:
        self.agent: list[AgentCommand] = []
        #: Whether the agent offers models to choose from (``/model`` is offered then only).
        self.models = False

    def desk(self) -> dict[str, str]:
        """Agent Desk's commands offered now: name → description (untranslated)."""
        return {n: d for n, d in DESK_COMMANDS.items() if n != _NEEDS_MODELS or self.models}

    def names(self) -> set[str]:
        """Every command name offered (for the prompt's highlight)."""
        return set(self.desk()) | {c.name for c in self.agent}

    def heading(self) -> str:
        return QCoreApplication.translate("ComposerContext", "Commands")

    def choices(self, query: str) -> list[PopupChoice]:
        """Rows whose name starts with ``query``, then those that hold it; the agent's first."""
        wanted = query.lower()
        rows: list[tuple[int, PopupChoice]] = []
        agent_names = {c.name for c in self.agent}
        for command in self.agent:
            detail = command.description + (f"  ‹{command.hint}›" if command.hint else "")
            rows.append((0, PopupChoice(AGENT + command.name, "/" + command.name, detail)))
        for name, description in self.desk().items():
            if name in agent_names:
                continue  # the agent's own /clear or /new wins
            said = QCoreApplication.translate("ComposerContext", description)
            rows.append((1, PopupChoice(DESK + name, "/" + name, said)))
        starts = [c for _, c in rows if c.title[1:].lower().startswith(wanted)]
        holds = [c for _, c in rows if wanted in c.title[1:].lower() and c not in starts]
        return starts + holds

    def pick(self, key: str) -> Picked:
        """What the row ``key`` does."""
        if key.startswith(DESK):
            return Picked(desk=key[len(DESK) :])
        name = key[len(AGENT) :]
        command = next((c for c in self.agent if c.name == name), None)
        if command is not None and command.hint:
            return Picked(text=f"/{name} ")
        return Picked(text=f"/{name}", send=True)
