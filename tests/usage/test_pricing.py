"""The price table: shipped prices, the user's override, model matching and the estimate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop.core.entries import TurnEndItem
from desktop.core.events import Usage
from desktop.core.usage.pricing import dollars, ensure_override, load_prices, override_path
from desktop.core.usage.spend import spend_of


def test_a_dated_or_provider_prefixed_model_is_priced_by_its_family() -> None:
    prices = load_prices()
    sonnet = prices.price("claude-sonnet-4-20250514")
    assert sonnet is not None and sonnet == prices.price("anthropic/claude-sonnet-4")
    assert prices.price("gpt-4o-mini-2024-07-18") == prices.price("gpt-4o-mini")
    assert prices.price("gpt-4o-mini") != prices.price("gpt-4o")  # the longest key wins
    assert prices.price("fake-model") is None and prices.price(None) is None


def test_cost_counts_input_output_cache_reads_and_writes() -> None:
    prices = load_prices()
    usage = Usage(
        input_tokens=1_000_000,
        output_tokens=1_000_000,
        cache_read_tokens=1_000_000,
        cache_write_tokens=1_000_000,
    )
    assert prices.cost(usage, "claude-sonnet-4") == pytest.approx(3.0 + 15.0 + 0.3 + 3.75)
    assert prices.cost(usage, "nobody-knows") is None


def test_the_users_override_adds_and_replaces_models(agentdesk_home: Path) -> None:
    path = override_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    table = {"models": {"fake": {"input": 1.0, "output": 2.0}, "gpt-4o": {"input": 0, "output": 0}}}
    path.write_text(json.dumps(table))
    prices = load_prices()
    assert prices.cost(Usage(input_tokens=500_000, output_tokens=500_000), "fake") == 1.5
    assert prices.cost(Usage(input_tokens=10**6), "gpt-4o") == 0.0
    assert prices.price("claude-sonnet-4") is not None  # the rest stays


def test_a_damaged_override_is_ignored_with_a_reason(
    agentdesk_home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = override_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"models": {"fake": {"input": "lots"}}}')
    prices = load_prices()
    assert prices.price("fake") is None and prices.price("gpt-4o") is not None
    assert "is not used" in caplog.text


def test_ensure_override_writes_the_shipped_table_once(agentdesk_home: Path) -> None:
    path = ensure_override()
    shipped = json.loads(path.read_text())
    assert "claude-sonnet-4" in shipped["models"]
    path.write_text('{"models": {}}')
    assert ensure_override() == path and path.read_text() == '{"models": {}}'


def test_a_conversations_spend_sums_turns_and_says_when_part_is_unpriced() -> None:
    prices = load_prices()
    ends = [
        TurnEndItem(turn_id="t1", usage=Usage(input_tokens=10**6), model="gpt-4o"),
        TurnEndItem(turn_id="t2", usage=None, model="gpt-4o"),
        TurnEndItem(turn_id="t3", usage=Usage(output_tokens=10**6), model="gpt-4o"),
    ]
    spend = spend_of(ends, prices)
    assert spend.usage == Usage(input_tokens=10**6, output_tokens=10**6)
    assert spend.cost == pytest.approx(12.5) and not spend.partial and spend.turns == 2
    unknown = TurnEndItem(turn_id="t4", usage=Usage(input_tokens=5), model="mystery")
    partial = spend_of([*ends, unknown], prices)
    assert partial.partial and partial.cost == pytest.approx(12.5)
    assert spend_of([unknown], prices).cost is None
    assert partial.as_json()["cost_usd"] == 12.5 and partial.as_json()["input_tokens"] == 10**6 + 5


def test_dollars_in_words() -> None:
    assert [dollars(c) for c in (0, 0.00001, 0.0031, 0.42, 1234.5)] == [
        "$0.00",
        "<$0.0001",
        "$0.0031",
        "$0.42",
        "$1,234.50",
    ]
