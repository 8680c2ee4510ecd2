"""Keeping a checkpoint store within its disk budget.

When the store's folder grows past the budget, the checkpoints of the conversations used
longest ago go first (all but their newest turn: the newest turn of a conversation is always
kept, so its changes can still be reviewed and restored). Dropping refs frees nothing by
itself, so the loose objects no remaining checkpoint (or the index) reaches are then deleted
(git's ``prune``; objects younger than a minute are left, another process may be writing them).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import pygit2

from desktop.core.checkpoints import repository as repo_io

#: Loose objects younger than this are never deleted (another writer may be using them).
_GRACE_SECONDS = 60.0


def prune(
    repo: pygit2.Repository, path: Path, budget: int, *, grace: float = _GRACE_SECONDS
) -> int:
    """Drop old checkpoints until the store fits ``budget`` bytes; returns the refs dropped."""
    if repo_io.directory_size(path) <= budget:
        return 0
    by_conversation: dict[str, list[tuple[str, float, int]]] = {}
    for name in repo.references:
        if not name.startswith(repo_io.REF_ROOT):
            continue
        checkpoint = repo_io.parse_checkpoint(repo.revparse_single(name))
        if checkpoint is None:
            continue
        key = name[len(repo_io.REF_ROOT) :].split("/", 1)[0]
        by_conversation.setdefault(key, []).append((name, checkpoint.created, checkpoint.turn))
    order = sorted(by_conversation.values(), key=lambda refs: max(r[1] for r in refs))
    dropped = 0
    for refs in order:
        newest_turn = max(r[2] for r in refs)
        for name, _created, turn in refs:
            if turn != newest_turn:
                repo.references.delete(name)
                dropped += 1
        delete_unreachable(repo, path, grace)
        if repo_io.directory_size(path) <= budget:
            break
    return dropped


def reachable(repo: pygit2.Repository) -> set[str]:
    """Ids of every object a checkpoint ref or the index reaches."""
    seen: set[str] = set()
    stack: list[pygit2.Oid] = []
    for name in repo.references:
        if name.startswith(repo_io.REF_ROOT):
            stack.append(repo.references[name].target)  # type: ignore[arg-type]
    for entry in repo.index:
        seen.add(str(entry.id))
    while stack:
        oid = stack.pop()
        key = str(oid)
        if key in seen:
            continue
        seen.add(key)
        obj: object = repo[oid]
        if isinstance(obj, pygit2.Commit):
            stack.append(obj.tree_id)
        elif isinstance(obj, pygit2.Tree):
            for child in obj:
                if child.type_str == "tree":
                    stack.append(child.id)
                else:
                    seen.add(str(child.id))
    return seen


def delete_unreachable(repo: pygit2.Repository, path: Path, grace: float = _GRACE_SECONDS) -> int:
    """Delete the loose objects nothing reaches; returns how many."""
    keep = reachable(repo)
    objects = path / "objects"
    cutoff = time.time() - grace
    deleted = 0
    for folder in objects.iterdir():
        if len(folder.name) != 2 or not folder.is_dir():
            continue
        for item in folder.iterdir():
            if folder.name + item.name in keep:
                continue
            try:
                if item.stat().st_mtime < cutoff:
                    item.unlink()
                    deleted += 1
            except OSError:
                continue
        with contextlib.suppress(OSError):  # not empty
            os.rmdir(folder)
    return deleted
