"""Property: a tool is approved only by a user decision for that very request, the mode, a rule
the user made, or a policy the user enabled (issue 14, "Proof").

Hypothesis plays a hostile agent against a real ``Session``: random sequences of tool requests
(reused call ids, lying categories, unknown and MCP tools), mode changes, user decisions
(once, always, deny, deny always, for pending ids or any other), an enabled read-only policy
and new turns.
The agent is the in-process ``ScriptedBackend`` (the numbered items have subprocess tests in
``test_hostile_approvals.py``); what it is sent is checked against an oracle with its own
classification table, written apart from ``desktop.core.classify``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop.core.approvals import Verdict
from desktop.core.backend import Prompt
from desktop.core.events import (
    ApprovalMode,
    Decision,
    DecisionSource,
    SessionEvent,
    ToolCategory,
    ToolDecided,
    ToolRequested,
    TurnEnded,
    TurnEndReason,
)
from desktop.core.session import Session
from tests.core.scripted import ScriptedBackend

#: The oracle's own idea of each tool (None: only YOLO or a user decision may approve it).
ORACLE: dict[str, ToolCategory | None] = {
    "Bash": ToolCategory.EXEC,
    "run_shell_command": ToolCategory.EXEC,
    "Read": ToolCategory.INFO,
    "Grep": ToolCategory.INFO,
    "Write": ToolCategory.EDIT,
    "NotebookEdit": ToolCategory.EDIT,
    "mcp__github__push": None,
    "mystery": None,
}
MODE_ALLOWS = {
    ApprovalMode.DEFAULT: set(),
    ApprovalMode.AUTO_EDIT: {ToolCategory.INFO, ToolCategory.EDIT},
}
CLAIMS = [ToolCategory.INFO, ToolCategory.EDIT, ToolCategory.EXEC, ToolCategory.MCP]
POLICY = "reads"


def read_policy(request: ToolRequested) -> Verdict | None:
    if request.category == ToolCategory.INFO:
        return Verdict(Decision.ONCE, DecisionSource.POLICY)
    return None


@dataclass
class Oracle:
    """What the user did and what the agent asked, and whether an approval is justified."""

    mode: ApprovalMode = ApprovalMode.DEFAULT
    rules: set[ToolCategory | None] = field(default_factory=set)
    policy_on: bool = False
    asked: dict[str, list[str]] = field(default_factory=dict)  # call id → tool names this turn
    pending_shown: set[str] = field(default_factory=set)
    user_deciding: tuple[str, Decision] | None = None
    approvals: int = 0
    failures: list[str] = field(default_factory=list)

    def justified(self, event: ToolDecided) -> str | None:
        names = self.asked.get(event.call_id, [])
        if len(names) != 1:
            return f"approval of {event.call_id!r}, requested {len(names)} times this turn"
        kind = ORACLE[names[0]]
        if event.source == DecisionSource.USER:
            ok = self.user_deciding == (event.call_id, event.decision)
            return None if ok and event.call_id in self.pending_shown else "user approval forged"
        if event.source == DecisionSource.MODE:
            ok = self.mode == ApprovalMode.YOLO or kind in MODE_ALLOWS[self.mode]
            return None if ok else f"mode {self.mode} approved {names[0]}"
        if event.source == DecisionSource.ALWAYS_RULE:
            # A user's "always" on an unknown tool allows unknown tools ("MCP and other tools").
            return None if kind in self.rules else f"rule approved {names}"
        if event.source == DecisionSource.POLICY:
            ok = self.policy_on and event.source_name == POLICY and kind == ToolCategory.INFO
            return None if ok else f"policy {event.source_name} approved {names[0]}"
        return f"approved by {event.source}"

    def __call__(self, event: SessionEvent) -> None:
        if isinstance(event, ToolDecided) and not event.decision.denies:
            self.approvals += 1
            problem = self.justified(event)
            if problem:
                self.failures.append(problem)
        elif isinstance(event, ToolDecided) and self.user_deciding is None:
            self.pending_shown.discard(event.call_id)
        elif isinstance(event, ToolRequested) and event.pending:
            self.pending_shown.add(event.call_id)


ids = st.sampled_from(["a", "b", "c"])
steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("request"), ids, st.sampled_from(sorted(ORACLE)), st.sampled_from(CLAIMS)
        ),
        st.tuples(st.just("decide"), ids, st.sampled_from(list(Decision))),
        st.tuples(st.just("mode"), st.sampled_from(list(ApprovalMode))),
        st.tuples(st.just("policy")),
        st.tuples(st.just("turn")),
    ),
    max_size=30,
)


async def play(workspace: Path, program: list[tuple[Any, ...]]) -> Oracle:
    backend = ScriptedBackend()
    session = Session(lambda _resume: backend, workspace=workspace)
    oracle = Oracle()
    session.subscribe(oracle)
    await session.start()

    async def new_turn() -> str:
        backend.turn_sent.clear()
        session.submit(Prompt("go"))
        await asyncio.wait_for(backend.turn_sent.wait(), 5)
        oracle.asked.clear()
        return backend.turns[-1]

    turn = await new_turn()
    for step in program:
        assert backend.emit is not None
        if step[0] == "request":
            _, call_id, name, claim = step
            oracle.asked.setdefault(call_id, []).append(name)
            backend.emit(
                ToolRequested(
                    turn_id=turn,
                    call_id=call_id,
                    name=name,
                    category=claim,
                    args={"command": "touch pwned", "file_path": "x.txt"},
                )
            )
        elif step[0] == "decide":
            _, call_id, decision = step
            pending = next((r for r in session.approvals.pending if r.call_id == call_id), None)
            oracle.user_deciding = (call_id, decision)
            if session.decide(call_id, decision) == "accepted" and pending is not None:
                if decision == Decision.ALWAYS:
                    oracle.rules.add(ORACLE[pending.name])
                oracle.pending_shown.discard(call_id)
            oracle.user_deciding = None
        elif step[0] == "mode":
            oracle.mode = step[1]
            await session.set_mode(step[1])
        elif step[0] == "policy" and not oracle.policy_on:
            oracle.policy_on = True
            session.approvals.policies.append((POLICY, read_policy))
        elif step[0] == "turn":
            backend.emit(TurnEnded(turn_id=turn, reason=TurnEndReason.COMPLETED))
            await session.wait_idle()
            turn = await new_turn()
    backend.emit(TurnEnded(turn_id=turn, reason=TurnEndReason.COMPLETED))
    await session.wait_idle()
    await session.close()
    sent_approvals = [d for _, d in backend.sent if not d.denies]
    assert len(sent_approvals) == oracle.approvals, "every approval sent was announced"
    return oracle


@settings(
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(program=steps)
def test_a_tool_is_approved_only_by_the_user_the_mode_a_user_rule_or_an_enabled_policy(
    tmp_path: Path, program: list[tuple[Any, ...]]
) -> None:
    oracle = asyncio.run(asyncio.wait_for(play(tmp_path, program), 30))
    assert oracle.failures == []
