"""The parts of a conversation pane made in its second step, a turn of the loop after the first.

Opening a conversation must never hold the window more than a frame (issue 19), and one
constructor that built every part of a pane did (~20 ms). So ``ConversationPane`` makes what
its first frame shows (transcript view, composer, banner) and these parts are made at the next
turn of the loop (a single-shot timer, or the history's opening, which calls ``build`` between
its steps), or when the pane shows if that comes first (a new conversation shows at once): the
composer's context features (``@`` files, pasted images, the ``/`` menu) and the plan
checklist, hidden until a plan arrives. Using one before that makes it at once, so nothing sees
a part missing. The find bar (Ctrl+F) is made the first time it is asked for.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QBoxLayout, QWidget

from desktop.core.paths import app_paths
from desktop.core.usage.pricing import PriceTable, load_prices
from desktop.ui.composer_context.controller import ComposerContext
from desktop.ui.conversation.find_bar import FindBar
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.view import ConversationView
from desktop.ui.plan_view import PlanView
from desktop.ui.qt_async import TaskScope
from desktop.ui.welcome.banner import FixBanner

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from desktop.ui.bridge import SessionSignals
    from desktop.ui.composer import Composer


class PartsHost(Protocol):
    """What the parts use of their pane (``ConversationPane``: it imports this module)."""

    prices: PriceTable | None

    @property
    def composer(self) -> Composer:
        """The prompt box the context features extend."""

    @property
    def bridge(self) -> SessionSignals:
        """The session's events as Qt signals."""

    @property
    def scope(self) -> TaskScope:
        """The conversation's task scope."""

    @property
    def fix_banner(self) -> FixBanner:
        """The banner the plan view goes above."""

    @property
    def view(self) -> ConversationView:
        """The transcript's view (the find bar goes above it)."""

    @property
    def transcript(self) -> TranscriptModel:
        """The entries the find bar searches."""


class PaneParts:
    """The pane's context features and plan view, made by ``build`` (or when first used)."""

    def __init__(self, pane: PartsHost, widget: QWidget) -> None:
        self._pane, self._widget = pane, widget  # the same pane, as a widget
        self._context: ComposerContext | None = None
        self._plan: PlanView | None = None
        self._find: FindBar | None = None
        self._prices: asyncio.Task[None] | None = None  # reading the price table off the loop
        # A timer of the pane, not a posted call (``singleShot(0)``: run in the same turn of the
        # loop as what posted it); it fires once, at the next turn, and no timer stays.
        timer = QTimer(widget)
        timer.setSingleShot(True)
        timer.timeout.connect(self.build)
        timer.start(0)

    async def finish(self) -> None:
        """The second step of a pane being filled (a stored conversation opening): a turn of
        the loop after the first, with the price table read off the loop, and a turn before
        what follows (the turns' cost, counted with that table)."""
        await asyncio.sleep(0)  # a turn apart from the pane's first step
        self.build()
        if self._prices is not None:
            await asyncio.shield(self._prices)
        await asyncio.sleep(0)

    def build(self) -> None:
        """Make the parts not made yet (at most once each), and read the price table off the
        loop (a turn's end counts its cost with it: read there, it held the loop 5–16 ms)."""
        _ = self.context, self.plan_view
        if self._pane.prices is None and self._prices is None:
            try:
                self._prices = self._pane.scope.spawn(self._read_prices(), name="prices")
            except RuntimeError:  # no loop runs (closing): the turn's end reads it if need be
                log.debug("the price table is read later: no loop runs")

    async def _read_prices(self) -> None:
        prices = await asyncio.to_thread(load_prices)
        self._pane.prices = self._pane.prices or prices

    @property
    def context(self) -> ComposerContext:
        """``@`` files, pasted and dropped images, the ``/`` menu (``composer_context``)."""
        if self._context is None:
            pane = self._pane
            composer, pasted = pane.composer, app_paths().data / "pasted"
            context = ComposerContext(composer, composer.workspace, pane.scope.spawn, pasted)
            self._context = context
            pane.bridge.agent_ready.connect(context.agent_ready)
            pane.bridge.commands_changed.connect(context.commands_changed)
        return self._context

    @property
    def plan_view(self) -> PlanView:
        """The live checklist above the composer (hidden while there is no plan)."""
        if self._plan is None:
            pane = self._pane
            plan = self._plan = PlanView()
            layout = self._widget.layout()
            assert isinstance(layout, QBoxLayout)
            layout.insertWidget(layout.indexOf(pane.fix_banner), plan)  # below the transcript
            pane.bridge.turn_started.connect(lambda _event: plan.clear())
        return self._plan

    @property
    def find_bar(self) -> FindBar:
        """Find inside the conversation, above the transcript (hidden until Ctrl+F)."""
        if self._find is None:
            pane = self._pane
            editor = pane.composer.editor
            self._find = FindBar(pane.view, pane.transcript, editor, pane.scope)
            layout = self._widget.layout()
            assert isinstance(layout, QBoxLayout)
            layout.insertWidget(0, self._find)
        return self._find
