"""Intra-line change detection: which words of a changed line actually changed.

A removed line and the added line that replaced it are compared word by word (words, runs of
whitespace and single punctuation characters are the tokens), which reads better than a
character diff for code. Computed lazily per visible pair, so large diffs cost nothing here.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

Span = tuple[int, int]

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
#: Longer lines are not compared: the quadratic worst case is not worth a frozen frame.
MAX_LINE_CHARS = 4000
#: Below this share of unchanged characters the lines are rewrites, not edits: the whole
#: line is already coloured, and marking nearly every word would only add noise.
MIN_SIMILARITY = 0.3


def _tokens(text: str) -> tuple[list[str], list[int]]:
    tokens: list[str] = []
    starts: list[int] = []
    for match in _TOKEN.finditer(text):
        tokens.append(match.group())
        starts.append(match.start())
    starts.append(len(text))
    return tokens, starts


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in spans:
        if merged and merged[-1][1] == start:
            merged[-1] = (merged[-1][0], end)
        elif end > start:
            merged.append((start, end))
    return merged


def changed_spans(old: str, new: str) -> tuple[list[Span], list[Span]]:
    """The character ranges that differ between a removed line and its replacement.

    Args:
        old: The removed line.
        new: The added line that replaced it.

    Returns:
        ``(old_spans, new_spans)`` as half-open ``(start, end)`` character ranges; both empty
        when the lines are equal, too long to compare, or too different to be worth marking.
    """
    if old == new or len(old) > MAX_LINE_CHARS or len(new) > MAX_LINE_CHARS:
        return [], []
    a, a_starts = _tokens(old)
    b, b_starts = _tokens(new)
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    old_spans: list[Span] = []
    new_spans: list[Span] = []
    same = 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            same += a_starts[i2] - a_starts[i1]
            continue
        old_spans.append((a_starts[i1], a_starts[i2]))
        new_spans.append((b_starts[j1], b_starts[j2]))
    total = max(len(old), len(new))
    if total == 0 or same / total < MIN_SIMILARITY:
        return [], []
    return _merge(old_spans), _merge(new_spans)
