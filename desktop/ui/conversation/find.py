"""Find inside one conversation: which entries hold a query, and which hit is the n-th.

The find bar (``find_bar``) searches the typed entries, not the widgets: the transcript is
virtualized, so most rows have no widget, and a hit far above the viewport must still be
counted and reached. An entry's text is what the history's full-text search sees of it
(``search_text``: a prompt, an answer, thinking, a tool's name, arguments and output). Texts
are cached per entry (lowered for a case-insensitive search) and an entry that changes is
forgotten (``forget``), so typing a query over a 1,000-turn conversation runs ``str.count`` on
cached strings: a few milliseconds. Qt-free, so it is tested and measured on plain entries.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from desktop.core.entries import Item
from desktop.core.history.items import search_text

__all__ = ["Hit", "Matcher", "Matches"]


@dataclass(frozen=True, slots=True)
class Hit:
    """One occurrence of the query: entry ``key``'s ``ordinal``-th (from 0)."""

    key: int
    ordinal: int


@dataclass(frozen=True, slots=True)
class Matches:
    """Every occurrence, as the entries holding some (in order) and how many each holds.

    Kept as counts, not one object per occurrence: a one-letter query in a long conversation
    has hundreds of thousands.
    """

    keys: tuple[int, ...] = ()
    #: ``starts[i]``: the index of entry ``keys[i]``'s first occurrence among all of them.
    starts: tuple[int, ...] = ()
    total: int = 0

    def at(self, index: int) -> Hit:
        """The ``index``-th occurrence (0 <= index < total)."""
        slot = bisect.bisect_right(self.starts, index) - 1
        return Hit(self.keys[slot], index - self.starts[slot])

    def index(self, hit: Hit) -> int | None:
        """Where ``hit`` is among the occurrences (None: no longer one)."""
        slot = bisect.bisect_left(self.keys, hit.key)
        if slot == len(self.keys) or self.keys[slot] != hit.key:
            return None
        end = self.starts[slot + 1] if slot + 1 < len(self.keys) else self.total
        index = self.starts[slot] + hit.ordinal
        return index if index < end else None

    def first_from(self, key: int) -> int:
        """The first occurrence in entry ``key`` or after it; the first of all if none is."""
        slot = bisect.bisect_left(self.keys, key)
        return self.starts[slot] if slot < len(self.keys) else 0


class Matcher:
    """Counts a query in entries, with each entry's text cached (see the module docstring)."""

    def __init__(self) -> None:
        self._texts: dict[int, str] = {}
        self._lowered: dict[int, str] = {}

    def forget(self, key: int) -> None:
        """Entry ``key`` changed (a streamed answer grew, a tool finished)."""
        self._texts.pop(key, None)
        self._lowered.pop(key, None)

    def clear(self) -> None:
        """Drop every cached text (the conversation was reloaded)."""
        self._texts.clear()
        self._lowered.clear()

    def text(self, item: Item, *, match_case: bool) -> str:
        """What is searched of ``item`` (lowered unless ``match_case``)."""
        cache = self._texts if match_case else self._lowered
        text = cache.get(item.key)
        if text is None:
            text = search_text(item) if match_case else self.text(item, match_case=True).lower()
            cache[item.key] = text
        return text

    def warm(self, items: Sequence[Item], start: int, *, match_case: bool, budget_s: float) -> int:
        """Cache the texts of ``items`` from ``start`` for about ``budget_s`` seconds; the
        index to go on from (``len(items)``: all cached). The find bar does this a slice at a
        time when it opens, so the first count of a very long conversation does not stall."""
        deadline = time.perf_counter() + budget_s
        index = start
        while index < len(items):
            self.text(items[index], match_case=match_case)
            index += 1
            if not index % 64 and time.perf_counter() > deadline:
                break
        return index

    def search(
        self,
        items: Iterable[Item],
        query: str,
        *,
        match_case: bool = False,
        shown: Callable[[Item], bool] = lambda _item: True,
    ) -> Matches:
        """Every occurrence of ``query`` in the ``items`` that are ``shown`` (those with a row)."""
        if not query:
            return Matches()
        needle = query if match_case else query.lower()
        keys: list[int] = []
        starts: list[int] = []
        total = 0
        cache = self._texts if match_case else self._lowered
        for item in items:
            text = cache.get(item.key)  # inlined ``text``: this loop runs per keystroke
            if text is None:
                text = self.text(item, match_case=match_case)
            count = text.count(needle)
            if count and shown(item):
                keys.append(item.key)
                starts.append(total)
                total += count
        return Matches(tuple(keys), tuple(starts), total)
