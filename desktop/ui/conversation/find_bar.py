"""The find bar: Ctrl+F inside the open conversation, as in an editor or a browser.

A slim bar at the top of the conversation: the query (the selected text or the last query),
"3 of 17", match case, previous and next, close. Enter / F3 go to the next hit, Shift+Enter /
Shift+F3 to the previous one, Esc closes the bar and gives the composer the keyboard.

It searches the model's entries (``find.Matcher``), not the widgets, so hits in rows the
virtualized view never built are counted and reached: going to a hit builds its row
(``ConversationView.bring``), scrolls to it and paints the occurrences inside the row's text
(``highlight.TextHits``; the row is only marked, ``highlight.mark``, when its text is not
shown, e.g. a collapsed tool output). The count follows the query as it is typed (after a short
pause) and the conversation as it grows (at most a few times a second while an answer streams),
and is announced to screen readers.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QToolButton,
    QWidget,
)

from desktop.core.entries import Item
from desktop.ui import theme
from desktop.ui.announce import announce
from desktop.ui.conversation.find import Hit, Matcher, Matches
from desktop.ui.conversation.highlight import TextHits, mark, occurrences, reveal, scroll_to
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.rows import shows
from desktop.ui.conversation.view import ConversationView
from desktop.ui.icons import Icon, decorate
from desktop.ui.qt_async import TaskScope

__all__ = ["FindBar"]

#: Typing pauses this long before the count is updated.
TYPING_DELAY_MS = 120
#: While an answer streams, the count is updated at most this often.
STREAM_DELAY_MS = 400
#: Time one slice of reading the entries' texts may take (``_warm``).
WARM_SLICE_S = 0.006
#: The query field's widest (the count and buttons follow it, as in an editor's find bar).
FIELD_WIDTH = 440
#: Frames a just-built answer may take to render before its text is searched.
_RENDER_FRAMES = 120

_QSS = """
QFrame#findBar {{ background: {surface}; border-bottom: 1px solid {border}; }}
QLineEdit#findField {{ background: {window}; border: 1px solid {border}; border-radius: 6px;
    padding: 4px 8px; }}
