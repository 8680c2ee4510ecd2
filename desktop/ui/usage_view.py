"""What one turn used, in a quiet line below it: "1,234 in · 56 out · 1,000 cached · ≈ $0.0042".

The pane adds one below each turn that reported usage (``ConversationView.add_below``), live and
for a conversation reopened from history; the estimate comes from the price table
(``desktop.core.usage.pricing``) and is left out where the model is not in it. The status bar
says the conversation's total.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QWidget

from desktop.core.entries import TurnEndItem
from desktop.core.events import Usage
from desktop.core.usage.pricing import PriceTable, dollars
from desktop.ui import theme

_SHEET = """
QLabel#turnUsage {{ color: {muted}; font-size: 9pt; padding: 0 4px; }}
"""


def usage_words(usage: Usage, cost: float | None, model: str | None) -> str:
    """ "1,234 in · 56 out · 1,000 cached · ≈ $0.0042 · gpt-4o" (the parts there are)."""
    parts = [
        QCoreApplication.translate("TurnUsage", "{n} in").format(n=f"{usage.input_tokens:,}"),
        QCoreApplication.translate("TurnUsage", "{n} out").format(n=f"{usage.output_tokens:,}"),
    ]
    cached = usage.cache_read_tokens + usage.cache_write_tokens
    if cached:
        parts.append(QCoreApplication.translate("TurnUsage", "{n} cached").format(n=f"{cached:,}"))
    if cost is not None:
        parts.append(f"≈ {dollars(cost)}")
    if model:
        parts.append(model)
    return " · ".join(parts)


def reports(usage: Usage | None) -> bool:
    """Whether a turn's usage says anything (agents that report none get no line)."""
    return usage is not None and bool(
        usage.input_tokens or usage.output_tokens or usage.cache_read_tokens
    )


class TurnUsage(QLabel):
    """The usage line of one turn."""

    def __init__(
        self, usage: Usage, model: str | None, prices: PriceTable, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("turnUsage")
        theme.follow(self, _SHEET)
        self.setText(usage_words(usage, prices.cost(usage, model), model))
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setAccessibleName(
            QCoreApplication.translate("TurnUsage", "Turn usage: {what}").format(what=self.text())
        )


class BelowEntries(Protocol):
    """What ``show_turn_usage`` needs of the conversation view."""

    def add_below(self, key: int, extra: QWidget | Callable[[], QWidget]) -> None: ...


def show_turn_usage(view: BelowEntries, end: TurnEndItem, prices: PriceTable) -> None:
    """Add the usage line below the turn that ``end`` ended (none when it reported none)."""
    if end.usage is not None and reports(end.usage):
        usage, model = end.usage, end.model
        view.add_below(end.key, lambda: TurnUsage(usage, model, prices))  # made when in view
