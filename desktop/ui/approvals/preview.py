"""The body of an approval card: exactly what a tool call will do, shown before approval.

Edits show the host-computed diff (a new file as all added lines), commands the full command
line and its working directory, anything else the arguments as formatted JSON. Paths outside
the workspace get a red warning above the body.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QTextOption
from PySide6.QtWidgets import QFrame, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from desktop.core.events import ToolPreview, ToolRequested
from desktop.ui.diff import DiffView

#: Rows of a diff shown inside a card before it scrolls.
DIFF_VISIBLE_LINES = 18
#: Rows of a command or JSON body shown before it scrolls.
TEXT_VISIBLE_LINES = 14
WARNING_STYLE = "color: #e5383b; font-weight: bold;"


def preview_of(event: ToolRequested) -> ToolPreview:
    """The event's preview, or a JSON preview of its arguments when the host sent none."""
    if event.preview is not None:
        return event.preview
    text = json.dumps(event.args, indent=2, ensure_ascii=False, sort_keys=True, default=str)
    return ToolPreview(kind="json", text=text)


def _text_box(text: str, accessible_name: str, parent: QWidget) -> QPlainTextEdit:
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
    lines = min(TEXT_VISIBLE_LINES, max(1, text.count("\n") + 1))
    box.setFixedHeight((lines + 1) * box.fontMetrics().lineSpacing() + 8)
    return box


class PreviewBody(QWidget):
    """What will happen: a warning for outside paths, then a diff, command or JSON view."""

    def __init__(self, event: ToolRequested, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.preview = preview_of(event)
        self.diff_view: DiffView | None = None
        self.text_box: QPlainTextEdit | None = None
        self.warning = QLabel(self)
        self.warning.setObjectName("outsideWorkspaceWarning")
        self.warning.setStyleSheet(WARNING_STYLE)
        self.warning.setWordWrap(True)
        self.warning.setTextFormat(Qt.TextFormat.PlainText)
        self.warning.setAccessibleName(self.tr("Warning: outside the workspace"))
        self.details = QLabel(self)
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.PlainText)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.warning)
        layout.addWidget(self.details)
        self._fill(layout)

    def _targets(self) -> list[str]:
        preview = self.preview
        if preview.kind == "command" and preview.cwd:
            return [preview.cwd, *preview.paths]
        return list(preview.paths)

    def _fill(self, layout: QVBoxLayout) -> None:
        preview = self.preview
        targets = self._targets()
        self.warning.setVisible(preview.outside_workspace)
        if preview.outside_workspace:
            where = "\n".join(targets) if targets else self.tr("(path not given)")
            self.warning.setText(self.tr("⚠ Outside the workspace:\n{paths}").format(paths=where))
        if preview.kind == "diff":
            self._fill_diff(layout)
        elif preview.kind == "command":
            cwd = preview.cwd or self.tr("(the agent's working directory)")
            self.details.setText(self.tr("Runs in: {cwd}").format(cwd=cwd))
            self.text_box = _text_box(preview.text, self.tr("Command line"), self)
            layout.addWidget(self.text_box)
        else:
            files = "\n".join(preview.paths)
            self.details.setText(self.tr("File: {path}").format(path=files) if files else "")
            self.text_box = _text_box(preview.text, self.tr("Tool arguments"), self)
            layout.addWidget(self.text_box)
        self.details.setVisible(bool(self.details.text()))

    def _fill_diff(self, layout: QVBoxLayout) -> None:
        preview = self.preview
        path = ", ".join(preview.paths)
        if preview.new_file:
            self.details.setText(self.tr("Creates a new file: {path}").format(path=path))
            if not preview.text.strip():
                self.details.setText(self.tr("Creates an empty file: {path}").format(path=path))
                return
        else:
            self.details.setText(self.tr("Changes: {path}").format(path=path) if path else "")
        self.diff_view = DiffView(self)
        self.diff_view.set_max_visible_lines(DIFF_VISIBLE_LINES)
        self.diff_view.set_diff(preview.text)
        layout.addWidget(self.diff_view)

    def scroll_pages(self, pages: int) -> None:
        """Scroll the diff or text by whole pages (negative: up)."""
        if self.diff_view is not None:
            self.diff_view.scroll_pages(pages)
        elif self.text_box is not None:
            bar = self.text_box.verticalScrollBar()
            bar.setValue(bar.value() + pages * bar.pageStep())
