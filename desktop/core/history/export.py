"""Exporting a stored conversation to Markdown (for people) and JSON (for programs)."""

from __future__ import annotations

import json
import time
from typing import Any

from desktop.core.history.models import ItemKind, StoredConversation, StoredItem

#: Version of the JSON export layout (the ``StoredConversation`` model plus this field).
EXPORT_FORMAT = 1


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


def _tool(item: StoredItem) -> str:
    data: dict[str, Any] = item.data
    status = data.get("status", "requested")
    lines = [f"**Tool `{data.get('name', '?')}`** — {status}"]
    decision = data.get("decision")
    if isinstance(decision, dict):
        who = decision.get("source_name") or decision.get("source")
        lines.append(f"Decision: {decision.get('decision')} ({who})")
    if data.get("args"):
        lines.append(_fence(json.dumps(data["args"], indent=2, ensure_ascii=False), "json"))
    if data.get("diff"):
        lines.append(_fence(str(data["diff"]), "diff"))
    if data.get("output"):
        lines.append(_fence(str(data["output"])))
    if data.get("reason"):
        lines.append(f"Reason: {data['reason']}")
    return "\n\n".join(lines)


def _item(item: StoredItem) -> str | None:
    if item.kind == ItemKind.USER:
        files = item.data.get("files") or []
        attached = "".join(f"\n\nAttached: `{f}`" for f in files)
        return f"## You\n\n{item.text}{attached}"
    if item.kind == ItemKind.ASSISTANT:
        suffix = "" if item.complete else "\n\n*(interrupted)*"
        return f"## Assistant\n\n{item.text}{suffix}"
    if item.kind == ItemKind.THINKING:
        return f"<details><summary>Thinking</summary>\n\n{item.text}\n\n</details>"
    if item.kind == ItemKind.TOOL:
        return _tool(item)
    if item.kind in (ItemKind.ERROR, ItemKind.AGENT_EXITED):
        return _quote(f"**Error:** {item.text}")
    if item.kind == ItemKind.NOTICE:
        return _quote(item.text)
    # ItemKind.TURN_END: the turn's outcome when it is not plain success, and its usage.
    usage = item.data.get("usage") or {}
    reason = item.data.get("reason")
    bits = [] if reason == "completed" else [f"turn {reason}"]
    if usage:
        bits.append(f"{usage.get('input_tokens', 0)} in / {usage.get('output_tokens', 0)} out")
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
