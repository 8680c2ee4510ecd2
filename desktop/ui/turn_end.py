"""What a conversation shows when one of its turns ends: the turn's usage line, the spoken
summary, the plan folded away and the composer focused (unless the user types elsewhere).

A turn ends in the turn of the event loop that read the reply's last lines, where the session,
the transcript, the history and the view already have work with it. The usage line is a new
widget (made, polished, then placed by a pass of the column), and the summary reads the reply:
done there too, they made that turn of the loop 16-25 ms, a dropped frame at the end of every
reply (issue 19). So the pane's totals are counted at once (the status bar reads them) and the
rest is shown a turn later, in the first turn with budget for it (``turn_budget.NextTurn``).
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QWidget

from desktop.core.entries import TurnEndItem, UserItem
from desktop.core.events import TurnEnded, Usage
from desktop.core.usage.pricing import PriceTable, load_prices
from desktop.core.usage.spend import Spend
from desktop.ui.announce import announce, turn_end_text
from desktop.ui.composer import Composer
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.conversation.view import ConversationView
from desktop.ui.plan_view import PlanView
from desktop.ui.text_focus import text_field
from desktop.ui.turn_budget import NextTurn
from desktop.ui.usage_view import show_turn_usage

#: What showing a turn's end costs, about (its usage line: made and polished).
SHOW_COST_S = 0.002


class TurnEndHost(Protocol):
    """What a turn's end uses of its pane (``ConversationPane``: it imports this module)."""

    usage: Usage
    spend: Spend
    prices: PriceTable | None

    @property
    def status_changed(self) -> SignalInstance:
        """Emitted when what the status bar shows changed."""

    @property
    def view(self) -> ConversationView:
        """The conversation's view."""

    @property
    def transcript(self) -> TranscriptModel:
        """The conversation's entries."""

    @property
    def plan_view(self) -> PlanView:
        """The plan checklist above the composer."""

    @property
    def composer(self) -> Composer:
        """The prompt box."""

    def pending_cards(self) -> list[ToolCard]:
        """Cards still waiting for a decision."""

    def isVisible(self) -> bool:
        """Whether the pane is shown."""

    def window(self) -> QWidget:
        """The pane's window."""


class TurnEndShow:
    """The pane's part in a turn's end (``on_turn_ended``, connected to its bridge)."""

    def __init__(self, pane: TurnEndHost, parent: QWidget) -> None:
        self._pane = pane
        self._ended: list[TurnEnded] = []  # not shown yet, oldest first
        self._later = NextTurn(parent, self._show, SHOW_COST_S)

    def on_turn_ended(self, event: TurnEnded) -> None:
        """Count the turn's usage now; show its end in a later turn of the loop."""
        pane = self._pane
        if event.usage is not None:
            pane.usage = pane.usage + event.usage
            if pane.prices is None:
                pane.prices = load_prices()
            pane.spend = pane.spend.add(event.usage, event.model, pane.prices)
        pane.status_changed.emit()
        self._ended.append(event)
        self._later.ask()

    def _show(self) -> None:
        pane = self._pane
        ended, self._ended = self._ended, []
        for event in ended:
            end = self._end_of(event.turn_id)
            if end is not None and pane.prices is not None:
                show_turn_usage(pane.view, end, pane.prices)
        pane.plan_view.collapse()
        last = ended[-1]
        answer = pane.transcript.entries.turn_text(last.turn_id)
        announce(pane.view, turn_end_text(last.reason, answer, last.message))
        # The composer takes the keys unless a card waits or the user types elsewhere (renaming
        # a conversation, searching it: a reply that ends must not take their keys away).
        field = text_field()
        typing = field is not None and not field.isReadOnly()
        shown = pane.isVisible() and pane.window().isActiveWindow()
        if shown and not typing and not pane.pending_cards():
            pane.composer.editor.setFocus()

    def _end_of(self, turn_id: str) -> TurnEndItem | None:
        """The entry that ended ``turn_id`` (read back from the end to the turn's prompt)."""
        for item in reversed(self._pane.transcript.items):
            if isinstance(item, TurnEndItem) and item.turn_id == turn_id:
                return item
            if isinstance(item, UserItem) and item.turn_id == turn_id:
                return None
        return None
