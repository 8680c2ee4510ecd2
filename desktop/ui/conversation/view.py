"""The scrolling transcript: a widget per shown entry near the viewport, repaints ≤ 60 per second.

The column is virtualized (``virtual.VirtualColumn``): every shown entry has a ``rows.EntryRow``,
and only the rows within a screen of the viewport have widgets (``widgets``), so a conversation
of any length opens at once and costs what is visible. What an entry looks like is decided
here alone (``_make``), whether it streamed in or was reopened from history; entries that say
nothing (a completed turn's end, a notice that only repeats a tool call) get no widget.

Streaming deltas only mark their item dirty; a 16 ms single-shot timer renders every dirty item
once. The view sticks to the bottom while the user has not scrolled up; when they have, a
floating "Jump to latest ↓" button over the bottom of the conversation (``jump.JumpToLatest``)
scrolls back down. A theme change renders the answers on screen again in the new palette; the
user's prompts are as wide as their text, up to about 70 % of the column.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import assert_never

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLayout,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from desktop.core.entries import (
    ExitItem,
    Item,
    MessageItem,
    PlanItem,
    StreamItem,
    ToolItem,
    ToolStatus,
    TurnEndItem,
    UserItem,
)
from desktop.core.events import TurnEndReason
from desktop.ui import theme
from desktop.ui.conversation.column import TranscriptColumn
from desktop.ui.conversation.items import ExitPanel, MessageRow, UserBubble, exit_message
from desktop.ui.conversation.jump import JumpToLatest
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.opaque import keep_opaque
from desktop.ui.conversation.rows import MARGIN_Y, SPACING, EntryRow, Extra, shows
from desktop.ui.conversation.stream_view import TICK_BUDGET_S, AssistantView
from desktop.ui.conversation.style import SHEET
from desktop.ui.conversation.thinking import ThinkingView
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.conversation.virtual import VirtualColumn
from desktop.ui.i18n.core_text import shown
from desktop.ui.turn_budget import TurnShare

#: Minimum time between two repaints of streamed text (60 per second).
FRAME_MS = 16
#: How close to the bottom (pixels) still counts as "at the bottom" (the view follows new text).
BOTTOM_SLACK = 24
#: Share of the column a prompt may take before it wraps (never less than ``_BUBBLE_MIN``).
_BUBBLE_SHARE = 0.7
_BUBBLE_MIN = 360

ItemWidget = UserBubble | MessageRow | ExitPanel | AssistantView | ThinkingView | ToolCard


class ConversationView(QScrollArea):
    """Shows a ``TranscriptModel``.

    Signals:
        decided(str, str, str): the user decided a pending tool call (call id, decision, reason).
        restart_requested(ExitItem): Restart was pressed on an exit panel.
        approval_shown(ToolCard): a card that waits for a decision was added.
        review_requested(str, str): Review was pressed on a finished edit (diff, title).
    """

    decided = Signal(str, str, str)
    restart_requested = Signal(object)
    approval_shown = Signal(object)
    review_requested = Signal(str, str)

    def __init__(self, transcript: TranscriptModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conversationScroll")
        self.setWidgetResizable(True)
        # Never: every item fits the column (cards elide and wrap, diffs and code scroll inside
        # themselves); the body is exactly as wide as the viewport (``TranscriptColumn``).
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        # A click in the conversation (on a card's toggle, between items) leaves the keyboard
        # where it is, normally in the composer.
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        body = TranscriptColumn()
        body.setObjectName("transcript")
        keep_opaque(body)  # following the bottom moves it every frame: scrolled by copying
        self._column = QVBoxLayout(body)
        self._column.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)  # TranscriptColumn
        self._column.setContentsMargins(28, MARGIN_Y, 28, MARGIN_Y)
        self._column.setSpacing(SPACING)
        self._column.addStretch(1)
        self.setWidget(body)
        self.transcript = transcript
        #: The widgets built now (near the viewport, or kept: see ``keeps``), by entry key.
        self.widgets: dict[int, ItemWidget] = {}
        self._live = False
        self.rows = VirtualColumn(self, self._column, self)
        #: What is shown that is not an entry (a turn's changes), each below the entry of its key.
        self.extras: list[tuple[int, Extra]] = []
        self._dirty: dict[int, Item] = {}
        #: Tool cards opened or closed, by key: a row built again shows them the same.
        self._expanded: dict[int, bool] = {}
        self._stick = True
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self._on_frame)
        self._share = TurnShare()  # a frame's rendering shares the turn with the rows' passes
        self.repaints = 0
        self._jump = JumpToLatest(self)
        #: The "Jump to latest" button (shown while the user reads further up).
        self.jump = self._jump.button
        self._connect_signals()
        theme.follow(self, SHEET)
        self._watch_theme()
        for item in transcript.items:
            self._on_added(item)
        self.rows.realize()

    def _watch_theme(self) -> None:
        """Render the answers again after a theme change (held weakly: a closed view goes)."""
        ref = weakref.ref(self)

        def changed(_palette: theme.Palette) -> None:
            view = ref()
            if view is not None:
                view.rerender()

        self.destroyed.connect(theme.on_change(changed))

    def rerender(self) -> None:
        """Render every answer again in the palette now in use."""
        for widget in self.widgets.values():
            if isinstance(widget, AssistantView):
                widget.rerender()
                if widget.busy:
                    self._on_changed(widget.item)  # the rest over the next frames

    def _connect_signals(self) -> None:
        self.transcript.item_added.connect(self._on_added)
        self.transcript.item_changed.connect(self._on_changed)
        self.transcript.loaded_all.connect(self.rows.schedule)
        self.transcript.earlier_added.connect(self._on_earlier)
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._on_range)
        bar.valueChanged.connect(self._on_scrolled)
        self.jump.clicked.connect(self.follow)

    def _make(self, item: Item, parent: QWidget) -> ItemWidget | None:
        match item:
            case UserItem():
                return UserBubble(item, parent)
            case StreamItem():
                take = self.transcript.take_new if self._live else self._taker(item.key)
                if item.thinking:
                    return ThinkingView(item, take, parent)
                return AssistantView(item, take, self.transcript.text, parent)
            case ToolItem():
                card = ToolCard(item, parent)
                card.decided.connect(self.decided)
                card.review_requested.connect(self.review_requested)
                key = item.key
                if key in self._expanded:  # as the user left it before the row was dropped
                    card.set_expanded(self._expanded[key])
                card.line.expanded.connect(lambda shown: self._expanded.__setitem__(key, shown))
                return card
            case ExitItem() if item.key < self.transcript.loaded:
                # From history: its Restart button belonged to an agent that is gone.
                return MessageRow(item, "error", exit_message(item), parent)
            case ExitItem():
                panel = ExitPanel(item, parent)
                panel.restart_requested.connect(self.restart_requested)
                return panel
            case MessageItem():
                text = shown(item.text, item.i18n)
                return None if item.echo else MessageRow(item, item.level, text, parent)
            case TurnEndItem():
                said = shown(item.message, item.i18n) if item.message else None
                if item.reason == TurnEndReason.STOPPED:
                    return MessageRow(item, "info", said or self.tr("Stopped."), parent)
                if item.reason != TurnEndReason.COMPLETED and said:
                    return MessageRow(item, "error", said, parent)
                return None
            case PlanItem():
                return None  # pinned above the composer (``desktop.ui.plan_view``)
            case _:
                assert_never(item)

    def _taker(self, key: int) -> Callable[[int], str]:
        """``take_new`` for a widget built for an older entry (out of the model's changes): its
        first call gives the whole text so far (a widget since destroyed may have shown it
        before), later ones what is new."""
        first = [True]

        def take(k: int) -> str:
            new = self.transcript.take_new(k)
            if first[0]:
                first[0] = False
                return self.transcript.text(k)
            return new

        return take

    def _on_added(self, item: Item) -> None:
        if not shows(item):
            return
        live = not self.transcript.loading
        if not live and not self.rows.rows:
            self.rows.veil.cover()  # a stored conversation: one paint once its last screen is built
        self._live = live  # built now, its stream text is all new (``_make``)
        try:
            self.rows.append(EntryRow(item.key, item), build=live)
        finally:
            self._live = False

    def _on_earlier(self, items: list[Item]) -> None:
        """Entries before the first (a long conversation's beginning, a slice at a time)."""
        self.rows.prepend([EntryRow(item.key, item) for item in items if shows(item)])

    # ------------------------------------------------------------------ rows (RowHost)
    def build_row(self, row: EntryRow) -> QWidget:
        """A container showing ``row``'s entry and the extras below it."""
        container = QWidget(self.widget())
        container.setAttribute(Qt.WidgetAttribute.WA_StaticContents)  # see opaque.py
        layout = QVBoxLayout(container)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(SPACING)
        widget = self._make(row.item, container)
        if widget is not None:
            self.widgets[row.key] = widget
            if isinstance(widget, UserBubble):
                line = QHBoxLayout()
                line.addStretch(1)
                widget.set_width_limit(self._bubble_limit())
                line.addWidget(widget)
                layout.addLayout(line)
            else:
                layout.addWidget(widget)
        for extra in row.extras:
            made = extra if isinstance(extra, QWidget) else extra()
            layout.addWidget(made)
            made.show()
        return container

    def placed(self, row: EntryRow) -> None:
        """``row`` is in the column: a waiting card asks for a decision, a long answer renders."""
        if list(self.widgets) != sorted(self.widgets):  # built out of order (bottom first)
            ordered = sorted(self.widgets.items())
            self.widgets.clear()
            self.widgets.update(ordered)
        widget = self.widgets.get(row.key)
        if isinstance(widget, ToolCard) and widget.approval is not None:
            self.approval_shown.emit(widget)
        elif isinstance(widget, AssistantView) and widget.busy:
            self._on_changed(row.item)  # a long reply (reopened) renders over the next frames

    def dropped(self, row: EntryRow) -> None:
        """``row``'s widgets go (far from the viewport)."""
        self.widgets.pop(row.key, None)
        self._dirty.pop(row.key, None)

    def keeps(self, row: EntryRow) -> bool:
        """The streaming answer and a card waiting for a decision stay built."""
        item = row.item
        if isinstance(item, StreamItem):
            return not item.done
        if isinstance(item, ToolItem):
            return item.status == ToolStatus.WAITING
        return isinstance(item, ExitItem) and item.key >= self.transcript.loaded

    def following(self) -> bool:
        """Whether the view sticks to the bottom."""
        return self._stick

    def bring(self, key: int) -> ItemWidget | None:
        """Build entry ``key``'s widget (if it shows one) and scroll it near the top."""
        row = self.rows.by_key.get(key)
        if row is None:
            return None
        self._stick = False
        self.rows.reach(row)
        return self.widgets.get(key)

    def add_below(self, key: int, extra: Extra) -> None:
        """Show ``extra`` (not an entry: a turn's changes, or a function making its usage line)
        below the entry ``key``, its earlier extras and the entries before it, and above every
        later entry."""
        self.extras.append((key, extra))
        self.rows.add_extra(key, extra)

    def _on_changed(self, item: Item) -> None:
        row = self.rows.by_key.get(item.key)
        if row is not None and row.item is not item:
            self.rows.change(row, item)
            if row.widget is None:
                return
        widget = self.widgets.get(item.key)
        if widget is not None:
            widget.item = item  # the same entry in its new state (rendered at the next frame)
        self._dirty[item.key] = item
        if not self._timer.isActive():
            self._timer.start(FRAME_MS)

    def _on_frame(self) -> None:
        self._share.run(self.flush, TICK_BUDGET_S, self._timer)

    def flush(self) -> None:
        """Render every dirty item now."""
        dirty, self._dirty = self._dirty, {}
        for key, item in dirty.items():
            widget = self.widgets.get(key)
            if widget is not None:
                widget.refresh()
                if isinstance(widget, AssistantView) and widget.busy:
                    self._on_changed(item)  # the rest in the next frame
        self.repaints += 1

    def rendered(self) -> bool:
        """Whether every built entry shows all its text (no frame is due: a busy answer, its
        next block still rendered on the worker thread, stays dirty)."""
        return not self._dirty

    def follow(self) -> None:
        """Stick to the bottom again (a sent prompt, a new approval card must be seen)."""
        self._stick = True
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())
        self.rows.schedule()  # the last rows, if the user was far up
        self._show_jump()

    def at_bottom(self) -> bool:
        """Whether the view shows the end of the conversation (and follows new output)."""
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - BOTTOM_SLACK

    def _on_scrolled(self, _value: int) -> None:
        self._stick = self.at_bottom()
        self.rows.on_scrolled()
        self._show_jump()

    def _on_range(self, _low: int, high: int) -> None:
        if self._stick:
            self.verticalScrollBar().setValue(high)
            self.rows.schedule()
        else:
            self.rows.on_range()
        self._show_jump()

    def _show_jump(self) -> None:
        self._jump.set_shown(not self._stick and not self.at_bottom())

    def _bubble_limit(self) -> int:
        margins = self._column.contentsMargins()
        column = self.viewport().width() - margins.left() - margins.right()
        return max(int(column * _BUBBLE_SHARE), min(column, _BUBBLE_MIN))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._jump.place()
        limit = self._bubble_limit()
        for widget in self.widgets.values():
            if isinstance(widget, UserBubble):
                widget.set_width_limit(limit)
        self.rows.schedule()
