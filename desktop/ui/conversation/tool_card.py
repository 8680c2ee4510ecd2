"""One tool call as a card that says what happened, in one line once it is decided.

A call that waits for approval is an ``ApprovalCard`` (title, diff or command, buttons); once
decided that card collapses to its line. A call nobody had to approve (a mode, an always-rule,
a policy or the agent itself ran it) is the same line from the start: what ran, who allowed
it, when, how it ended; the preview and the output are one click away behind the toggle. A
finished edit has a Review button that opens its diff full-window (``review_requested``); the
output box is as tall as the output, up to ``OUTPUT_LINES`` rows. A running command's output
streams into the card as it arrives (``ToolItem.live_output``) and that box then holds the result.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from desktop.core.entries import ToolItem, ToolStatus
from desktop.ui.approvals import ApprovalCard, CardState, describe_decision
from desktop.ui.approvals.line import CardLine
from desktop.ui.approvals.preview import PreviewBody, text_box
from desktop.ui.approvals.summary import describe_unasked, tool_sentence
from desktop.ui.conversation.items import set_role
from desktop.ui.diff import DiffView
from desktop.ui.i18n import QT_TRANSLATE_NOOP
from desktop.ui.i18n.core_text import shown
from desktop.ui.icons import Icon, decorate

#: Rows of a finished tool's diff shown before it scrolls inside itself.
OUTPUT_DIFF_LINES = 24
#: Rows of a finished tool's text output shown before it scrolls inside itself.
OUTPUT_LINES = 12
#: Lines a running command's live output keeps (its end; the transcript keeps 64 KiB).
LIVE_LINES = 2000
#: What the line says about a call's run, by status ("" says nothing: the outcome says it).
#: How a call ran, in words (translated where shown, context "ToolCard").
_RUN_WORDS = {
    ToolStatus.RUNNING: QT_TRANSLATE_NOOP("ToolCard", "running…"),
    ToolStatus.SUCCEEDED: QT_TRANSLATE_NOOP("ToolCard", "succeeded"),
    ToolStatus.FAILED: QT_TRANSLATE_NOOP("ToolCard", "failed"),
    ToolStatus.CANCELLED: QT_TRANSLATE_NOOP("ToolCard", "cancelled"),
}


class _FitOutput(QObject):
    """Keeps a read-only text box as tall as its laid-out lines (wrapped ones included), up to
    ``OUTPUT_LINES``, in the font its style sheet gives it."""

    def __init__(self, box: QPlainTextEdit) -> None:
        super().__init__(box)
        self._box = box
        box.installEventFilter(self)
        box.document().documentLayout().documentSizeChanged.connect(lambda _size: self.fit())
        self.fit()

    def fit(self) -> None:
        box = self._box
        box.ensurePolished()
        lines = max(
            1, min(OUTPUT_LINES, int(box.document().documentLayout().documentSize().height()))
        )
        frame = 2 * box.frameWidth()
        margins = box.contentsMargins().top() + box.contentsMargins().bottom() - frame
        document = 2 * int(box.document().documentMargin())
        box.setFixedHeight(
            lines * box.fontMetrics().lineSpacing() + document + frame + max(0, margins) + 2
        )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange, QEvent.Type.Resize):
            self.fit()
        return False


class ToolCard(QFrame):
    """A tool call card.

    Signals:
        decided(str, str, str): the user decided a pending call (call id, decision, reason).
        review_requested(str, str): Review was pressed on a finished edit (diff, title).
    """

    decided = Signal(str, str, str)
    review_requested = Signal(str, str)

    def __init__(self, item: ToolItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        request = item.request
        layout = QVBoxLayout(self)
        self._layout = layout
        self.approval: ApprovalCard | None = None
        self.body: PreviewBody | None = None
        self.output: QWidget | None = None
        self.review: QPushButton | None = None
        #: The output streamed while it runs (``_show_live``), and how much of it was shown.
        self.live: QPlainTextEdit | None = None
        self._live_seen = 0
        #: A finished call's output, made when the card is first opened (``_show_output``).
        self._output_due = False
        self._host = ""
        if item.status == ToolStatus.WAITING:
            self.approval = ApprovalCard(request)
            self.approval.decided.connect(self.decided)
            self.line = self.approval.line
            self._host = "approval"  # the approval card draws the card (and its focus ring)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.addWidget(self.approval)
            self.details: QWidget = self.approval.details
        else:
            self.line = CardLine(tool_sentence(request), self)
            layout.setContentsMargins(12, 9, 12, 9)
            layout.setSpacing(8)
            layout.addWidget(self.line)
            self.details = QWidget(self)
            self._details_layout = QVBoxLayout(self.details)
            self._details_layout.setContentsMargins(0, 0, 0, 0)
            self.details.hide()
            layout.addWidget(self.details)
            self.line.expanded.connect(self._on_expand)
            self.line.set_expandable(bool(request.args) or request.preview is not None)
        #: Who decided, in words (the line's outcome label).
        self.decision = self.line.outcome
        self.setAccessibleName(
            QCoreApplication.translate("ToolCard", "Tool call: {what}").format(
                what=self.line.sentence.plain()
            )
        )
        self.refresh()

    def _on_expand(self, shown: bool) -> None:
        if shown and self.body is None and self.approval is None:
            # Built on first use: most auto-approved calls are never opened.
            self.body = PreviewBody(self.item.request, self.details)
            self._details_layout.insertWidget(0, self.body)
        if shown and self._output_due:
            self._output_due = False
            self._show_output(opening=True)
        self.details.setVisible(shown)

    def set_expanded(self, shown: bool) -> None:
        """Show or hide what is one click away (preview and output)."""
        self.line.toggle.setChecked(shown)
        if self.approval is not None:
            self.approval.set_expanded(shown)

    def is_expanded(self) -> bool:
        """Whether the preview and output are shown."""
        return not self.details.isHidden()

    def _show_live(self) -> None:
        """Append what the running command printed since the last frame (bounded, monospace;
        the box follows the end unless the reader scrolled up)."""
        item = self.item
        new = item.live_chars - self._live_seen
        if new <= 0 or (self.live is None and item.result is not None):
            return
        if self.live is None:
            name = QCoreApplication.translate("ToolCard", "Live output")
            self.live = text_box("", name)
            self.live.setMaximumBlockCount(LIVE_LINES)
            set_role(self.live, "output")
            _FitOutput(self.live)
            if self.approval is not None:
                self.approval.add_detail(self.live)
            else:
                self._details_layout.addWidget(self.live)
                self.line.set_expandable(True)
            self.set_expanded(True)  # a running command is watched, not hidden
        bar = self.live.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 2
        if new > len(item.live_output):  # more arrived than is kept: start from what is kept
            self.live.setPlainText(item.live_output)
        else:
            cursor = self.live.textCursor()
            cursor.movePosition(cursor.MoveOperation.End)
            cursor.insertText(item.live_output[-new:])
        self._live_seen = item.live_chars
        if at_end:
            bar.setValue(bar.maximum())

    def _show_output(self, *, opening: bool = False) -> None:
        result = self.item.result
        if result is not None and self.live is not None and self.output is None:
            if result.output and result.output != self.live.toPlainText():
                self.live.setPlainText(result.output)  # the whole output, as the agent kept it
            self.output = self.live  # the box that streamed is the output
            return
        if result is None or self.output is not None or not (result.output or result.diff):
            return
        preview = self.item.request.preview
        if preview is not None and preview.kind == "diff" and result.diff == preview.text:
            return  # the same diff as the preview above it: said once
        closed = self.approval is None and self.details.isHidden() and not opening
        if closed and result.status != "error":
            # Closed (most finished calls stay so): made when first opened, not with the card.
            self._output_due = True
            self.line.set_expandable(True)
            return
        if result.output_type == "diff" or result.diff:
            view = DiffView()
            view.set_max_visible_lines(OUTPUT_DIFF_LINES)  # a long diff scrolls inside itself
            view.set_diff(result.diff or result.output, file_header=False)  # the title names it
            self.output = view
        else:
            text = text_box(result.output, QCoreApplication.translate("ToolCard", "Tool output"))
            set_role(text, "output")
            _FitOutput(text)  # as tall as the output, up to a limit
            self.output = text
        if self.approval is not None:
            self.approval.add_detail(self.output)
        else:
            self._details_layout.addWidget(self.output)
            self.line.set_expandable(True)
        if result.status == "error":
            self.set_expanded(True)  # a failure is shown, not hidden behind a click

    def edit_diff(self) -> str | None:
        """The diff of a finished edit (None: not an edit, not finished, or no diff)."""
        item = self.item
        if item.status != ToolStatus.SUCCEEDED:
            return None
        result = item.result
        if result is not None and (result.diff or result.output_type == "diff"):
            diff = result.diff or result.output
        elif item.request.preview is not None and item.request.preview.kind == "diff":
            diff = item.request.preview.text
        else:
            return None
        return diff if diff.strip() else None

    def _show_review(self) -> None:
        if self.review is not None or self.edit_diff() is None:
            return
        self.review = QPushButton(QCoreApplication.translate("ToolCard", "Review"), self)
        self.review.setObjectName("reviewEdit")
        set_role(self.review, "reviewEdit", polished=False)
        decorate(self.review, Icon.REVIEW, role="accent", size=13)
        name = QCoreApplication.translate("ToolCard", "Review the change full-window")
        self.review.setAccessibleName(name)
        self.review.setToolTip(name)
        self.review.setCursor(Qt.CursorShape.PointingHandCursor)
        self.review.clicked.connect(self._on_review)
        self.line.insert(self.review)

    def _on_review(self) -> None:
        diff = self.edit_diff()
        if diff is not None:
            self.review_requested.emit(diff, self.line.sentence.plain())

    def refresh(self) -> None:
        """Follow the item's status, decision and result."""
        item = self.item
        status = item.status
        words = _RUN_WORDS.get(status, "")
        words = QCoreApplication.translate("ToolCard", words) if words else ""
        cancelled = shown(item.cancel_reason, item.cancel_i18n) if item.cancel_reason else ""
        if status == ToolStatus.CANCELLED and cancelled:
            words = QCoreApplication.translate("ToolCard", "cancelled: {reason}")
            words = words.format(reason=cancelled)
        self.line.set_run_status(words, status.value)
        bad = status in (ToolStatus.FAILED, ToolStatus.DENIED)
        warn = item.unasked == "warning"
        set_role(self, "card", status=status.value, host=self._host, tone="warning" if warn else "")
        if item.decision is not None:
            if self.approval is not None:
                if self.approval.state != CardState.RESOLVED:
                    self.approval.mark_resolved(item.decision, item.decided_at)
            else:
                text = describe_decision(item.decision, item.request.category)
                self.line.set_outcome(text, item.decided_at)
        elif self.approval is None and status != ToolStatus.APPROVED:
            # Ran without a request: the host says whether that was allowed (issue 14, item 5).
            text, tone = describe_unasked(item.request.category, item.unasked)
            self.line.set_outcome(text, tone=tone)
        elif status == ToolStatus.CANCELLED and self.approval and self.approval.is_pending():
            self.approval.mark_cancelled(cancelled)
        if self.approval is not None:
            set_role(self.approval, "approval", state=self.approval.state.value,
                     tone="bad" if bad else "")  # fmt: skip
        self._show_live()
        self._show_output()
        self._show_review()
