"""From two trees of the checkpoint store to the ``ChangeSet`` the command line and the window
show, and one hunk of a file's diff taken back (per-hunk revert).

The diff is git's (libgit2 through pygit2): unified, three lines of context, no rename
detection (a renamed file is one deletion and one addition, which is what a restore does).
"""

from __future__ import annotations

from collections.abc import Iterable

import pygit2
from pygit2.enums import DeltaStatus, DiffOption, FileMode

from desktop.core.checkpoints.model import ChangeKind, ChangeSet, FileChange

_KINDS = {
    DeltaStatus.ADDED: ChangeKind.ADDED,
    DeltaStatus.DELETED: ChangeKind.DELETED,
    DeltaStatus.MODIFIED: ChangeKind.MODIFIED,
    DeltaStatus.TYPECHANGE: ChangeKind.MODIFIED,
}


def tree_diff(repo: pygit2.Repository, old: pygit2.Oid, new: pygit2.Oid) -> pygit2.Diff:
    """The diff of tree ``old`` to tree ``new``."""
    old_tree = repo[old].peel(pygit2.Tree)
    new_tree = repo[new].peel(pygit2.Tree)
    return old_tree.diff_to_tree(new_tree, DiffOption.INCLUDE_TYPECHANGE)


def file_changes(diff: pygit2.Diff, edited: Iterable[str] = ()) -> tuple[FileChange, ...]:
    """One ``FileChange`` per path of ``diff``, sorted by path; ``edited`` paths are marked
    ``edited_since``."""
    marked = set(edited)
    changes: list[FileChange] = []
    for patch in diff:
        if patch is None:
            continue
        delta = patch.delta
        path = delta.new_file.path if delta.status != DeltaStatus.DELETED else delta.old_file.path
        kind = _KINDS.get(delta.status, ChangeKind.MODIFIED)
        if kind is ChangeKind.MODIFIED and delta.old_file.id == delta.new_file.id:
            kind = ChangeKind.MODE
        binary = bool(delta.is_binary)
        _, added, removed = patch.line_stats
        changes.append(
            FileChange(
                path=path,
                kind=kind,
                added=0 if binary else added,
                removed=0 if binary else removed,
                binary=binary,
                diff="" if binary else unified_text(patch),
                symlink=FileMode.LINK in (delta.old_file.mode, delta.new_file.mode),
                edited_since=path in marked,
            )
        )
    return tuple(sorted(changes, key=lambda change: change.path))


def change_set(
    repo: pygit2.Repository,
    base: str,
    target: str | None,
    old: pygit2.Oid,
    new: pygit2.Oid,
    *,
    problem: str | None = None,
    edited: Iterable[str] = (),
) -> ChangeSet:
    """The ``ChangeSet`` from tree ``old`` (checkpoint ``base``) to tree ``new``."""
    files = file_changes(tree_diff(repo, old, new), edited)
    return ChangeSet(base=base, target=target, files=files, problem=problem)


def unified_text(patch: pygit2.Patch) -> str:
    """The patch's ``---``/``+++`` headers and hunks (git's own ``diff --git`` lines dropped)."""
    text = patch.text or ""
    lines = text.splitlines(keepends=True)
    for number, line in enumerate(lines):
        if line.startswith("--- "):
            return "".join(lines[number:])
    return ""


def path_patch(diff: pygit2.Diff, path: str) -> pygit2.Patch | None:
    """The patch of ``path`` in ``diff``."""
    for patch in diff:
        if patch is None:
            continue
        delta = patch.delta
        if path in (delta.new_file.path, delta.old_file.path):
            return patch
    return None


class HunkMismatch(Exception):
    """The file no longer holds the hunk's lines (edited since), so it cannot be taken back."""


def revert_hunk(current: bytes, patch: pygit2.Patch, number: int) -> bytes:
    """``current`` with hunk ``number`` of ``patch`` (old → new) taken back to its old lines.

    Raises:
        IndexError: no such hunk.
        HunkMismatch: the hunk's new lines are not in ``current`` any more.
    """
    hunk = patch.hunks[number]
    old_lines: list[bytes] = []
    new_lines: list[bytes] = []
    for line in hunk.lines:
        raw = line.raw_content
        if line.origin in (" ", "-"):
            old_lines.append(raw)
        if line.origin in (" ", "+"):
            new_lines.append(raw)
    lines = current.splitlines(keepends=True)
    start = _find(lines, new_lines, max(hunk.new_start - 1, 0))
    if start is None:
        raise HunkMismatch(f"hunk {number} not found")
    return b"".join(lines[:start] + old_lines + lines[start + len(new_lines) :])


def _find(lines: list[bytes], block: list[bytes], near: int) -> int | None:
    size = len(block)
    if not size:
        return min(near, len(lines))
    candidates = [
        start for start in range(len(lines) - size + 1) if lines[start : start + size] == block
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda start: abs(start - near))
