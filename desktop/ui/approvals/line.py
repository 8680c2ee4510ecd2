"""The one line a tool call card shows: what it does, who decided, when, how it ended.

Shared by the approval card (its header, and all that is left of it once decided) and by the
cards of calls nobody had to approve, so every tool call reads the same way:
"Run `make all` in ~/proj   Allowed by your always-rule for shell commands · 14:02  succeeded ▸".
The disclosure toggle never takes keyboard focus (clicking it leaves the composer focused).

What the line says first is what the call does: when the line is too narrow for all of it, the
muted who-decided text gives way first (its end elided, down to its first word), and only then the
title (the middle of its target); the counts, the time, the run status and the toggle stay whole
(``_LineLayout``). A plain ``QHBoxLayout`` took every missing pixel from the title, the one part
that could shrink, and showed "Create s…y" beside a whole "Run by the agent without asking".
"""

from __future__ import annotations

import html
from math import ceil

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPaintEvent, QResizeEvent, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QSizePolicy,
    QStyle,
    QToolButton,
    QWidget,
)

from desktop.ui.approvals.summary import Sentence, clock
from desktop.ui.theme import set_role


def sentence_html(sentence: Sentence, target: str | None = None, where: str | None = None) -> str:
    """The sentence as rich text: the verb, then the target in a monospace face, then where
    (``target``/``where``: shortened versions of the sentence's own)."""
    parts = [html.escape(sentence.verb)]
    shown = sentence.target if target is None else target
    if shown:
        parts.append(f'<span style="font-family: monospace;">{html.escape(shown)}</span>')
    place = sentence.where if where is None else where
    if place:
        parts.append(html.escape(place))
    return "&nbsp;".join(parts[:2]) + ("&nbsp;" + " ".join(parts[2:]) if parts[2:] else "")


class _Title(QLabel):
    """The sentence; when the line is too narrow, the middle of its target gives way ("…").

    Its size hint is always the whole sentence's width in the label's current (polished, bold)
    font, so the layout gives it that much when it can and eliding never feeds back into how
    much room it gets.
    """

    def __init__(self, sentence: Sentence, parent: QWidget) -> None:
        super().__init__(sentence_html(sentence), parent)
        self._sentence = sentence
        self._widths: dict[str, int] = {}  # font key -> the whole sentence's width
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(40)

    def _full_width(self) -> int:
        key = self.font().key()
        width = self._widths.get(key)
        if width is None:
            document = QTextDocument()
            document.setDefaultFont(self.font())
            document.setDocumentMargin(0)
            document.setHtml(sentence_html(self._sentence))
            margins = self.contentsMargins()
            width = ceil(document.idealWidth()) + margins.left() + margins.right() + 2
            self._widths[key] = width
        return width

    def sizeHint(self) -> QSize:
        return QSize(self._full_width(), super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        return QSize(40, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        sentence, missing = self._sentence, self._full_width() - self.width()
        target, where = sentence.target, sentence.where
        if missing > 0:  # the place ("in ~/proj/…") gives way first, then the target
            plain = self.fontMetrics()
            mono = QFont(self.font())
            mono.setFamily("monospace")
            code = QFontMetrics(mono)
            keep = plain.horizontalAdvance("in ~/…/x")
            where, missing = _shorten(plain, where, missing, keep=keep)
            target, _ = _shorten(code, target, missing, keep=code.horizontalAdvance("ab…yz"))
        self.setText(sentence_html(sentence, target, where))


def _shorten(metrics: QFontMetrics, text: str, missing: int, *, keep: int) -> tuple[str, int]:
    """``text`` up to ``missing`` pixels narrower (its middle elided, at least ``keep`` wide),
    and how many pixels are still missing."""
    if not text or missing <= 0:
        return text, missing
    full = metrics.horizontalAdvance(text)
    width = max(full - missing, min(keep, full))
    shorter = metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, width)
    return shorter, missing - (full - metrics.horizontalAdvance(shorter))


class _DecisionLabel(QLabel):
    """Who decided, in words; narrower than its text, it shows its first words and "…" (its
    ``text()``, tooltip and accessible text stay whole). It can give way down to its first word."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        words = self.text().split(maxsplit=1)
        if len(words) < 2:
            return hint
        margins = self.contentsMargins()
        first = self.fontMetrics().horizontalAdvance(words[0] + "…")
        return QSize(min(hint.width(), first + margins.left() + margins.right()), hint.height())

    def shown(self) -> str:
        """The text as painted: whole, or its start up to a word's end and "…" (within the
        label's width)."""
        text, width = self.text(), self.contentsRect().width()
        short = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, width)
        if short == text or not short.endswith("…"):
            return short
        head = short[:-1]
        if not text[len(head)].isspace() and " " in head.strip():  # cut in a word: before it
            head = head[: head.rstrip().rfind(" ")]
        return head.rstrip() + "…"

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.shown() == self.text():
            super().paintEvent(event)
            return
        painter = QPainter(self)  # the label's font and (style sheet) colour
        # Against the time and status after it, as when whole (what a cut word left goes before).
        align = Qt.AlignmentFlag.AlignTrailing | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(self.contentsRect(), int(align), self.shown())


