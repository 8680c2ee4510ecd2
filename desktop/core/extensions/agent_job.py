"""The built-in ``agent_instruction`` job: ask a background agent and return its answer.

The background agent runs in its own ``Session`` in the same workspace with the same agent as
the conversation it serves. It may only read: read-only tools inside the workspace are approved
by policy, everything else is denied, so a review or a suggestion can never change files.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from desktop.core.approvals import Verdict
from desktop.core.backend import Prompt
from desktop.core.events import (
    Decision,
    DecisionSource,
    SessionEvent,
    TextDelta,
    ToolCategory,
    ToolRequested,
    TurnEnded,
    TurnEndReason,
)
from desktop.core.session import BackendFactory, Session
from desktop.core.texts import QT_TRANSLATE_NOOP

AGENT_INSTRUCTION = "agent_instruction"
POLICY_NAME = "background agent (read-only)"


def read_only_policy(request: ToolRequested) -> Verdict:
    """Approve reads inside the workspace; deny everything else.

    ``request.category`` is the host's classification (``desktop.core.classify``), so a shell
    or unknown tool claiming ``info`` is denied; so is a read the host could not preview.
    """
    preview = request.preview
    unsure = preview is not None and (preview.outside_workspace or preview.unavailable)
    if request.category == ToolCategory.INFO and not unsure:
        return Verdict(Decision.ONCE, DecisionSource.POLICY, POLICY_NAME)
    text = QT_TRANSLATE_NOOP(
        "ToolReason", "Background agents may only read files inside the workspace."
    )
    return Verdict(Decision.DENY, DecisionSource.POLICY, POLICY_NAME, text.english, text)


class AgentInstructionError(Exception):
    """The background agent did not answer."""


async def run_agent_instruction(
    factory: BackendFactory, workspace: Path, prompt: str, *, timeout_s: float = 300.0
) -> str:
    """Run ``prompt`` as one turn of a fresh background session; returns the answer text.

    Raises:
        AgentInstructionError: the turn ended in error, or the agent exited.
        TimeoutError: no answer within ``timeout_s``.
    """
    session = Session(factory, workspace=workspace)
    session.approvals.policies.append((POLICY_NAME, read_only_policy))
    chunks: list[str] = []
    failures: list[str] = []

    def collect(event: SessionEvent) -> None:
        if isinstance(event, TextDelta):
            chunks.append(event.text)
        elif isinstance(event, TurnEnded) and event.reason != TurnEndReason.COMPLETED:
            failures.append(event.message or event.reason.value)

    session.subscribe(collect)
    try:
        await asyncio.wait_for(session.start(), timeout_s)
        session.submit(Prompt(prompt))
        await asyncio.wait_for(session.wait_idle(), timeout_s)
    finally:
        await session.close()
    if failures:
        raise AgentInstructionError(f"the background agent failed: {failures[0]}")
    return "".join(chunks).strip()
