"""The agent's plan as a live checklist pinned above the composer.

ACP and Codex agents send their plan whole each time it changes (``PlanUpdated``); this strip
shows it: one header line ("Plan · 2 of 5 done · Running the tests") that opens or closes the
list of steps (a check for a completed step, a dot for the one in progress, a ring for those
waiting). It opens when a plan first arrives, closes to its header when the turn ends (the last
plan stays readable until the next prompt), and goes away when a new turn starts without one.
The plan is also kept in the transcript and history (``desktop.core.entries.PlanItem``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from desktop.core.events import PlanStatus, PlanStep
from desktop.core.plans import progress
from desktop.ui import theme

#: The mark of each status (drawn in the status's colour by the style sheet).
MARKS = {PlanStatus.COMPLETED: "✓", PlanStatus.IN_PROGRESS: "●", PlanStatus.PENDING: "○"}
#: Steps listed; the rest are summed up in one line ("and 3 more steps").
MAX_STEPS = 12

_SHEET = """
QFrame#planView {{ background: {surface}; border-top: 1px solid {border}; }}
QToolButton#planHeader {{ border: none; background: transparent; font-weight: 600;
    padding: 2px 4px; text-align: left; }}
QToolButton#planHeader:focus {{ color: {accent}; }}
QLabel[planMark="completed"] {{ color: {success}; font-weight: 700; }}
QLabel[planMark="in_progress"] {{ color: {accent}; }}
QLabel[planMark="pending"] {{ color: {muted}; }}
QLabel[planStep="completed"] {{ color: {muted}; }}
QLabel[planStep="in_progress"] {{ color: {text}; font-weight: 600; }}
QLabel[planStep="pending"] {{ color: {text}; }}
QLabel#planMore, QLabel#planExplanation {{ color: {muted}; }}
"""


class PlanView(QFrame):
    """The live checklist of the running turn (hidden while there is no plan)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("planView")
        theme.follow(self, _SHEET)
        self.steps: list[PlanStep] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 6, 14, 8)
        layout.setSpacing(4)
        self.header = QToolButton(self)
        self.header.setObjectName("planHeader")
        self.header.setCheckable(True)
        self.header.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.header.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.header.setCursor(Qt.CursorShape.PointingHandCursor)
        self.header.toggled.connect(self._on_toggled)
        layout.addWidget(self.header)
        self.explanation = QLabel(self)
        self.explanation.setObjectName("planExplanation")
        self.explanation.setWordWrap(True)
        layout.addWidget(self.explanation)
        self.body = QWidget(self)
        self._grid = QGridLayout(self.body)
        self._grid.setContentsMargins(8, 0, 0, 0)
        self._grid.setHorizontalSpacing(8)
        self._grid.setVerticalSpacing(3)
        self._grid.setColumnStretch(1, 1)
        layout.addWidget(self.body)
        self.hide()

    # ------------------------------------------------------------------ what it shows
    def show_plan(self, steps: list[PlanStep], explanation: str | None = None) -> None:
        """Show the plan (whole); the first plan of a turn opens the list."""
        first = not self.steps
        self.steps = list(steps)
        if not self.steps:
            self.clear()
            return
        self.explanation.setText(explanation or "")
        self._fill()
        self.setVisible(True)
        if first:
            self.header.setChecked(True)
        self._on_toggled(self.header.isChecked())

    def collapse(self) -> None:
        """The turn ended: keep only the header line."""
        self.header.setChecked(False)

    def clear(self) -> None:
        """No plan (a new turn started)."""
        self.steps = []
        self.hide()

    def is_open(self) -> bool:
        """Whether the steps are shown."""
        return self.isVisible() and self.body.isVisible()

    def summary(self) -> str:
        """The header line: "Plan · 2 of 5 done · Running the tests"."""
        done, total = progress(self.steps)
        text = self.tr("Plan · {done} of {total} done").format(done=done, total=total)
        current = next((s for s in self.steps if s.status == PlanStatus.IN_PROGRESS), None)
        if current is not None and not self.header.isChecked():
            text += f" · {current.content}"
        return text

    # ------------------------------------------------------------------ internals
    def _fill(self) -> None:
        while self._grid.count():
            item = self._grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        for row, step in enumerate(self.steps[:MAX_STEPS]):
            mark = QLabel(MARKS[step.status], self.body)
            mark.setProperty("planMark", step.status.value)
            mark.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
            text = QLabel(step.content, self.body)
            text.setWordWrap(True)
            text.setProperty("planStep", step.status.value)
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            text.setAccessibleName(f"{self._status_words(step.status)}: {step.content}")
            self._grid.addWidget(mark, row, 0)
            self._grid.addWidget(text, row, 1)
        hidden = len(self.steps) - MAX_STEPS
        if hidden > 0:
            more = QLabel(self.tr("and {n} more steps").format(n=hidden), self.body)
            more.setObjectName("planMore")
            self._grid.addWidget(more, MAX_STEPS, 1)

    def _status_words(self, status: PlanStatus) -> str:
        words = {
            PlanStatus.COMPLETED: self.tr("done"),
            PlanStatus.IN_PROGRESS: self.tr("in progress"),
            PlanStatus.PENDING: self.tr("to do"),
        }
        return words[status]

    def _on_toggled(self, shown: bool) -> None:
        self.body.setVisible(shown)
        self.explanation.setVisible(shown and bool(self.explanation.text()))
        arrow = Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow
        self.header.setArrowType(arrow)
        self.header.setText(self.summary())
        done, total = progress(self.steps)
        self.header.setAccessibleName(
            self.tr("Plan: {done} of {total} steps done").format(done=done, total=total)
        )
        self.header.setToolTip(self.tr("Show or hide the agent's plan"))
