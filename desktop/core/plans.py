"""Agents' plans on the wire → one typed ``PlanUpdated`` event.

ACP sends ``session/update`` ``plan`` with ``entries`` ({content, status, priority}); Codex sends
``turn/plan/updated`` with ``plan`` ({step, status: pending | inProgress | completed}) and an
optional ``explanation``. Both replace the whole plan each time. The adapters map them here, so
the window's checklist, the transcript and the history see one shape; a step with an unknown
status counts as pending and one without text is dropped (never an error).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from desktop.core.events import PlanPriority, PlanStatus, PlanStep, PlanUpdated

_STATUS = {
    "pending": PlanStatus.PENDING,
    "in_progress": PlanStatus.IN_PROGRESS,
    "inProgress": PlanStatus.IN_PROGRESS,
    "completed": PlanStatus.COMPLETED,
}
_PRIORITY = {p.value: p for p in PlanPriority}


def _steps(raw: Iterable[Any], text_key: str) -> list[PlanStep]:
    steps = []
    for entry in raw:
        if not isinstance(entry, dict):
            continue
        content = entry.get(text_key)
        if not isinstance(content, str) or not content.strip():
            continue
        status = _STATUS.get(str(entry.get("status")), PlanStatus.PENDING)
        priority = _PRIORITY.get(str(entry.get("priority")))
        steps.append(PlanStep(content=content.strip(), status=status, priority=priority))
    return steps


def acp_plan(update: dict[str, Any], turn_id: str | None) -> PlanUpdated:
    """The plan of an ACP ``session/update`` of kind ``plan``."""
    entries = update.get("entries")
    raw = entries if isinstance(entries, list) else []
    return PlanUpdated(turn_id=turn_id, entries=_steps(raw, "content"))


def codex_plan(params: dict[str, Any]) -> PlanUpdated | None:
    """The plan of a Codex ``turn/plan/updated`` (None when it carries no plan list)."""
    plan = params.get("plan")
    if not isinstance(plan, list):
        return None
    explanation = params.get("explanation")
    return PlanUpdated(
        entries=_steps(plan, "step"),
        explanation=explanation if isinstance(explanation, str) and explanation else None,
    )


def progress(steps: Iterable[PlanStep]) -> tuple[int, int]:
    """How many steps are completed, of how many."""
    listed = list(steps)
    return sum(step.status == PlanStatus.COMPLETED for step in listed), len(listed)
