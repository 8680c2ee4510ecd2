"""``agentdesk history changes|restore``: what a conversation's turns changed in its workspace,
and putting the workspace back to before a turn, from the command line.

The same checkpoint store the window uses (``desktop.core.checkpoints.store``), found through
the conversation's workspace in the history. A restore changes files, so it asks first: on a
terminal it prints the plan and asks y/N; without a terminal it needs ``--yes``. Every restore
records the workspace first, so ``restore --undo`` puts it back. Faults are one line on stderr
and an exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from desktop.core.checkpoints.model import ChangeKind, ChangeSet, FileChange, RestoreResult
from desktop.core.checkpoints.store import CheckpointError, CheckpointStore, store_path
from desktop.core.history import HistoryStore
from desktop.core.paths import app_paths

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

_MARKS = {
    ChangeKind.ADDED: "A",
    ChangeKind.MODIFIED: "M",
    ChangeKind.DELETED: "D",
    ChangeKind.MODE: "T",
}


def add_change_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Declare ``changes`` and ``restore`` under ``agentdesk history``."""
    changes = commands.add_parser("changes", help="files a conversation's turns changed")
    changes.add_argument("conversation", help="id or unique prefix")
    changes.add_argument("--turn", type=int, help="only this turn (from 1); default: all turns")
    changes.add_argument("--format", choices=["stat", "diff", "json"], default="stat")
    restore = commands.add_parser("restore", help="put the workspace back to before a turn")
    restore.add_argument("conversation", help="id or unique prefix")
    which = restore.add_mutually_exclusive_group(required=True)
    which.add_argument("--before-turn", type=int, help="restore to before this turn (from 1)")
    which.add_argument("--undo", action="store_true", help="undo the last restore")
    restore.add_argument("--yes", action="store_true", help="do not ask")


def checkpoint_store(workspace: str) -> CheckpointStore:
    """The checkpoint store of a conversation's ``workspace``."""
    return CheckpointStore.open(Path(workspace), app_paths().data)


def turn_count(workspace: str, conversation_id: str) -> int:
    """How many turns of the conversation have checkpoints (0 when the workspace has none;
    nothing is created)."""
    if not store_path(Path(workspace), app_paths().data).exists():
        return 0
    try:
        return len(checkpoint_store(workspace).turns(conversation_id))
    except CheckpointError:
        return 0


def run_changes(history: HistoryStore, options: argparse.Namespace) -> int:
    """``history changes`` or ``history restore``."""
    conversation = history.get(history.resolve(options.conversation))
    store = checkpoint_store(conversation.workspace)
    try:
        if options.action == "changes":
            return _changes(store, conversation.id, options)
        return _restore(store, conversation.id, options)
    except CheckpointError as exc:
        print(f"agentdesk: {exc.message}", file=sys.stderr)
        return EXIT_FAILED


def _changes(store: CheckpointStore, conversation_id: str, options: argparse.Namespace) -> int:
    if options.turn is not None:
        turn = store.turn_changes(conversation_id, options.turn)
        if turn.changes is None:
            print(f"agentdesk: turn {options.turn} has no recorded changes", file=sys.stderr)
            return EXIT_USAGE
        changes = turn.changes
    else:
        changes = store.conversation_changes(conversation_id)
    if options.format == "json":
        print(json.dumps(_as_json(conversation_id, options.turn, changes), indent=2))
    elif options.format == "diff":
        for change in changes.files:
            sys.stdout.write(change.diff or _no_text_diff(change))
    else:
        _print_stat(changes.files)
    if changes.problem:
        print(f"agentdesk: {changes.problem}", file=sys.stderr)
    return EXIT_OK


def _no_text_diff(change: FileChange) -> str:
    what = "Binary file" if change.binary else "File"
    return f"{what} {change.path} {change.kind.value}\n"


def _print_stat(files: tuple[FileChange, ...]) -> None:
    for change in files:
        counts = "binary" if change.binary else f"+{change.added} -{change.removed}"
        since = "  (edited after the turn)" if change.edited_since else ""
        print(f" {_MARKS[change.kind]} {change.path}  {counts}{since}")
    added = sum(c.added for c in files)
    removed = sum(c.removed for c in files)
    print(f"{len(files)} file{'s' if len(files) != 1 else ''} changed, +{added} -{removed}")


def _as_json(conversation_id: str, turn: int | None, changes: ChangeSet) -> dict[str, object]:
    return {
        "conversation": conversation_id,
        "turn": turn,
        "base": changes.base,
        "target": changes.target,
        "problem": changes.problem,
        "files": [
            {
                "path": c.path,
                "kind": c.kind.value,
                "added": c.added,
                "removed": c.removed,
                "binary": c.binary,
                "symlink": c.symlink,
                "diff": c.diff,
            }
            for c in changes.files
        ],
    }


def _restore(store: CheckpointStore, conversation_id: str, options: argparse.Namespace) -> int:
    if options.undo:
        return _report(store.undo_restore(conversation_id), conversation_id, undo=True)
    plan = store.plan_restore(conversation_id, options.before_turn)
    if not plan.changes.files:
        print(f"The workspace is already as it was before turn {options.before_turn}.")
        return EXIT_OK
    if not options.yes:
        if not sys.stdin.isatty():
            print(
                "agentdesk: restoring changes files in the workspace; "
                "add --yes to confirm (there is no terminal to ask on)",
                file=sys.stderr,
            )
            return EXIT_USAGE
        print(f"Restoring {store.workspace} to before turn {options.before_turn} changes:")
        _print_stat(plan.changes.files)
        if input("Restore? [y/N] ").strip().lower() not in ("y", "yes"):
            print("Nothing was changed.")
            return EXIT_FAILED
    return _report(store.restore(conversation_id, options.before_turn), conversation_id)


def _report(result: RestoreResult, conversation_id: str, *, undo: bool = False) -> int:
    count = len(result.restored)
    verb = "Put back" if undo else "Restored"
    print(f"{verb} {count} file{'s' if count != 1 else ''}.")
    for failure in result.failed:
        print(f"agentdesk: {failure.path}: {failure.reason}", file=sys.stderr)
    if result.failed:
        print(
            "agentdesk: the workspace is only partly restored; "
            f"`agentdesk history restore {conversation_id[:12]} --undo` puts it back",
            file=sys.stderr,
        )
        return EXIT_FAILED
    if not undo:
        print(f"Undo with: agentdesk history restore {conversation_id[:12]} --undo")
    return EXIT_OK
