"""Assistant markdown, rendered while it streams, with its links and copy buttons.

Only what is new since the last repaint is rendered (the view calls ``refresh`` at most 60 times
per second): finished markdown blocks become fixed documents once, and only the short open block
is re-rendered on each tick. A frame does at most ``TICK_BUDGET_S`` of that work, in small steps
(the HTML parsed; the parse inserted; its "Copy" links found), at most one of them costly (a
parse, an insert, a new document, the open block's new HTML) a turn of the loop, so no single block,
however many code blocks or tables it holds, stalls the loop. Markdown becomes HTML on the
worker thread (``worker``): a finished block's with its lexers built and its code highlighted
(``markdown.render_later``), the next one while this one is inserted; the open block's as it
grows (``markdown.render_live_later``: one render in flight, the newest text sent when it comes
back, its HTML shown at the next turn of the loop; code drawn plain until its lexer is built
there, then drawn again). What is rendered depends only on the text, not on how it arrived
(``BlockSplitter`` cuts where the text says, each block keeps its own paragraph format), so a
streamed reply and the same reply reopened from history look the same. A theme change renders
the whole reply again in the new palette (``rerender``).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer, QUrl
from PySide6.QtGui import (
    QEnterEvent,
    QGuiApplication,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLayout,
    QVBoxLayout,
    QWidget,
)

from desktop.core.entries import StreamItem
from desktop.ui import theme, turn_budget
from desktop.ui.conversation import worker
from desktop.ui.conversation.blocks import BlockSplitter
from desktop.ui.conversation.document import AnswerDocument, parse
from desktop.ui.conversation.links import open_link
from desktop.ui.conversation.markdown import (
    COPY_SCHEME,
    LiveHtml,
    render_later,
    render_live_later,
    renderer,
)
from desktop.ui.conversation.reveal import RevealButton
from desktop.ui.icons import Icon, decorate
from desktop.ui.theme import set_role
from desktop.ui.turn_budget import TurnShare

#: Time one turn of the loop may spend rendering finished blocks (at least one step is taken;
#: a step takes 1–3 ms).
TICK_BUDGET_S = 0.002
#: Least time between two renders of the open block (it changes with every delta).
LIVE_INTERVAL_S = 0.016
#: Characters per document before the next finished blocks start a new one: inserting into a
#: ``QTextDocument`` costs time in proportion to its size, so documents stay small.
DOCUMENT_LIMIT = 4_000
#: Documents per page (see ``AssistantView._pages``).
PAGE_DOCUMENTS = 16
#: Characters handed to the block splitter per frame (a reply reopened whole is cut over frames).
FEED_CHARS = 8_000


class AssistantView(QWidget):
    """Assistant markdown, rendered while it streams (``take_new``: text not rendered yet;
    ``text_of``: the whole text so far).

    A link opens in the browser only if it is a web or mail address (``links.open_link``); a
    code block's "Copy" puts that code on the clipboard, and "Copy" under a finished answer puts
    the whole answer there, as the markdown the model wrote.
    """

    def __init__(
        self,
        item: StreamItem,
        take_new: Callable[[int], str],
        text_of: Callable[[int], str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.item = item
        self._take_new = take_new
        self._text_of = text_of
        self.setAttribute(Qt.WidgetAttribute.WA_StaticContents)  # grows at its bottom (opaque.py)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(2, 0, 2, 0)
        self._layout.setSpacing(0)
        #: The open block, rendered again as it grows: a document as tall as its content (a
        #: rich-text label would lay its text out again for every width its layout asks about).
        self._live = AnswerDocument()
        self._live.setAccessibleName(
            QCoreApplication.translate("AssistantView", "Assistant message")
        )
        self._live.anchorClicked.connect(self._on_link)
        self._live.setProperty("live", True)  # not a finished block's document (tests)
        self._live.hide()
        self._layout.addWidget(self._live)
        self.copy_button = RevealButton()  # drawn on hover and focus; its place always kept
        self.copy_button.setText(QCoreApplication.translate("AssistantView", "Copy"))
        self.copy_button.setAccessibleName(
            QCoreApplication.translate("AssistantView", "Copy the answer")
        )
        self.copy_button.setToolTip(
            QCoreApplication.translate("AssistantView", "Copy the answer as markdown")
        )
        self.copy_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.copy_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        set_role(self.copy_button, "copyAnswer", polished=False)
        decorate(self.copy_button, Icon.COPY, role="muted", size=14, beside_text=True)
        self.copy_button.clicked.connect(self.copy_answer)
        self.copy_button.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 2, 0, 0)
        row.addWidget(self.copy_button)
        row.addStretch(1)
        self._layout.addLayout(row)
        self._live_codes: dict[str, str] = {}  # code of each "Copy" link of the open block
        #: Goes on with the work left at the next turn of the loop (not a frame later: a reply
        #: renders as fast as small steps allow, and each turn of the loop stays short), when
        #: that turn has budget left (``turn_budget``): not in the turn that read a flood of
        #: deltas or ended the reply.
        self._more = QTimer(self)
        self._more.setSingleShot(True)
        self._more.setInterval(0)
        self._more.timeout.connect(self._go_on)
        self._share = TurnShare()
        worker.handoff().done.connect(self._on_rendered)
        self._start()
        self.setAccessibleName(QCoreApplication.translate("AssistantView", "Assistant message"))
        self.refresh()

    def _go_on(self) -> None:
        self._share.run(self.refresh, TICK_BUDGET_S, self._more)

    def _start(self) -> None:
        """Nothing rendered yet (a new reply, or the whole reply again in a new palette)."""
        self._renderer = renderer(theme.current().dark)
        #: Code of each "Copy" link of the finished blocks (filled on the worker thread; a new
        #: dict on a new render, so a job of the old one fills the old dict).
        self.codes: dict[str, str] = {}
        #: The finished block being rendered on the worker thread (``markdown.render_later``).
        self._rendering: Future[str] | None = None
        #: The open block being rendered on the worker thread (at most one at a time).
        self._live_job: Future[LiveHtml] | None = None
        self._splitter = BlockSplitter()
        self._documents: list[AnswerDocument] = []
        #: Widgets holding ``PAGE_DOCUMENTS`` documents each: a document that grows lays out its
        #: page and the pages, not every document of a long answer.
        self._pages: list[QWidget] = []
        #: Finished blocks not shown yet, each at its next step: markdown, HTML, a parsed
        #: document, or the position its "Copy" links start at in the last document.
        self._backlog: deque[str] = deque()
        self._html: deque[str] = deque()
        self._parsed: deque[QTextDocument | None] = deque()
        self._links: int | None = None
        self._live_source = ""
        self._unfed = ""  # text taken from the model, not yet cut into blocks
        self._live_at = -LIVE_INTERVAL_S  # when the open block was last rendered
        self._finished = False

    def rerender(self) -> None:
        """Render the whole reply again (the palette changed); over the next frames if long."""
        self._take_new(self.item.key)  # the text below holds it
        for page in self._pages:
            self._layout.removeWidget(page)
            page.setParent(None)  # out of the answer now (deleted at the next turn of the loop)
            page.deleteLater()
        self._start()
        self._unfed = self._text_of(self.item.key)
        self._live_source = "\0"  # the open block is rendered again too
        self.refresh()

    @property
    def block_count(self) -> int:
        """Finished blocks rendered so far (tests and benchmarks look at it)."""
        return sum(document.blocks for document in self._documents)

    def shown_html(self) -> str:
        """Everything rendered so far (finished blocks and the open one)."""
        live = self._live.toHtml() if self._live.isVisibleTo(self) else ""
        return "".join(d.toHtml() for d in self._documents) + live

    def enterEvent(self, event: QEnterEvent) -> None:
        super().enterEvent(event)
        self.copy_button.reveal(True)

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        self.copy_button.reveal(False)

    def copy_answer(self) -> None:
        """Put the whole answer on the clipboard, as markdown."""
        QGuiApplication.clipboard().setText(self._text_of(self.item.key))

    def _on_link(self, link: QUrl | str) -> None:
        url = link if isinstance(link, QUrl) else QUrl(link)
        if url.scheme() == COPY_SCHEME:
            code = self.codes.get(url.path(), self._live_codes.get(url.path()))
            if code is not None:
                QGuiApplication.clipboard().setText(code)
            return
        open_link(url)

    def _full(self) -> bool:
        # Inserting into a QTextDocument costs time in proportion to its size, so a long
        # message is spread over documents of bounded size (a new one below the full one).
        return not self._documents or self._documents[-1].document().characterCount() > (
            DOCUMENT_LIMIT
        )

    def _new_document(self) -> None:
        """A document below the last, for the next finished blocks."""
        last = AnswerDocument()
        last.setAccessibleName(QCoreApplication.translate("AssistantView", "Assistant message"))
        last.anchorClicked.connect(self._on_link)
        if len(self._documents) % PAGE_DOCUMENTS == 0:
            page = QWidget()
            page.setAttribute(Qt.WidgetAttribute.WA_StaticContents)
            column = QVBoxLayout(page)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(0)
            # A document that grows makes its page as tall at once: laid out in the page's old
            # height first, the page's documents were squeezed up, then moved back down, every
            # document on screen painted again twice a frame.
            column.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)
            self._pages.append(page)
            self._layout.insertWidget(self._layout.indexOf(self._live), page)
            page.show()  # now, not at the next turn of the loop: laid out with its text
        layout = self._pages[-1].layout()
        assert layout is not None
        layout.addWidget(last)
        self._documents.append(last)

    @property
    def busy(self) -> bool:
        """Work waits for the next frame (a frame renders for at most ``TICK_BUDGET_S``)."""
        live = self._splitter.live != self._live_source or self._live_job is not None
        return self._working or live

    def _step(self, costly_taken: bool) -> bool | None:
        """Take the next step of the oldest finished block not shown: True if it was a costly
        one (a parse, a new document, an insert: 1–6 ms), False if not; None: none can be taken now
        (nothing left, the next block is still being rendered on the worker thread, or the
        next step is costly and ``costly_taken``: one costly step a turn of the loop)."""
        if self._links is not None:
            self._documents[-1].copies.add_from(self._links)
            self._links = None
        elif self._parsed and costly_taken:
            return None
        elif self._parsed and self._full():
            self._new_document()  # a step of its own: a document is a widget (2–4 ms)
            return True
        elif self._parsed:
            self._links = self._documents[-1].insert(self._parsed.popleft())
            return True
        elif self._html and costly_taken:
            return None
        elif self._html:
            self._parsed.append(parse(self._html.popleft()))  # the HTML laid out: 1-2 ms
            return True
        elif self._rendering is not None and self._rendering.done():
            self._html.append(self._rendering.result())
            self._rendering = None
            self._render_next()  # rendered there while this one is parsed and inserted here
        elif self._rendering is None and self._backlog:
            self._render_next()
        else:
            return None
        return False

    def _render_next(self) -> None:
        """Render the next finished block on the worker thread (its markdown and code)."""
        if self._backlog:
            text = self._backlog.popleft()
            palette = self._renderer.palette
            self._rendering = render_later(palette.dark, text, self.codes, palette.surface)

    def _on_rendered(self, future: Future[object]) -> None:
        """A job of the worker thread is done: this answer's block goes on at once."""
        mine = future is self._rendering or future is self._live_job
        if mine and not self._more.isActive():
            self._more.start()

    def _draw_live(self) -> bool:
        """Show the open block's HTML rendered on the worker thread, if it is back (a failed
        render leaves what is shown); whether it was shown."""
        job = self._live_job
        if job is None or not job.done():
            return False
        self._live_job = None
        if job.exception() is not None:
            return False  # logged by the worker; the next change renders it again
        html, codes, ready = job.result()
        self._live_codes = codes
        self._live.replace_html(html)
        self._live.setVisible(bool(html))
        if not ready and self._live_source == self._splitter.live:
            self._live_source = "\0"  # drawn again once its code's lexers are built
        return True

    def refresh(self) -> None:
        """Render finished blocks once and the open block again, for at most one budget."""
        new = self._take_new(self.item.key)
        finishing = self.item.done and not self._finished
        if not (new or finishing or self.busy):
            return
        deadline = time.perf_counter() + TICK_BUDGET_S
        self._unfed += new
        fed, self._unfed = self._unfed[:FEED_CHARS], self._unfed[FEED_CHARS:]
        self._backlog.extend(self._splitter.feed(fed))
        finishing = finishing and not self._unfed
        if finishing:  # a complete message ends in a finished block, streamed or reopened
            self._finished = True
            self._backlog.extend(self._splitter.finish())
        if turn_budget.due(self._more):
            return  # the view's frame, while a continuation is due: one budget per turn
        drawn = self._draw_live()
        live = self._splitter.live
        now = time.perf_counter()
        due = now >= self._live_at + LIVE_INTERVAL_S
        if live != self._live_source and not live.strip():  # hiding costs nothing: at once
            self._live_source, self._live_codes, self._live_job = live, {}, None
            self._live.replace_html("")
            self._live.hide()
        elif live != self._live_source and due and self._live_job is None:
            self._live_at = now
            self._live_source = live
            palette = self._renderer.palette
            self._live_job = render_live_later(palette.dark, live, palette.surface)
        # What the budget leaves goes to the finished blocks: at least one step when the open
        # block was not drawn (it is drawn at most once a frame, so every reply gets to its end),
        # and one costly step a turn at most (showing the open block is one).
        if not drawn or time.perf_counter() < deadline:
            costly = drawn
            while (step := self._step(costly)) is not None:
                costly = costly or step
                if time.perf_counter() >= deadline:
                    break
        busy = self.busy
        self.copy_button.setVisible(self._finished and not busy and bool(self.item.text))
        rendering = self._rendering is not None and not self._rendering.done()
        steps_left = self._unfed or self._html or self._parsed or self._links is not None
        if (steps_left or not rendering) and self._working and not self._more.isActive():
            self._more.start()  # the open block alone waits for the view's next frame

    @property
    def _working(self) -> bool:
        """Finished blocks wait to be shown (or text to be cut into blocks)."""
        pending = self._unfed or self._backlog or self._html or self._parsed or self._rendering
        return bool(pending) or self._links is not None
