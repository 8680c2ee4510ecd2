"""Find inside a long conversation (Ctrl+F): the cost of counting a query as it is typed.

Measurement only (issue 19). The find bar counts the query in the model's entries
(``desktop.ui.conversation.find.Matcher``) after each pause in typing and, at most a few times
a second, while an answer streams. For conversations of ``--turns`` turns (the long-conversation
benchmark's turns: a prompt, a markdown answer with a code block and a ``Write`` card) it
prints, per query, the median time of a count with the texts cached (typing) and of the first
count (cold: every entry's text read and lowered), and the longest slice of reading the texts
as the bar does when it opens (``Matcher.warm``, a slice a turn of the loop); beside it a
baseline measured in the same run: ``str.count`` over one string holding every entry's text
(the least any search can cost), and the ratio of the cached count to it.

    python benchmarks/find_in_conversation.py [--turns 1000 5000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.long_conversation import turn_entries
from desktop.core.history.items import search_text
from desktop.ui.conversation.find import Matcher
from desktop.ui.conversation.find_bar import WARM_SLICE_S

QUERIES = ("e", "retry", "attempts=500", "quokka")
RUNS = 15


def _median_ms(run: Callable[[], object], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _row(turns: int, items: list[Any], joined: str, query: str) -> None:
    cold = _median_ms(lambda: Matcher().search(items, query), 5)
    matcher = Matcher()
    index, longest = 0, 0.0  # as the find bar reads the texts when it opens, a slice a turn
    while index < len(items):
        start = time.perf_counter()
        index = matcher.warm(items, index, match_case=False, budget_s=WARM_SLICE_S)
        longest = max(longest, (time.perf_counter() - start) * 1000)
    hits = matcher.search(items, query).total
    warm = _median_ms(lambda: matcher.search(items, query))
    base = _median_ms(lambda: joined.count(query.lower()))
    print(f"{turns:>6} {len(items):>6} {query:>14} {hits:>7} {cold:>8.2f} "
          f"{longest:>9.2f} {warm:>9.2f} {base:>11.2f} {warm / base:>6.1f}")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[1000, 5000])
    args = parser.parse_args()
    print(f"{'turns':>6} {'items':>6} {'query':>14} {'hits':>7} {'cold ms':>8} "
          f"{'slice ms':>9} {'typing ms':>9} {'baseline ms':>11} {'ratio':>6}")  # fmt: skip
    for turns in args.turns:
        items = turn_entries(turns)
        joined = "\n".join(search_text(item) for item in items).lower()
        for query in QUERIES:
            _row(turns, items, joined, query)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
