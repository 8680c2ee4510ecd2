"""Review every proposed file change with a background agent and post the review.

The handler only enqueues a job (so it never competes with approvers for the action winner);
the job asks a read-only background agent and returns a ``transcript.upsert`` intent that the
host executes with the job's scope.
"""

from __future__ import annotations

from typing import Any

from desktop.sdk import AgentEventRegistry, AgentJobContext, AgentRuntimeEvent, action_request

JOB_TYPE = "file_change_review.review"
DIFF_LIMIT = 20_000
PROMPT = (
    "You are reviewing a change another agent wants to make. Do not change any file. "
    "Reply with a short review: what the change does, and any bug, risk or missing piece.\n\n"
    "The user asked: {request}\n\nProposed change:\n{diff}"
)


async def enqueue_review(event: AgentRuntimeEvent, tools: Any) -> Any:
    """Enqueue one review job per approval (single flight per approval id)."""
    payload = event["payload"]
    context = payload["context"]
    details = payload.get("details") or {}
    return await tools.enqueue_job(
        {
            "type": JOB_TYPE,
            "projectId": context["projectId"],
            "sourceSessionId": context["sourceSessionId"],
            "payload": {
                "approvalId": context["approvalId"],
                "sessionId": context["sourceSessionId"],
                "turnId": context.get("turnId"),
                "userRequest": context.get("userRequest", ""),
                "diff": str(details.get("diff") or details.get("preview") or "")[:DIFF_LIMIT],
                "dedupeKey": context["approvalId"],
            },
        }
    )


async def run_review(ctx: AgentJobContext) -> Any:
    """Ask the background agent and post its answer into the conversation."""
    p = ctx.payload
    review = await ctx.run_agent(PROMPT.format(request=p.get("userRequest", ""), diff=p["diff"]))
    entry = {
        "messageId": f"review-{p['approvalId']}",
        "turnId": p.get("turnId"),
        "role": "system",
        "type": "extension.review",
        "content": review or "(the reviewer gave no answer)",
        "details": {"approvalId": p["approvalId"]},
        "status": "complete",
    }
    upsert = action_request("transcript.upsert", {"sessionId": p["sessionId"], "entry": entry})
    return {"kind": "action_intents", "intents": [upsert], "review": review}


def register_agent_events(registry: AgentEventRegistry) -> None:
    """Entry point called by the extension loader."""
    registry.on("file_change.approval_requested", enqueue_review, priority=200, timeout_ms=5000)
    registry.job(JOB_TYPE, run_review, dedupe="single_flight", timeout_ms=600_000)
