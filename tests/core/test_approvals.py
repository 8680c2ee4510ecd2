"""Host-side approval rules: modes, always-rules, policies, exactly-once resolution."""

from __future__ import annotations

import pytest

from desktop.core.approvals import ApprovalBook, DecideResult, Verdict
from desktop.core.events import ApprovalMode, Decision, DecisionSource, ToolCategory, ToolRequested


def request(call_id: str, category: ToolCategory) -> ToolRequested:
    return ToolRequested(call_id=call_id, name="T", category=category)


@pytest.mark.parametrize(
    ("mode", "category", "automatic"),
    [
        (ApprovalMode.DEFAULT, ToolCategory.INFO, False),
        (ApprovalMode.DEFAULT, ToolCategory.EXEC, False),
        (ApprovalMode.AUTO_EDIT, ToolCategory.INFO, True),
        (ApprovalMode.AUTO_EDIT, ToolCategory.EDIT, True),
        (ApprovalMode.AUTO_EDIT, ToolCategory.EXEC, False),
        (ApprovalMode.AUTO_EDIT, ToolCategory.MCP, False),
        (ApprovalMode.YOLO, ToolCategory.EXEC, True),
        (ApprovalMode.YOLO, ToolCategory.MCP, True),
    ],
)
def test_modes(mode: ApprovalMode, category: ToolCategory, automatic: bool) -> None:
    verdict = ApprovalBook(mode).automatic(request("c", category))
    assert (verdict is not None) is automatic
    if verdict:
        assert verdict.source == DecisionSource.MODE


@pytest.mark.asyncio
async def test_always_rule_is_per_category_and_only_from_a_decision() -> None:
    book = ApprovalBook()
    book.open(request("c1", ToolCategory.EDIT))
    assert book.automatic(request("c2", ToolCategory.EDIT)) is None
    assert book.resolve("c1", Verdict(Decision.ALWAYS, DecisionSource.USER)) == "accepted"
    verdict = book.automatic(request("c3", ToolCategory.EDIT))
    assert verdict == Verdict(Decision.ONCE, DecisionSource.ALWAYS_RULE, "edit")
    assert book.automatic(request("c4", ToolCategory.EXEC)) is None


@pytest.mark.asyncio
async def test_first_decision_wins() -> None:
    book = ApprovalBook()
    pending = book.open(request("c1", ToolCategory.EXEC))
    assert book.resolve("c1", Verdict(Decision.DENY, DecisionSource.EXTENSION, "x")) == (
        DecideResult.ACCEPTED
    )
    assert book.resolve("c1", Verdict(Decision.ONCE, DecisionSource.USER)) == (
        DecideResult.ALREADY_RESOLVED
    )
    assert book.resolve("nope", Verdict(Decision.ONCE, DecisionSource.USER)) == (
        DecideResult.UNKNOWN
    )
    assert pending.future.result().decision == Decision.DENY
    assert book.pending == []


def test_policies_the_user_enabled_decide_with_their_name() -> None:
    book = ApprovalBook()
    book.policies.append(
        (
            "reads",
            lambda r: (
                Verdict(Decision.ONCE, DecisionSource.POLICY)
                if r.category == ToolCategory.INFO
                else None
            ),
        )
    )
    verdict = book.automatic(request("c", ToolCategory.INFO))
    assert verdict == Verdict(Decision.ONCE, DecisionSource.POLICY, "reads")
    assert book.automatic(request("d", ToolCategory.EDIT)) is None