QLineEdit#findField:focus {{ border-color: {accent}; }}
QLineEdit#findField[missing="true"] {{ border-color: {danger}; }}
QLabel#findCount {{ color: {muted}; font-size: 9.5pt; }}
QLabel#findCount[missing="true"] {{ color: {danger}; }}
QToolButton#findCase {{ border: 1px solid transparent; }}
QToolButton#findCase:checked {{ background: {user_bubble}; border-color: {accent}; }}
"""


class _Field(QLineEdit):
    """The query: Enter and Shift+Enter step through the hits, Esc closes the bar."""

    def __init__(self, bar: FindBar) -> None:
        super().__init__()
        self._bar = bar

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            shift = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            self._bar.previous() if shift else self._bar.next()
        elif key == Qt.Key.Key_Escape:
            self._bar.close_bar()
        else:
            super().keyPressEvent(event)


class FindBar(QFrame):
    """Find inside one conversation (see the module docstring); hidden until ``open``."""

    def __init__(
        self,
        view: ConversationView,
        transcript: TranscriptModel,
        composer: QWidget,
        scope: TaskScope,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("findBar")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)  # its surface and rule
        self._view = view
        self._transcript = transcript
        self._composer = composer
        self._scope = scope
        self.matcher = Matcher()
        self.matches = Matches()
        #: The index of the hit shown among ``matches`` (None: none yet).
        self.current: int | None = None
        self.hits = TextHits()
        self._query = ""  # what ``matches`` were counted for
        self._going: asyncio.Task[None] | None = None
        self._build()
        self._typing = QTimer(self, singleShot=True, interval=TYPING_DELAY_MS)
        self._typing.timeout.connect(lambda: self.search(go=True))
        self._growing = QTimer(self, singleShot=True, interval=STREAM_DELAY_MS)
        self._growing.timeout.connect(lambda: self.search(go=False))
        transcript.item_added.connect(self._on_entry)
        transcript.item_changed.connect(self._on_entry)
        transcript.earlier_added.connect(lambda _items: self._on_entry(None))
        self.hide()

    def _build(self) -> None:
        theme.follow(self, _QSS)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 8, 6)
        layout.setSpacing(4)
        self.field = _Field(self)
        self.field.setObjectName("findField")
        self.field.setPlaceholderText(self.tr("Find in conversation"))
        self.field.setAccessibleName(self.tr("Find in conversation"))
        self.field.setClearButtonEnabled(True)
        self.field.textChanged.connect(lambda _text: self._typing.start())
        self.field.setMaximumWidth(FIELD_WIDTH)
        layout.addWidget(self.field, 1)
        self.count = QLabel()
        self.count.setObjectName("findCount")
        self.count.setMinimumWidth(self.count.fontMetrics().horizontalAdvance("0000 of 0000"))
        self.count.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.count)
        self.case = self._button("findCase", self.tr("Match case"), Icon.MATCH_CASE)
        self.case.setCheckable(True)
        self.case.toggled.connect(lambda _on: self.search(go=True))
        self.previous_button = self._button(
            "findPrevious", self.tr("Previous match (Shift+Enter)"), Icon.FIND_PREVIOUS
        )
        self.previous_button.clicked.connect(self.previous)
        self.next_button = self._button("findNext", self.tr("Next match (Enter)"), Icon.FIND_NEXT)
        self.next_button.clicked.connect(self.next)
        self.close_button = self._button("findClose", self.tr("Close (Esc)"), Icon.CLOSE)
        self.close_button.clicked.connect(self.close_bar)
        for button in (self.case, self.previous_button, self.next_button):
            layout.addWidget(button)
        layout.addStretch(0)
        layout.addWidget(self.close_button)

    def _button(self, name: str, tip: str, icon: Icon) -> QToolButton:
        button = QToolButton()
        button.setObjectName(name)
        button.setToolTip(tip)
        button.setAccessibleName(tip)
        button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        decorate(button, icon, role="muted")
        return button

    # ------------------------------------------------------------------ open, close
    def open(self) -> None:
        """Show the bar with the selected text (or the last query) selected, and search."""
        selected = _selected_text()
        if selected:
            self.field.setText(selected)
        self.show()
        self.field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.field.selectAll()
        self._scope.spawn(self._warm(), name="find-warm")
        if selected or self.current is None:
            self._typing.start()  # counted once the texts are read (``_warm``)
        else:
            self.search(go=False)

    def close_bar(self) -> None:
        """Hide the bar, take the highlights away, give the composer the keyboard."""
        self._typing.stop()
        self._growing.stop()
        if self._going is not None:
            self._going.cancel()
        self.hits.clear()
        self.hide()
        self._composer.setFocus(Qt.FocusReason.OtherFocusReason)

    async def _warm(self) -> None:
        """Read the entries' texts a slice at a time (a count in a cold 5,000-turn conversation
        would stall the window ~60 ms; typing pauses ``TYPING_DELAY_MS`` meanwhile)."""
        index = 0
        while self.isVisible() and index < len(items := self._transcript.items):
            case = self.case.isChecked()
            index = self.matcher.warm(items, index, match_case=case, budget_s=WARM_SLICE_S)
            await asyncio.sleep(0)

    # ------------------------------------------------------------------ moving
    def next(self) -> None:
        """Go to the next hit (the first after the last)."""
        self._step(1)

    def previous(self) -> None:
        """Go to the previous hit (the last before the first)."""
        self._step(-1)

    def _step(self, direction: int) -> None:
        if self.isHidden():
            self.open()
            return
        if self._typing.isActive() or self._query != self._wanted():
            self._typing.stop()
            self.search(go=True)
            return
        total = self.matches.total
        if not total:
            self._announce()
            return
        if self.current is None:
            start = self.matches.first_from(self._first_visible())
            self.go((start if direction > 0 else start - 1) % total)
        else:
            self.go((self.current + direction) % total)

    def go(self, index: int) -> None:
        """Show hit ``index`` (its row built, scrolled to, the occurrence painted)."""
        self.current = index
        self._show_count()
        self._announce()
        if self._going is not None:
            self._going.cancel()
        self._going = self._scope.spawn(self._show(self.matches.at(index)), name="find-go")

    async def _show(self, hit: Hit) -> None:
        view = self._view
        widget = view.bring(hit.key)  # built if far
        if widget is None:
            return
        view.flush()
        await scroll_to(view, widget)
        for _ in range(_RENDER_FRAMES):  # a long answer just built renders over a few frames
            if not getattr(widget, "busy", False):
                break
            await asyncio.sleep(0.016)
        found = occurrences(widget, self._query, match_case=self.case.isChecked())
        if not found:
            self.hits.clear()
            mark(widget)  # its text is not shown (a folded tool output): the row is marked
            return
        chosen = min(hit.ordinal, len(found) - 1)
        rect = self.hits.show(found, chosen)
        if rect is not None:
            reveal(view, found[chosen].widget, rect)

    # ------------------------------------------------------------------ counting
    def _wanted(self) -> str:
        return self.field.text()

    def search(self, *, go: bool) -> None:
        """Count the query again; ``go``: move to the first hit from the top of the viewport
        (the query changed), else keep the hit shown (the conversation grew)."""
        query = self._wanted()
        shown_hit = (
            self.matches.at(self.current)
            if self.current is not None and self.current < self.matches.total
            else None
        )
        self._query = query
        self.matches = self.matcher.search(
            self._transcript.items, query, match_case=self.case.isChecked(), shown=shows
        )
        self.current = None if shown_hit is None else self.matches.index(shown_hit)
        if not self.matches.total:
            self.current = None
            self.hits.clear()
        elif go:
            self.go(self.matches.first_from(self._first_visible()))
            return
        self._show_count()
        if go:
            self._announce()

    def _on_entry(self, item: Item | None) -> None:
        if item is not None:
            self.matcher.forget(item.key)
        if self.isVisible() and self._query and not self._growing.isActive():
            self._growing.start()

    def _first_visible(self) -> int:
        """The key of the first entry whose row reaches into the viewport (0: none)."""
        body = self._view.widget()
        top = self._view.verticalScrollBar().value()
        for key, widget in self._view.widgets.items():
            if body is not None and widget.isVisible():
                y = widget.mapTo(body, widget.rect().bottomLeft()).y()
                if y >= top:
                    return key
        return 0

    def count_text(self) -> str:
        """What the count says: "3 of 17", "No results", or nothing (no query)."""
        if not self._query:
            return ""
        total = self.matches.total
        if not total:
            return self.tr("No results")
        if self.current is None:
            return self.tr("%n result(s)", "", total)
        return self.tr("{index} of {total}").format(index=self.current + 1, total=total)

    def _show_count(self) -> None:
        self.count.setText(self.count_text())
        missing = bool(self._query) and not self.matches.total
        for widget in (self.count, self.field):
            if widget.property("missing") != missing:
                widget.setProperty("missing", missing)
                widget.style().unpolish(widget)
                widget.style().polish(widget)

    def _announce(self) -> None:
        announce(self.field, self.count_text())


def _selected_text() -> str:
    """The text selected where the keyboard is, if it is one short line (the query to find)."""
    focused = QApplication.focusWidget()
    text = ""
    if isinstance(focused, QTextEdit | QPlainTextEdit):
        text = focused.textCursor().selectedText()
    elif isinstance(focused, QLabel) or (
        isinstance(focused, QLineEdit) and not isinstance(focused, _Field)
    ):
        text = focused.selectedText()
    text = text.replace("\u2029", "\n").strip()
    return text if text and "\n" not in text and len(text) <= 200 else ""
