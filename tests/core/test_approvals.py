"""Host-side approval rules: modes, always-rules, policies, exactly-once resolution."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from desktop.core.approvals import ApprovalBook, DecideResult, Verdict, call_target, rule_for
from desktop.core.backend import Prompt
from desktop.core.events import (
    AlwaysRule,
    ApprovalMode,
    Decision,
    DecisionSource,
    RulesChanged,
    ToolCategory,
    ToolDecided,
    ToolRequested,
    parse_event,
)
from desktop.core.session import Session
from tests.core.scripted import ScriptedBackend
from tests.core.support import Recorder, make_session


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


def test_screens_see_every_request_first_and_may_only_deny() -> None:
    book = ApprovalBook(ApprovalMode.YOLO)
    seen: list[str] = []

    def deny_exec(r: ToolRequested) -> Verdict | None:
        seen.append(r.call_id)
        if r.category == ToolCategory.EXEC:
            return Verdict(Decision.DENY, DecisionSource.POLICY, reason="denied")
        return None

    book.screens.append(("deny_list", deny_exec))
    book.screens.append(("liar", lambda r: Verdict(Decision.ONCE, DecisionSource.POLICY)))
    verdict = book.automatic(request("c", ToolCategory.EXEC))
    assert verdict == Verdict(Decision.DENY, DecisionSource.POLICY, "deny_list", "denied")
    # An "approve" from a screen is ignored: the mode approves, not the screen.
    verdict = book.automatic(request("d", ToolCategory.EDIT))
    assert verdict is not None and verdict.source == DecisionSource.MODE
    assert seen == ["c", "d"]


@pytest.mark.asyncio
async def test_always_makes_a_rule_that_says_what_when_and_from_which_call() -> None:
    book = ApprovalBook()
    bash = ToolRequested(call_id="c1", name="Bash", category=ToolCategory.EXEC,
                         args={"command": "make   all"})  # fmt: skip
    book.open(bash)
    before = time.time()
    book.resolve("c1", Verdict(Decision.ALWAYS, DecisionSource.USER))
    [rule] = book.rules
    assert (rule.id, rule.category, rule.label) == ("exec", ToolCategory.EXEC, "shell commands")
    assert rule.made_from == "Bash `make all`"
    assert before <= rule.created_at <= time.time()
    # a second "always" for the same category keeps the first rule (when and from which call)
    book.open(request("c2", ToolCategory.EXEC))
    book.resolve("c2", Verdict(Decision.ALWAYS, DecisionSource.USER))
    assert book.rules == [rule]
    book.open(request("c3", ToolCategory.EDIT))
    book.resolve("c3", Verdict(Decision.ALWAYS, DecisionSource.USER))
    assert [r.label for r in book.rules] == ["shell commands", "file edits"]


@pytest.mark.asyncio
async def test_a_revoked_rule_asks_again_and_a_pending_request_is_unaffected() -> None:
    book = ApprovalBook()
    book.open(request("c1", ToolCategory.EXEC))
    book.resolve("c1", Verdict(Decision.ALWAYS, DecisionSource.USER))
    book.open(request("waiting", ToolCategory.MCP))
    assert book.automatic(request("c2", ToolCategory.EXEC)) is not None
    assert book.revoke("exec") is not None
    assert book.revoke("exec") is None
    assert book.rules == []
    assert book.automatic(request("c3", ToolCategory.EXEC)) is None
    assert book.is_pending("waiting")


def test_the_call_a_rule_came_from_is_short() -> None:
    long = ToolRequested(call_id="c", name="Bash", category=ToolCategory.EXEC,
                         args={"command": "echo " + "x" * 200})  # fmt: skip
    assert call_target(long).startswith("Bash `echo xx") and call_target(long).endswith("…`")
    assert len(call_target(long)) < 52
    write = ToolRequested(call_id="c", name="Write", category=ToolCategory.EDIT,
                          args={"file_path": "src/util.py", "content": "x"})  # fmt: skip
    assert call_target(write) == "Write `src/util.py`"
    assert call_target(request("c", ToolCategory.MCP)) == "T"
    rule = rule_for(write, now=1_700_000_000.0)
    assert parse_event(RulesChanged(rules=[rule]).model_dump_json()) == RulesChanged(rules=[rule])


@pytest.mark.asyncio
async def test_session_publishes_rules_on_always_and_on_revoke_and_asks_again(
    tmp_path: Path,
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()

    def bash(command: str) -> dict[str, object]:
        return {"tool": {"name": "Bash", "args": {"command": command}}}

    turns = [[bash("touch one")], [bash("touch two")], [bash("touch three")]]
    # aionrs 0.2 ignores "scope: always", so every later request reaches the host
    session, rec = make_session(workspace, "aionrs-0.2", {"turns": turns})
    await session.start()
    session.submit(Prompt("1"))
    first = await rec.wait_for(ToolRequested, lambda e: e.pending)
    session.decide(first.call_id, Decision.ALWAYS)
    changed = await rec.wait_for(RulesChanged)
    assert [(r.id, r.label, r.made_from) for r in changed.rules] == [
        ("exec", "shell commands", f"{first.name} `touch one`")  # aionrs 0.2: ExecCommand
    ]
    assert rec.types().index("tool_decided") < rec.types().index("rules_changed")
    await session.wait_idle()

    session.submit(Prompt("2"))
    await session.wait_idle()
    auto = rec.of(ToolDecided)[-1]
    assert (auto.source, auto.source_name) == (DecisionSource.ALWAYS_RULE, changed.rules[0].id)
    assert (workspace / "two").exists()

    assert session.revoke_rule("exec") is True
    assert rec.of(RulesChanged)[-1].rules == []
    assert session.revoke_rule("exec") is False
    assert len(rec.of(RulesChanged)) == 2  # nothing published for a rule that is not there

    session.submit(Prompt("3"))
    third = await rec.wait_for(ToolRequested, lambda e: e.pending and "three" in str(e.args))
    assert session.approvals.is_pending(third.call_id)  # asked again
    session.decide(third.call_id, Decision.ONCE)
    await session.wait_idle()
    assert len(rec.of(RulesChanged)) == 2  # "once" makes no rule
    await session.close()


@pytest.mark.asyncio
async def test_revoke_all_publishes_once(tmp_path: Path) -> None:
    book_rules = [AlwaysRule(id=c.value, category=c, label=c.value, created_at=1.0)
                  for c in (ToolCategory.EXEC, ToolCategory.EDIT)]  # fmt: skip
    session = Session(lambda _resume: ScriptedBackend(), workspace=tmp_path)
    rec = Recorder()  # never started: rules are host-side
    session.subscribe(rec)
    for rule in book_rules:
        session.approvals.add_rule(rule)
    assert session.revoke_all_rules() == 2
    assert rec.of(RulesChanged) == [RulesChanged(rules=[])]
    assert session.revoke_all_rules() == 0
    assert len(rec.of(RulesChanged)) == 1
