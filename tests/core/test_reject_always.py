""" "Deny always" through a real ACP agent process: the host keeps a deny rule, the agent is
answered reject-once, later matching requests are denied by the rule, and the rule is revocable."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from desktop.core.approvals import ApprovalBook, Verdict
from desktop.core.backend import Prompt
from desktop.core.events import (
    ApprovalMode,
    Decision,
    DecisionSource,
    RulesChanged,
    SessionEvent,
    ToolCategory,
    ToolDecided,
    ToolRequested,
)
from desktop.core.protocols.acp.adapter import AcpBackend, AcpLaunch
from desktop.core.session import Session

PEER = Path(__file__).parents[1] / "fakes" / "fake_acp_peer.py"


@pytest.mark.asyncio
async def test_deny_always_makes_a_host_deny_rule_and_answers_the_agent_once(
    tmp_path: Path,
) -> None:
    log = tmp_path / "peer.log"
    spec = AcpLaunch(
        [sys.executable, str(PEER)],
        tmp_path,
        {"PATH": "/usr/bin:/bin", "FAKE_PEER_LOG": str(log)},
        name="fake-acp",
    )
    session = Session(lambda rid: AcpBackend(spec, resume_id=rid), workspace=tmp_path)
    events: list[SessionEvent] = []

    def on(event: SessionEvent) -> None:
        events.append(event)
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, Decision.REJECT_ALWAYS)

    session.subscribe(on)
    await session.start()
    session.submit(Prompt("go"))
    await asyncio.wait_for(session.wait_idle(), 10)

    asked = [e for e in events if isinstance(e, ToolRequested) and e.pending]
    assert [e.name for e in asked] == ["Write a.txt"], "the later edit is not asked about"
    assert asked[0].offers_reject_always  # the agent's options have "reject_always"
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    answers = {m["id"]: m for m in sent if "method" not in m}
    # The agent is answered one-off: the rule is the host's, so revoking it takes effect.
    assert answers[100]["result"]["outcome"] == {"outcome": "selected", "optionId": "no"}
    (rules,) = [e.rules for e in events if isinstance(e, RulesChanged)]
    assert [(r.id, r.category, r.denies) for r in rules] == [("deny:edit", ToolCategory.EDIT, True)]
    decided = {e.call_id: e for e in events if isinstance(e, ToolDecided)}
    assert decided[asked[0].call_id].decision == Decision.REJECT_ALWAYS
    write = next(e for e in decided.values() if e.call_id.startswith("fs-write"))
    assert (write.decision, write.source, write.source_name) == (
        Decision.DENY,
        DecisionSource.ALWAYS_RULE,
        "deny:edit",
    )
    assert "error" in answers[101] and not (tmp_path / "written.txt").exists()

    assert session.revoke_rule("deny:edit")
    assert session.approvals.rules == [] and isinstance(events[-1], RulesChanged)
    await session.close()


@pytest.mark.asyncio
async def test_a_deny_rule_wins_over_the_mode_and_keeps_the_agent_asking() -> None:
    book = ApprovalBook(ApprovalMode.YOLO)
    edit = ToolRequested(call_id="c1", name="Edit", category=ToolCategory.EDIT)
    book.open(edit)
    book.resolve("c1", Verdict(Decision.REJECT_ALWAYS, DecisionSource.USER))
    later = edit.model_copy(update={"call_id": "c2"})
    assert book.automatic(later) == Verdict(Decision.DENY, DecisionSource.ALWAYS_RULE, "deny:edit")
    shell = ToolRequested(call_id="c3", name="Bash", category=ToolCategory.EXEC)
    assert book.automatic(shell) == Verdict(Decision.ONCE, DecisionSource.MODE, "yolo")
    assert book.denies_any
    book.revoke("deny:edit")
    assert book.automatic(later) == Verdict(Decision.ONCE, DecisionSource.MODE, "yolo")
