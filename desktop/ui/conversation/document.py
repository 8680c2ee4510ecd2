"""One document of an answer's finished markdown blocks, as tall as its content.

``stream_view.AssistantView`` spreads a long answer over documents of bounded size (inserting
into a ``QTextDocument`` costs time in proportion to its size); each appends a parsed block at
its end without merging it into the last paragraph, and keeps its code blocks' "Copy" links
(``reveal.CopyLinks``). The open block of a streaming answer is one too, its HTML replaced as it
grows (``replace_html``).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSizeF, Qt, QTimer
from PySide6.QtGui import (
    QFocusEvent,
    QMouseEvent,
    QTextCursor,
    QTextDocument,
    QTextDocumentFragment,
)
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser

from desktop.ui.conversation.reveal import CopyLinks

#: Pixels above a document's end that may be drawn differently once a block is appended (the
#: last block's bottom margin).
_SETTLES = 24


class AnswerDocument(QTextBrowser):
    """Finished blocks of one message in one document, as tall as its content.

    One ``QTextDocument`` lays out only what is appended, where a label per block would make the
    column re-measure every label (quadratic over a long message).
    """

    def __init__(self) -> None:
        super().__init__()
        self.setOpenLinks(False)  # a click is the answer's to handle (``AssistantView._on_link``)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        # It grows at its bottom: a taller document paints what is new, not all of itself.
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_StaticContents)
        self.setObjectName(
            "markdown"
        )  # transparent, from the app style sheet (no per-widget sheet)
        self.document().setDocumentMargin(0)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.document().setUndoRedoEnabled(False)  # read-only: the link colours are no edits
        self.setFixedHeight(0)
        self._repaint = QTimer(self)  # see ``_repaint_later``
        self._repaint.setSingleShot(True)
        self._repaint.setInterval(0)
        self._repaint.timeout.connect(self._repaint_now)
        self._repaint_top = 0
        self.blocks = 0
        self.viewport().setMouseTracking(True)
        #: Its code blocks' "Copy" links, drawn on hover and keyboard focus only.
        self.copies = CopyLinks(self)
        self.selectionChanged.connect(self.copies.follow_cursor)  # Tab selects the next link

    def append_html(self, html: str) -> None:
        """Append one rendered block below the last (at once: ``parse`` then ``insert``)."""
        self.insert(parse(html))

    def insert(self, block: QTextDocument | None) -> int:
        """Append one parsed block below the last (``insertHtml`` would merge the block's first
        paragraph into the last one of the document: a heading into the text after it); the
        position where it starts, for ``copies.add_from``."""
        self.blocks += 1
        document = self.document()
        if block is None:
            return document.characterCount() - 1
        first = block.begin()
        cursor = QTextCursor(document)
        cursor.movePosition(QTextCursor.MoveOperation.End)
        # The text layout asks for the whole document to be painted again when a table (a code
        # block) is added; what was there does not change, so only what is new is painted (a
        # document taller than the screen repainted at every block cost 5 ms a frame).
        layout = document.documentLayout()
        above = int(layout.documentSize().height()) - _SETTLES
        layout.blockSignals(True)
        try:
            if document.isEmpty():
                cursor.setBlockFormat(first.blockFormat())
                cursor.setBlockCharFormat(first.charFormat())
            else:
                cursor.insertBlock(first.blockFormat(), first.charFormat())
            start = cursor.position()
            cursor.insertFragment(QTextDocumentFragment(block))
        finally:
            layout.blockSignals(False)
        self._fit(layout.documentSize())
        self._repaint_later(max(0, above))
        return start

    def replace_html(self, html: str) -> None:
        """Show ``html`` instead of what is shown, fitted once (``setHtml`` alone empties the
        document first: the answer would shrink and grow again, its whole column laid out twice)."""
        layout = self.document().documentLayout()
        layout.blockSignals(True)
        try:
            self.setHtml(html)
        finally:
            layout.blockSignals(False)
        self._fit(layout.documentSize())
        self._repaint_later(0)  # its repaint was one of the signals held back

    def _repaint_later(self, top: int) -> None:
        """Paint from ``top`` down once the view has scrolled to what is new: Qt scrolls the
        column by copying what is on screen only if nothing there waits to be painted (a
        repaint asked for now made it paint the whole screen instead)."""
        active = self._repaint.isActive()
        self._repaint_top = min(top, self._repaint_top) if active else top
        self._repaint.start()

    def _repaint_now(self) -> None:
        viewport = self.viewport()
        viewport.update(0, self._repaint_top, viewport.width(), viewport.height())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        super().mouseMoveEvent(event)
        self.copies.hover(event.position().toPoint())

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Leave:
            self.copies.hover(None)
        return super().viewportEvent(event)

    def focusNextPrevChild(self, next: bool) -> bool:
        moved = super().focusNextPrevChild(next)  # Tab: to the next link, else out
        self.copies.follow_cursor()
        return moved

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.copies.follow_cursor()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.copies.focus_out()

    def _fit(self, size: QSizeF) -> None:
        self.setFixedHeight(int(size.height()) + 2)


def parse(html: str) -> QTextDocument | None:
    """``html`` parsed into a document of its own (None: nothing to show)."""
    if not html:
        return None
    block = QTextDocument()
    block.setHtml(html)
    return block
