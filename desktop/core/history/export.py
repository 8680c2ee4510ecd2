"""Exporting a stored conversation to Markdown (for people) and JSON (for programs)."""

from __future__ import annotations

import json
import time

from desktop.core.entries import (
    ExitItem,
    MessageItem,
    PlanItem,
    StreamItem,
    ToolItem,
    TurnEndItem,
    UserItem,
)
from desktop.core.events import TurnEndReason
from desktop.core.history.items import OUTCOME
from desktop.core.history.models import StoredConversation, StoredItem

#: Version of the JSON export layout (the ``StoredConversation`` model plus this field); 2: each
#: item's ``entry`` (a typed transcript entry) replaced its free-form ``data``.
EXPORT_FORMAT = 2


def to_json(conversation: StoredConversation) -> str:
    """The conversation with every item and its data, as pretty JSON."""
    doc = {"format": EXPORT_FORMAT, **conversation.model_dump(mode="json")}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _fence(text: str, lang: str = "") -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{lang}\n{text.rstrip()}\n{fence}"


def _quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.rstrip().splitlines())


def _tool(item: ToolItem) -> str:
    request = item.request
    lines = [f"**Tool `{request.name}`** — {OUTCOME[item.status]}"]
    if item.decision is not None:
        who = item.decision.source_name or item.decision.source
        lines.append(f"Decision: {item.decision.decision} ({who})")
    if request.args:
        lines.append(_fence(json.dumps(request.args, indent=2, ensure_ascii=False), "json"))
    result = item.result
    if result is not None and result.diff:
        lines.append(_fence(result.diff, "diff"))
    if result is not None and result.output:
        lines.append(_fence(result.output))
    if item.cancel_reason:
        lines.append(f"Reason: {item.cancel_reason}")
    return "\n\n".join(lines)


def _item(stored: StoredItem) -> str | None:
    match stored.entry:
        case UserItem(text=text, files=files):
            attached = "".join(f"\n\nAttached: `{f}`" for f in files)
            return f"## You\n\n{text}{attached}"
        case StreamItem(type="assistant", text=text):
            suffix = "" if stored.complete else "\n\n*(interrupted)*"
            return f"## Assistant\n\n{text}{suffix}"
        case StreamItem(text=text):
            return f"<details><summary>Thinking</summary>\n\n{text}\n\n</details>"
        case ToolItem() as tool:
            return _tool(tool)
        case PlanItem(entries=entries):
            marks = {"completed": "x", "in_progress": "~", "pending": " "}
            steps = "\n".join(f"- [{marks[e.status.value]}] {e.content}" for e in entries)
            return f"**Plan**\n\n{steps}"
        case MessageItem(type="error", text=text):
            return _quote(f"**Error:** {text}")
        case ExitItem():
            return _quote(f"**Error:** {stored.text}")
        case MessageItem(text=text):
            return _quote(text)
        case TurnEndItem(reason=reason, usage=usage):
            # The turn's outcome when it is not plain success, and its usage.
            bits = [] if reason == TurnEndReason.COMPLETED else [f"turn {reason.value}"]
            if usage is not None:
                bits.append(f"{usage.input_tokens} in / {usage.output_tokens} out")
            return f"*{' · '.join(bits)}*" if bits else None


def to_markdown(conversation: StoredConversation) -> str:
    """A readable transcript: prompts, replies, tool calls with arguments, diffs and output."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(conversation.created_at))
    parts = [
        f"# {conversation.title or 'Untitled conversation'}",
        f"Workspace `{conversation.workspace}` · agent `{conversation.agent}` · {when}",
    ]
    parts += [text for item in conversation.items if (text := _item(item))]
    return "\n\n".join(parts) + "\n"
