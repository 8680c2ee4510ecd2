"""The body of an approval card: exactly what a tool call will do, shown before approval.

Edits show the host-computed diff (a new file as all added lines), commands the full command
line, anything else the arguments as formatted JSON behind an "Arguments ▸" toggle (collapsed:
the card's title already says what the call does). The path and the working directory are in
the card's title only, so the body does not repeat them; paths outside the workspace get a red
flag above the body.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QTextOption
from PySide6.QtWidgets import QFrame, QLabel, QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from desktop.core.events import ToolPreview, ToolRequested
from desktop.ui.diff import DiffView
from desktop.ui.theme import set_role

#: Rows of a diff shown inside a card before it scrolls.
DIFF_VISIBLE_LINES = 18
#: Rows of a command or JSON body shown before it scrolls.
TEXT_VISIBLE_LINES = 14


def preview_of(event: ToolRequested) -> ToolPreview:
    """The event's preview, or a JSON preview of its arguments when the host sent none."""
    if event.preview is not None:
        return event.preview
    text = json.dumps(event.args, indent=2, ensure_ascii=False, sort_keys=True, default=str)
    return ToolPreview(kind="json", text=text)


def text_box(text: str, accessible_name: str, parent: QWidget | None = None) -> QPlainTextEdit:
    """A read-only monospace box as tall as its text, up to ``TEXT_VISIBLE_LINES`` rows."""
    box = QPlainTextEdit(parent)
    box.setReadOnly(True)
    box.setUndoRedoEnabled(False)
    box.setTabChangesFocus(True)
    box.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
    box.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    box.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    box.setFrameShape(QFrame.Shape.StyledPanel)
    box.setAccessibleName(accessible_name)
    box.setPlainText(text)
    lines = min(TEXT_VISIBLE_LINES, max(1, text.rstrip("\n").count("\n") + 1))
    box.setFixedHeight((lines + 1) * box.fontMetrics().lineSpacing() + 8)
    return box


class PreviewBody(QWidget):
    """What will happen: a warning for outside paths, then a diff, command or JSON view."""

    def __init__(self, event: ToolRequested, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.preview = preview_of(event)
        self.diff_view: DiffView | None = None
        self.text_box: QPlainTextEdit | None = None
        self.args_toggle: QToolButton | None = None
        self.warning = QLabel(self)
        self.warning.setObjectName("outsideWorkspaceWarning")
        set_role(self.warning, "outsideWarning", polished=False)
        self.warning.setWordWrap(True)
        self.warning.setTextFormat(Qt.TextFormat.PlainText)
        self.warning.setAccessibleName(self.tr("Warning: outside the workspace"))
        self.details = QLabel(self)
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.PlainText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        set_role(self.details, "muted", polished=False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.warning)
        layout.addWidget(self.details)
        self._fill(layout)

    def _fill(self, layout: QVBoxLayout) -> None:
        preview = self.preview
        self.warning.setVisible(preview.outside_workspace)
        if preview.outside_workspace:
            self.warning.setText(
                self.tr("⚠ Runs outside the workspace") if preview.kind == "command"
                else self.tr("⚠ Outside the workspace"))  # fmt: skip
            self.warning.setToolTip("\n".join(filter(None, [preview.cwd, *preview.paths])))
        if preview.kind == "diff":
            self._fill_diff(layout)
        elif preview.kind == "command":
            self.text_box = text_box(preview.text, self.tr("Command line"), self)
            layout.addWidget(self.text_box)
        else:
            self._fill_json(layout)
        self.details.setVisible(bool(self.details.text()))

    def _fill_diff(self, layout: QVBoxLayout) -> None:
        preview = self.preview
        if preview.new_file and not preview.text.strip():
            self.details.setText(self.tr("Creates an empty file."))
            return
        self.diff_view = DiffView(self)
        self.diff_view.set_max_visible_lines(DIFF_VISIBLE_LINES)
        self.diff_view.set_diff(preview.text, file_header=False)
        # The card's title names the file and counts the lines; the diff's own summary
        # ("path +12 −3") would say it a second time.
        summary = self.diff_view.findChild(QLabel)
        if summary is not None:
            summary.clear()  # kept (empty): it holds the layout toggle to the right
            summary.setToolTip("")
        layout.addWidget(self.diff_view)

    def _fill_json(self, layout: QVBoxLayout) -> None:
        text = self.preview.text
        note, _, rest = text.partition("\n") if text.startswith("(") else ("", "", text)
        self.details.setText(note.strip("()").capitalize() + "." if note else "")
        if rest.strip() in ("", "{}"):
            return
        self.text_box = text_box(rest, self.tr("Tool arguments"), self)
        self.text_box.hide()
        self.args_toggle = QToolButton(self)
        self.args_toggle.setCheckable(True)
        self.args_toggle.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.args_toggle.setAccessibleName(self.tr("Show the tool's arguments"))
        self.args_toggle.setText(self.tr("Arguments ▸"))
        self.args_toggle.toggled.connect(self._on_args_toggled)
        layout.addWidget(self.args_toggle, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.text_box)

    def _on_args_toggled(self, shown: bool) -> None:
        assert self.text_box is not None and self.args_toggle is not None
        self.text_box.setVisible(shown)
        self.args_toggle.setText(self.tr("Arguments ▾") if shown else self.tr("Arguments ▸"))

    def has_content(self) -> bool:
        """Whether there is anything to show beyond the card's title."""
        return bool(self.diff_view or self.text_box or self.details.text() or self.warning.text())

    def scroll_pages(self, pages: int) -> None:
        """Scroll the diff or text by whole pages (negative: up)."""
        if self.diff_view is not None:
            self.diff_view.scroll_pages(pages)
        elif self.text_box is not None:
            bar = self.text_box.verticalScrollBar()
            bar.setValue(bar.value() + pages * bar.pageStep())
