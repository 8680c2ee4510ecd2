"""Tokens and their estimated cost, per turn and summed over a conversation.

The window's status bar, each turn's end and ``agentdesk history list`` all say the same thing:
tokens in, out and cached, and, when every turn's model is in the price table
(``desktop.core.usage.pricing``), what they cost. A turn whose model is not priced makes the sum
"at least" the priced part (``partial``), never a silent undercount.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from desktop.core.entries import TurnEndItem
from desktop.core.events import Usage
from desktop.core.usage.pricing import PriceTable


@dataclass(frozen=True)
class Spend:
    """Tokens and cost so far (``cost`` None: nothing priced; ``partial``: some turns not)."""

    usage: Usage = field(default_factory=Usage)
    cost: float | None = None
    partial: bool = False
    turns: int = 0

    def add(self, usage: Usage | None, model: str | None, prices: PriceTable) -> Spend:
        """This spend and one more turn's."""
        if usage is None:
            return self
        cost = prices.cost(usage, model)
        total = self.cost if cost is None else (self.cost or 0.0) + cost
        return Spend(
            usage=self.usage + usage,
            cost=total,
            partial=self.partial or (cost is None and _counts(usage)),
            turns=self.turns + 1,
        )

    def as_json(self) -> dict[str, object]:
        """For ``--json`` output: the token counts and the estimate (None: not priced)."""
        return {
            **self.usage.model_dump(),
            "cost_usd": round(self.cost, 6) if self.cost is not None else None,
            "cost_partial": self.partial,
        }


def _counts(usage: Usage) -> bool:
    return bool(usage.input_tokens or usage.output_tokens or usage.cache_read_tokens)


def spend_of(ends: Iterable[TurnEndItem], prices: PriceTable) -> Spend:
    """What a conversation's turns used and cost."""
    spend = Spend()
    for end in ends:
        spend = spend.add(end.usage, end.model, prices)
    return spend
