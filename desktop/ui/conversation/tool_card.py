"""One tool call as a card: name, category, argument summary, status, approval, output."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.approvals import ApprovalCard, describe_decision
from desktop.ui.conversation.items import ElidedLabel, set_role, text_label
from desktop.ui.conversation.model import ToolItem, ToolStatus
from desktop.ui.diff import DiffView

#: Rows of a finished tool's diff shown before it scrolls inside itself.
OUTPUT_DIFF_LINES = 24


def summarize_args(name: str, args: dict[str, Any], limit: int = 110) -> str:
    """One line that says what the call does: a path, a command, or compact JSON."""
    for key in ("command", "cmd"):
        if isinstance(args.get(key), str):
            text = str(args[key])
            break
    else:
        path = args.get("file_path") or args.get("path")
        if isinstance(path, str):
            text = path
        else:
            text = json.dumps(args, ensure_ascii=False, separators=(", ", ": "))
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ToolCard(QFrame):
    """A tool call card.

    Signals:
        decided(str, str, str): the user decided a pending call (call id, decision, reason).
    """

    decided = Signal(str, str, str)

    def __init__(self, item: ToolItem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.item = item
        request = item.request
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 9, 12, 9)
        layout.setSpacing(6)
        header = QHBoxLayout()
        header.setSpacing(8)
        name = QLabel(request.name)
        set_role(name, "toolName")
        header.addWidget(name)
        chip = QLabel(str(request.category))
        set_role(chip, "chip")
        header.addWidget(chip)
        self.summary = ElidedLabel(summarize_args(request.name, request.args))
        set_role(self.summary, "muted")
        self.summary.setToolTip(request.description or self.summary.text())
        header.addWidget(self.summary, 1)
        self.status = QLabel()
        header.addWidget(self.status)
        self.expand = QToolButton()
        self.expand.setCheckable(True)
        self.expand.setText("Output ▸")
        self.expand.setAccessibleName("Show tool output")
        self.expand.setVisible(False)
        self.expand.toggled.connect(self._on_expand)
        header.addWidget(self.expand)
        layout.addLayout(header)
        self.approval: ApprovalCard | None = None
        if item.status == ToolStatus.WAITING:
            self.approval = ApprovalCard(request)
            self.approval.decided.connect(self.decided)
            layout.addWidget(self.approval)
        self.decision = text_label(role="muted")
        self.decision.setVisible(False)
        layout.addWidget(self.decision)
        self.output: QWidget | None = None
        self._layout = layout
        self.setAccessibleName(f"Tool {request.name}")
        self.refresh()

    def _on_expand(self, shown: bool) -> None:
        if self.output is not None:
            self.output.setVisible(shown)
        self.expand.setText("Output ▾" if shown else "Output ▸")

    def _show_output(self) -> None:
        result = self.item.result
        if result is None or self.output is not None:
            return
        if result.output_type == "diff" or result.diff:
            view = DiffView()
            view.set_max_visible_lines(OUTPUT_DIFF_LINES)  # a long diff scrolls inside itself
            view.set_diff(result.diff or result.output)
            self.output = view
            shown = True
        else:
            text = QPlainTextEdit()
            text.setReadOnly(True)
            text.setPlainText(result.output)
            text.setMaximumHeight(260)
            set_role(text, "output")
            self.output = text
            shown = result.status == "error"
        self._layout.addWidget(self.output)
        self.expand.setVisible(bool(result.output or result.diff))
        self.expand.setChecked(shown)
        self.output.setVisible(shown)

    def _approval_pending(self) -> bool:
        return self.approval is not None and self.approval.is_pending()

    def refresh(self) -> None:
        """Follow the item's status, decision and result."""
        item = self.item
        status = item.status.value
        if item.status == ToolStatus.CANCELLED and item.cancel_reason:
            status = f"cancelled: {item.cancel_reason}"
        self.status.setText(status)
        set_role(self.status, "status", status=item.status.value)
        set_role(self, "card", status=item.status.value)
        if item.decision is not None:
            if self.approval is not None:
                self.approval.mark_resolved(item.decision)
            else:
                self.decision.setText(describe_decision(item.decision, item.request.category))
                self.decision.setVisible(True)
        elif item.status == ToolStatus.CANCELLED and self._approval_pending():
            assert self.approval is not None
            self.approval.mark_cancelled(item.cancel_reason or "")
        self._show_output()
