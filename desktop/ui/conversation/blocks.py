"""Cuts streaming markdown into finished blocks and a short open tail, the same way every time.

Streaming re-renders only the open block: ``BlockSplitter`` hands out finished blocks (ended by a
blank line outside a code fence, once they are ``BLOCK_MIN`` long) once, and keeps the open tail
short. A very long block is cut at a line or word boundary; an open code fence is closed and
reopened around the cut, so each piece still renders as code (its fence lines say which pieces
were cut and which continue one, ``CUT``/``CONTINUED``, so the renderer draws the pieces as one
block), and a table is cut between rows, its header repeated. The cost of one repaint is
therefore bounded, however long the message. Where the text is cut depends only on the text,
never on the pieces it arrived in: a reply fed at once (reopened from history) is cut into the
same blocks as the same reply streamed.
"""

from __future__ import annotations

import re

#: Longest open block, in characters, before it is cut (bounds the cost of one repaint): inside
#: a code fence (highlighting costs ~4 ms per 1,000 characters), and in prose (one paragraph
#: laid out at once).
LIVE_LIMIT = 600
PROSE_LIMIT = 1000
#: Words added to the info string of a cut code fence: the piece was cut at its end (``CUT``),
#: the piece continues the one before (``CONTINUED``). Invisible separators: never typed.
CUT = "\u2063cut"
CONTINUED = "\u2063continued"
#: A block ends at the first blank line after this many characters (fewer, larger blocks render
#: faster than one per paragraph; a blank line before it ends the block when none follows), or
#: when the message is complete (``finish``).
BLOCK_MIN = 600
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_TABLE_RULE = re.compile(r"^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def unmarked(info: str) -> str:
    """A fence's info string without the splitter's words."""
    return info.replace(CONTINUED, "").replace(CUT, "").strip()


class BlockSplitter:
    """Splits streaming markdown into finished blocks and a short open tail (``live``)."""

    def __init__(self, limit: int = LIVE_LIMIT, prose_limit: int = PROSE_LIMIT) -> None:
        self.live = ""
        self._code_limit = limit
        self._prose_limit = prose_limit
        self._limit = limit
        self._fence_end = 0  # where the line that opened the last fence scanned ends

    def feed(self, text: str) -> list[str]:
        """Add streamed text; return the blocks it finished (each rendered once by the view)."""
        self.live += text
        done: list[str] = []
        while True:
            # The prose limit, unless a code fence is open at the code limit.
            self._limit = self._prose_limit
            code = min(self._code_limit, self._prose_limit)
            if len(self.live) > code and self._scan(code)[2] is not None:
                self._limit = self._code_limit
            cut, last, _ = self._scan(self._limit)
            if cut == 0 and len(self.live) > self._limit:
                cut = last  # no blank line after ``BLOCK_MIN``: the last one before it
            if cut > 0:
                done.append(self.live[:cut])
                self.live = self.live[cut:]
            elif len(self.live) > self._limit:
                done.append(self._cut_long())
            else:
                return done

    def finish(self) -> list[str]:
        """The message is complete: the open tail is the last block."""
        rest, self.live = self.live, ""
        return [rest] if rest.strip() else []

    def _scan(self, end_at: int) -> tuple[int, int, str | None]:
        """Within ``live[:end_at]``: the end of the first blank line (after text, outside a
        fence) at or after ``BLOCK_MIN`` (0: none), of the last such line before it, and the
        fence open at the end of what was scanned."""
        fence: str | None = None
        pos = 0
        last = 0
        live = self.live
        text_before = False
        while pos < end_at:
            end = live.find("\n", pos, end_at)
            if end < 0:
                break  # the last line is incomplete
            line = live[pos:end]
            match = _FENCE.match(line)
            if fence is None and match:
                fence = line.strip()
                self._fence_end = end
            elif fence is not None and match and match.group(2).strip() == "":
                if match.group(1)[0] == fence[0]:
                    fence = None
            elif fence is None and not line.strip() and text_before:
                if end + 1 >= BLOCK_MIN:
                    return end + 1, last, None
                last = end + 1
            text_before = text_before or bool(line.strip())
            pos = end + 1
        return 0, last, fence

    def _cut_long(self) -> str:
        head = self.live[: self._limit]
        _, _, fence = self._scan(self._limit)
        at = head.rfind("\n")
        if at < self._limit // 2:
            at = max(head.rfind(" "), self._limit // 2) if fence is None else -1
        if at < 0:
            at = self._limit
        _, _, fence = self._scan(at + 1)
        block, rest = self.live[: at + 1], self.live[at + 1 :]
        if fence is not None:
            opened = self._fence_end
            block = f"{block[:opened]} {CUT}{block[opened:].rstrip(chr(10))}\n{fence[0] * 3}\n"
            rest = f"{unmarked(fence)} {CONTINUED}\n{rest}"
        elif (header := _table_header(block)) is not None and rest.lstrip(" ").startswith("|"):
            rest = header + rest  # the rest of the table, under its header again
        self.live = rest
        return block


def _table_header(block: str) -> str | None:
    """The header and rule lines of the table ``block`` ends in (None: it ends in none)."""
    lines = block.rstrip("\n").split("\n")
    for at in range(len(lines) - 1, 0, -1):
        if not lines[at].lstrip(" ").startswith("|"):
            return None
        if _TABLE_RULE.match(lines[at]) and lines[at - 1].lstrip(" ").startswith("|"):
            return f"{lines[at - 1]}\n{lines[at]}\n" if at < len(lines) - 1 else None
    return None
