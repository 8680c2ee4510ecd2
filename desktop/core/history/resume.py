"""Reopening a stored conversation: resume the agent's own session, or replay a summary.

An agent with sessions (``--resume SESSION``) gets its stored session id back; any other agent
gets ``init_history`` text built from the stored transcript, bounded so a long conversation does
not fill the model's context. The view shows the full stored transcript either way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from desktop.core.entries import MessageItem, StreamItem, ToolItem, UserItem
from desktop.core.history.items import OUTCOME
from desktop.core.history.models import StoredConversation, StoredItem
from desktop.core.session import Session

#: Default bound of the summary, in characters (about 4k tokens).
SUMMARY_CHARS = 16_000
_ITEM_CHARS = 2_000


@dataclass(frozen=True)
class ResumePlan:
    """How to continue a stored conversation: exactly one of the two is set (or neither)."""

    resume_id: str | None = None
    init_history: str | None = None


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _line(item: StoredItem) -> str | None:
    match item.entry:
        case UserItem(text=text):
            return "User: " + _clip(text, _ITEM_CHARS)
        case StreamItem(type="assistant", text=text):
            return "Assistant: " + _clip(text, _ITEM_CHARS)
        case ToolItem(request=request, result=result, cancel_reason=reason, status=status):
            args = _clip(json.dumps(request.args, ensure_ascii=False), 300)
            out = _clip((result.output if result is not None else "") or reason or "", 300)
            line = f"Tool {request.name} {args} -> {OUTCOME[status]}"
            return line + (f": {out}" if out else "")
        case MessageItem(type="error", text=text):
            return "Error: " + _clip(text, 300)
    return None


def build_resume_summary(conversation: StoredConversation, max_chars: int = SUMMARY_CHARS) -> str:
    """A bounded plain-text transcript for ``init_history``: the newest items that fit.

    Thinking, notices and bookkeeping are left out; long texts are clipped; when older items do
    not fit, a first line says how many were left out.
    """
    lines = [line for item in conversation.items if (line := _line(item))]
    header = f"Earlier in this conversation ({conversation.title or 'untitled'}):"
    kept: list[str] = []
    used = len(header) + 64
    for line in reversed(lines):
        if used + len(line) + 1 > max_chars:
            break
        kept.append(line)
        used += len(line) + 1
    kept.reverse()
    omitted = len(lines) - len(kept)
    if omitted:
        header += f"\n[{omitted} earlier items omitted]"
    return "\n".join([header, *kept]) if kept else header


def plan_resume(conversation: StoredConversation, *, agent_has_sessions: bool) -> ResumePlan:
    """Resume by session id when the agent supports it and one is stored, else by summary."""
    if agent_has_sessions and conversation.agent_session_id:
        return ResumePlan(resume_id=conversation.agent_session_id)
    if not conversation.items:
        return ResumePlan()
    return ResumePlan(init_history=build_resume_summary(conversation))


async def apply_history(session: Session, plan: ResumePlan) -> None:
    """After ``session.start()``, send the summary (if the plan has one) to the agent."""
    if plan.init_history and session.backend is not None:
        await session.backend.send_history(plan.init_history)
