"""Copy controls that show on hover and keyboard focus only, as in Zed or Claude Desktop.

An answer's "Copy" and each code block's "Copy" are always there: they keep their place (the
layout never moves when they show), they are in the Tab order and a screen reader names them.
They are only *drawn* while the pointer is over their answer or code block, or while they have
the keyboard: ``RevealButton`` skips painting otherwise, and ``CopyLinks`` draws a code block's
link in the code's own background colour until then (a colour change, never a relayout).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor, QFocusEvent, QPaintEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextBrowser, QToolButton

from desktop.ui import theme
from desktop.ui.conversation.markdown import COPY_SCHEME


class RevealButton(QToolButton):
    """A tool button drawn only while ``revealed`` (its answer is hovered) or focused."""

    def __init__(self) -> None:
        super().__init__()
        self.revealed = False

    def reveal(self, shown: bool) -> None:
        """Draw the button (the pointer is over its answer) or stop drawing it."""
        if shown != self.revealed:
            self.revealed = shown
            self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.revealed or self.hasFocus():
            super().paintEvent(event)


class CopyLinks:
    """The "Copy" links of one document's code blocks, drawn only for the block under the
    pointer (``hover``) and the link that has the keyboard (``follow_cursor``)."""

    def __init__(self, browser: QTextBrowser) -> None:
        self._browser = browser
        #: (start, end) of each link in the document, in order.
        self.links: list[tuple[int, int]] = []
        self._hovered: tuple[int, int] | None = None
        self._focused: tuple[int, int] | None = None

    def add_from(self, start: int) -> None:
        """Find the links from ``start`` on (text just appended) and conceal them (those not
        drawn concealed already: a change of colour repaints the whole document)."""
        hidden = QColor(theme.current().surface)
        block = self._browser.document().findBlock(start)
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                form = fragment.charFormat()
                if fragment.isValid() and form.anchorHref().startswith(f"{COPY_SCHEME}:"):
                    link = (fragment.position(), fragment.position() + fragment.length())
                    if link not in self.links:
                        self.links.append(link)
                        if form.foreground().color() != hidden:
                            self._paint(link, shown=False)
                it += 1
            block = block.next()

    def shown(self) -> list[tuple[int, int]]:
        """The links drawn now (tests look at it)."""
        return [link for link in self.links if link in (self._hovered, self._focused)]

    def hover(self, pos: QPoint | None) -> None:
        """The pointer is at ``pos`` in the viewport (None: it left): show its block's link."""
        link = None
        if pos is not None:
            table = self._browser.cursorForPosition(pos).currentTable()
            if table is not None:
                first, last = table.firstPosition(), table.lastPosition()
                link = next((k for k in self.links if first <= k[0] < last), None)
        self._switch("_hovered", link)

    def follow_cursor(self) -> None:
        """Show the link the keyboard is on (Tab moves the browser's cursor between links)."""
        cursor = self._browser.textCursor()
        at = cursor.selectionStart() if cursor.hasSelection() else -1
        link = None
        if self._browser.hasFocus():
            link = next((k for k in self.links if k[0] <= at < k[1]), None)
        self._switch("_focused", link)

    def focus_out(self, _event: QFocusEvent | None = None) -> None:
        """The browser lost the keyboard: its link is no longer shown for it."""
        self._switch("_focused", None)

    def _switch(self, reason: str, new: tuple[int, int] | None) -> None:
        """Move one reason to show a link (``_hovered`` or ``_focused``) to ``new``; a link the
        other reason still shows stays drawn. The state changes before the colours: a colour
        change moves the browser's selection, which calls ``follow_cursor`` again."""
        old = getattr(self, reason)
        if old == new:
            return
        setattr(self, reason, new)
        if old is not None and old not in (self._hovered, self._focused):
            self._paint(old, shown=False)
        if new is not None:
            self._paint(new, shown=True)

    def _paint(self, link: tuple[int, int], *, shown: bool) -> None:
        palette = theme.current()
        cursor = QTextCursor(self._browser.document())
        cursor.setPosition(link[0])
        cursor.setPosition(link[1], QTextCursor.MoveMode.KeepAnchor)
        colour = QTextCharFormat()
        colour.setForeground(QColor(palette.accent if shown else palette.surface))
        cursor.mergeCharFormat(colour)