class _LineLayout(QHBoxLayout):
    """The line's row: the parts before the stretch from the left, those after it from the
    right, as ``QHBoxLayout`` puts them; but when the row is narrower than the parts' size hints
    the missing width comes from ``yielding`` in order, each down to its minimum, and from no
    other part. Still too narrow, the right-hand parts follow the left-hand ones (cut at the end,
    never drawn over each other)."""

    def __init__(self, parent: QWidget, yielding: tuple[QWidget, ...]) -> None:
        super().__init__(parent)
        self._yielding = yielding

    def setGeometry(self, rect: QRect) -> None:
        QLayout.setGeometry(self, rect)  # the rectangle only: the parts are placed here
        area = self.contentsRect()
        gap = self.spacing()
        left: list[QLayoutItem] = []
        right: list[QLayoutItem] = []
        side = left
        for index in range(self.count()):
            item = self.itemAt(index)
            if item is None:
                continue
            if item.spacerItem() is not None:
                side = right
            elif not item.isEmpty():
                side.append(item)
        shown = left + right
        widths = [item.sizeHint().width() for item in shown]
        missing = sum(widths) + gap * max(0, len(shown) - 1) - area.width()
        for widget in self._yielding:
            at = next((n for n, item in enumerate(shown) if item.widget() is widget), None)
            if at is None or missing <= 0:
                continue
            give = min(missing, max(0, widths[at] - shown[at].minimumSize().width()))
            widths[at] -= give
            missing -= give
        x = area.left()
        for item, width in zip(left, widths[: len(left)], strict=True):
            self._place(item, x, width, area)
            x += width + gap
        ends = widths[len(left) :]
        x = max(x, area.right() + 1 - sum(ends) - gap * max(0, len(ends) - 1))
        for item, width in zip(right, ends, strict=True):
            self._place(item, x, width, area)
            x += width + gap

    def _place(self, item: QLayoutItem, x: int, width: int, area: QRect) -> None:
        box = QRect(x, area.top(), width, area.height())
        widget = self.parentWidget()
        direction = (
            widget.layoutDirection() if widget is not None else Qt.LayoutDirection.LeftToRight
        )
        item.setGeometry(QStyle.visualRect(direction, area, box))


class CardLine(QWidget):
    """Sentence, diff counts, then (right-aligned) outcome, time, run status and a toggle.

    Signals:
        expanded(bool): the disclosure toggle was switched (True: details shown).
    """

    expanded = Signal(bool)

    def __init__(self, sentence: Sentence, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sentence = sentence
        self.title = _Title(sentence, self)
        self.title.setAccessibleName(sentence.plain())
        self.title.setToolTip(sentence.full_target or sentence.plain())
        set_role(self.title, "cardTitle", polished=False)
        self.added = self._label("diffAdded", f"+{sentence.added}")
        self.removed = self._label("diffRemoved", f"−{sentence.removed}")
        self.added.setVisible(sentence.added is not None)
        self.removed.setVisible(bool(sentence.removed))
        self.outcome = _DecisionLabel(self)
        set_role(self.outcome, "muted", polished=False)
        self.outcome.hide()
        self.outcome.setAccessibleName(self.tr("Decision"))
        self.when = self._label("muted", "")
        self.run_status = self._label("status", "")
        self.toggle = QToolButton(self)
        self.toggle.setCheckable(True)
        self.toggle.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.toggle.setAccessibleName(self.tr("Show details"))
        self.toggle.setToolTip(self.tr("Show what this call does and what it printed"))
        self.toggle.toggled.connect(self._on_toggled)
        self.toggle.hide()
        self._on_toggled(False)
        self._layout = _LineLayout(self, yielding=(self.outcome, self.title))
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(8)
        for widget in (self.title, self.added, self.removed):
            self._layout.addWidget(widget)
        self._layout.addStretch(1)
        for right in (self.outcome, self.when, self.run_status, self.toggle):
            self._layout.addWidget(right)

    def _label(self, role: str, text: str) -> QLabel:
        label = QLabel(text, self)
        label.setTextFormat(Qt.TextFormat.PlainText)
        set_role(label, role, polished=False)
        label.setVisible(bool(text))
        return label

    def insert(self, widget: QWidget) -> None:
        """Add a widget right after the sentence's counts (e.g. "Tab to review", "1 of 2")."""
        self._layout.insertWidget(self._layout.indexOf(self.outcome) - 1, widget)

    def set_outcome(self, text: str, at: float | None = None, *, tone: str = "") -> None:
        """Who decided (or "Approving…"), and when (local ``HH:MM``) if ``at`` is given.

        ``tone="warning"`` shows the text in the warning colour (a tool run without asking).
        """
        if tone != (self.outcome.property("tone") or ""):
            set_role(self.outcome, "muted", tone=tone)
        self.outcome.setText(text)
        self.outcome.setToolTip(text)
        self.outcome.setVisible(bool(text))
        self.when.setText(f"· {clock(at)}" if at is not None else "")
        self.when.setVisible(at is not None)

    def set_run_status(self, text: str, status: str) -> None:
        """How the call ran ("running", "succeeded", "failed"); "" hides it."""
        self.run_status.setText(text)
        self.run_status.setVisible(bool(text))
        set_role(self.run_status, "status", status=status)

    def set_expandable(self, expandable: bool) -> None:
        """Show the disclosure toggle (there is something one click away)."""
        self.toggle.setVisible(expandable)

    def _on_toggled(self, shown: bool) -> None:
        self.toggle.setText(self.tr("Hide ▾") if shown else self.tr("Details ▸"))
        self.expanded.emit(shown)
