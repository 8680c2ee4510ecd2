"""The prompt's tokens: the ``@`` or ``/`` word being typed at the cursor, and how picked
mentions and known commands look in the prompt (a highlighted token, like a chip).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from desktop.ui import theme

#: A mention in the text: ``@`` at a word's start, then anything up to white space.
MENTION = re.compile(r"(?:(?<=\s)|^)@(\S+)")


class Token(NamedTuple):
    """The word being typed: its first character's position in the document, what follows the
    ``@`` or ``/`` up to the cursor, and its kind (``@`` or ``/``)."""

    start: int
    query: str
    kind: str


def token_at(text: str, cursor: int) -> Token | None:
    """The ``@`` word (anywhere) or ``/`` word (at the very start) that ends at ``cursor``."""
    before = text[:cursor]
    start = max(before.rfind(" "), before.rfind("\n"), before.rfind("\t")) + 1
    word = before[start:]
    if word.startswith("@"):
        return Token(start, word[1:], "@")
    if word.startswith("/") and start == 0:
        return Token(0, word[1:], "/")
    return None


class TokenHighlighter(QSyntaxHighlighter):
    """Shows picked ``@`` mentions and a known leading ``/command`` as tinted tokens."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self.mentions: set[str] = set()
        self.commands: set[str] = set()
        self._format = QTextCharFormat()
        self._restyle()
        self._unfollow = theme.on_change(lambda _palette: self._restyle(rehighlight=True))
        self.destroyed.connect(lambda *_: self._unfollow())

    def _restyle(self, *, rehighlight: bool = False) -> None:
        colours = theme.current()
        chip = QTextCharFormat()
        chip.setForeground(QColor(colours.accent))
        chip.setBackground(QColor(colours.user_bubble))
        chip.setFontWeight(QFont.Weight.DemiBold)
        self._format = chip
        if rehighlight:
            self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        for match in MENTION.finditer(text):
            if match.group(1) in self.mentions:
                self.setFormat(match.start(), match.end() - match.start(), self._format)
        if self.currentBlock().blockNumber() == 0 and text.startswith("/"):
            word = text.split(None, 1)[0] if text.strip() else text
            if word[1:] in self.commands:
                self.setFormat(0, len(word), self._format)
