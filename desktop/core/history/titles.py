"""Conversation titles: made from the first prompt, and distinct within a workspace.

A title is what tells conversations apart in the sidebar, so it is made from the prompt's first
line or sentence with the markdown taken off (headings, quotes, list markers, emphasis, code
spans, links), ``@path`` mentions shortened to the file's name, and cut at a word boundary with
an ellipsis. An automatic title that another conversation of the workspace already has gets a
number ("Fix the test (2)"). A title the user chose (a rename) is kept exactly as typed: two
conversations may share a title if the user wants them to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

TITLE_LENGTH = 80
_SHORTEST_CUT = TITLE_LENGTH // 2  # a word boundary earlier than this cuts too much

_FENCE = re.compile(r"^\s*(```|~~~)")
_LINE_MARKS = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+|\[[ xX]\]\s+)+")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(?<!\w)(\*\*|__|\*|_|~~|`)(?=\S)(.+?)(?<=\S)\1(?!\w)")
_MENTION = re.compile(r"(?<!\S)@(?:[^\s/]*/)*([^\s/]+)/?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def title_from_prompt(prompt: str) -> str:
    """A short, readable title from a conversation's first prompt ("" for a blank one)."""
    line = _first_line(prompt)
    line = _LINK.sub(r"\1", line)
    line = _MENTION.sub(r"\1", line)
    while (plain := _EMPHASIS.sub(r"\2", line)) != line:
        line = plain
    line = re.sub(r"\s+", " ", line).strip()
    sentence = _SENTENCE_END.split(line, maxsplit=1)[0]
    if len(sentence.split()) >= 2:  # "Hi. Fix the test" keeps going past a one-word sentence
        line = sentence
    if line.endswith(".") and not line.endswith(".."):
        line = line[:-1]
    return shorten(line)


def shorten(text: str, limit: int = TITLE_LENGTH) -> str:
    """``text`` cut to ``limit`` characters at a word boundary, with an ellipsis if cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= min(_SHORTEST_CUT, limit // 2):
        cut = cut[:space]
    return cut.rstrip(" ,;:.-–—") + "…"


def distinct_title(title: str, taken: Iterable[str]) -> str:
    """``title``, numbered ("… (2)", "… (3)") when a title in ``taken`` already reads the same.

    Compared without regard to case; the number never pushes the title past ``TITLE_LENGTH``.
    """
    if not title:
        return title
    used = {t.casefold() for t in taken}
    if title.casefold() not in used:
        return title
    number = 2
    while True:
        suffix = f" ({number})"
        candidate = shorten(title, TITLE_LENGTH - len(suffix)) + suffix
        if candidate.casefold() not in used:
            return candidate
        number += 1


def _first_line(prompt: str) -> str:
    """The first line with words in it, outside code fences and once its markers are off."""
    fenced = False
    for raw in prompt.splitlines():
        if _FENCE.match(raw):
            fenced = not fenced
            continue
        if fenced:
            continue
        line = _LINE_MARKS.sub("", raw).strip()
        if re.search(r"\w", line):
            return line
    # Nothing but code (or punctuation): the first non-empty line of it, as typed.
    lines = (ln.strip() for ln in prompt.splitlines() if not _FENCE.match(ln))
    return next((ln for ln in lines if ln), "")
