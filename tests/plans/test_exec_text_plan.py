"""``agentdesk exec`` without ``--json`` says each plan update in one line on stderr."""

from __future__ import annotations

import io

from desktop.cli.exec_output import TextPrinter
from desktop.core.plans import acp_plan


def test_a_plan_is_one_line_with_a_mark_per_step() -> None:
    out, err = io.StringIO(), io.StringIO()
    printer = TextPrinter(out, err, redact=lambda text: text)
    update = {
        "entries": [
            {"content": "read", "status": "completed"},
            {"content": "edit", "status": "in_progress", "priority": "high"},
            {"content": "test", "status": "pending"},
            {"content": "   ", "status": "pending"},  # no text: left out
            {"content": "odd", "status": "blocked"},  # an unknown status counts as waiting
        ]
    }
    printer(acp_plan(update, "t1"))
    assert err.getvalue() == "· plan: ✓ read  ● edit  ○ test  ○ odd\n" and out.getvalue() == ""
