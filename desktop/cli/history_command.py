"""``agentdesk history list|show|export|search|changes|restore``: stored conversations from the
command line (``changes`` and ``restore``: ``desktop.cli.history_changes``).

``list`` says what each conversation used: tokens and, where its models are priced, the cost
estimate (``--json``: a ``usage`` object). A damaged database is moved aside by
``HistoryStore`` (one line on stderr says where, and the command goes on with the fresh one);
one that cannot be opened or read is one line, exit 1, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from pathlib import Path

from desktop.cli.history_changes import add_change_commands, run_changes, turn_count
from desktop.core.history import (
    ConversationNotFoundError,
    HistorySchemaError,
    HistoryStore,
    to_json,
    to_markdown,
)
from desktop.core.usage.pricing import dollars, load_prices
from desktop.core.usage.spend import Spend, spend_of

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the ``history`` actions."""
    commands = parser.add_subparsers(dest="action", required=True)
    lister = commands.add_parser("list", help="conversations, newest first")
    lister.add_argument("--workspace", type=Path, help="only this workspace's conversations")
    lister.add_argument("--json", action="store_true", help="print JSON")
    show = commands.add_parser("show", help="print a conversation as Markdown")
    show.add_argument("conversation", help="id or unique prefix")
    export = commands.add_parser("export", help="export a conversation to Markdown or JSON")
    export.add_argument("conversation", help="id or unique prefix")
    export.add_argument("--format", choices=["md", "json"], default="md")
    export.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    search = commands.add_parser("search", help="full-text search")
    search.add_argument("query")
    search.add_argument("--workspace", type=Path, help="only this workspace's conversations")
    add_change_commands(commands)


def _workspace(path: Path | None) -> str | None:
    return None if path is None else str(path.expanduser().resolve())


def _when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def _list(store: HistoryStore, options: argparse.Namespace) -> int:
    workspace = _workspace(options.workspace)
    conversations = store.list_conversations(workspace)
    prices = load_prices()
    ends = store.turn_ends(workspace)
    spent = {c.id: spend_of(ends.get(c.id, []), prices) for c in conversations}
    if options.json:
        listed = [
            {
                **c.model_dump(mode="json"),
                "turns": turn_count(c.workspace, c.id),
                "usage": spent[c.id].as_json(),
            }
            for c in conversations
        ]
        print(json.dumps(listed, indent=2))
        return EXIT_OK
    for c in conversations:
        print(f"{c.id[:12]}  {_when(c.updated_at)}  {c.agent:<10} {c.title or '(untitled)'}")
        print(f"{'':14}{c.workspace}{_spent(spent[c.id])}")
    return EXIT_OK


def _spent(spend: Spend) -> str:
    """ "  ·  12,345 tokens  ·  ≈ $0.04" ("" before any usage was reported)."""
    usage = spend.usage
    tokens = usage.input_tokens + usage.output_tokens + usage.cache_read_tokens
    if not tokens:
        return ""
    said = f"  ·  {tokens:,} tokens"
    if spend.cost is not None:
        said += f"  ·  ≈ {'≥ ' if spend.partial else ''}{dollars(spend.cost)}"
    return said


def _export(store: HistoryStore, options: argparse.Namespace) -> int:
    conversation = store.get(store.resolve(options.conversation))
    as_json = options.action == "export" and options.format == "json"
    text = to_json(conversation) if as_json else to_markdown(conversation)
    output: Path | None = getattr(options, "output", None)
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        print(f"Wrote {output}", file=sys.stderr)
    return EXIT_OK


def _search(store: HistoryStore, options: argparse.Namespace) -> int:
    hits = store.search(options.query, _workspace(options.workspace))
    for hit in hits:
        snippet = " ".join(hit.snippet.split())
        print(f"{hit.conversation_id[:12]}  #{hit.seq:<4} {hit.title}: {snippet}")
    return EXIT_OK if hits else EXIT_FAILED


def run(options: argparse.Namespace) -> int:
    """Run ``agentdesk history`` and return its exit code."""
    try:
        store = HistoryStore()
    except HistorySchemaError as exc:
        print(f"agentdesk: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if store.recovered:
        print(f"agentdesk: {store.recovered}", file=sys.stderr)
    try:
        if options.action == "list":
            return _list(store, options)
        if options.action == "search":
            return _search(store, options)
        if options.action in ("changes", "restore"):
            return run_changes(store, options)
        return _export(store, options)
    except ConversationNotFoundError as exc:
        print(f"agentdesk: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except sqlite3.DatabaseError as exc:  # damaged past what opening it showed
        print(f"agentdesk: the history {store.path} cannot be read: {exc}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        store.close()
