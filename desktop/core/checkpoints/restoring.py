"""Writing a recorded state back into the workspace, path by path.

Only the paths that differ between the workspace's state just recorded (``saved``) and the
state wanted (``target``) are touched; a path that cannot be written (a read-only file, a
folder in the way, a full disk) is reported and the others go on, so the caller can say which
paths failed and the ``saved`` checkpoint can put everything back. Symbolic links are written
as links (never followed); the executable bit is set as recorded; folders left empty by a
removal are removed.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

import pygit2
from pygit2.enums import DeltaStatus, FileMode

from desktop.core.checkpoints.model import FailedPath


def restore_paths(
    repo: pygit2.Repository,
    workspace: Path,
    saved: pygit2.Oid,
    target: pygit2.Oid,
    *,
    only: Iterable[str] | None = None,
    keep: Iterable[str] = (),
) -> tuple[tuple[str, ...], tuple[FailedPath, ...]]:
    """Make the workspace (recorded as tree ``saved``) hold tree ``target``; ``only`` limits
    the paths, ``keep`` names paths never touched (left out of ``saved`` for their size).

    Returns:
        The paths written or removed, and the paths that failed with a reason.
    """
    wanted = set(only) if only is not None else None
    kept = set(keep)
    old_tree = repo[saved].peel(pygit2.Tree)
    new_tree = repo[target].peel(pygit2.Tree)
    diff = old_tree.diff_to_tree(new_tree)
    removals: list[str] = []
    writes: list[tuple[str, pygit2.Oid, int]] = []
    for delta in diff.deltas:  # no rename detection: old and new paths are the same
        path = delta.new_file.path or delta.old_file.path
        if (wanted is not None and path not in wanted) or path in kept:
            continue
        if delta.status == DeltaStatus.DELETED:
            removals.append(path)
        else:
            writes.append((path, delta.new_file.id, delta.new_file.mode))
    restored: list[str] = []
    failed: list[FailedPath] = []
    for path in sorted(removals, key=lambda p: p.count("/"), reverse=True):
        try:
            _remove_file(workspace, path)
            restored.append(path)
        except OSError as exc:
            failed.append(FailedPath(path=path, reason=_reason(exc)))
    for path, oid, mode in sorted(writes):
        try:
            _write(repo, workspace, path, oid, mode)
            restored.append(path)
        except OSError as exc:
            failed.append(FailedPath(path=path, reason=_reason(exc)))
    return tuple(sorted(restored)), tuple(failed)


def write_bytes(workspace: Path, path: str, data: bytes, mode: int) -> None:
    """Write ``data`` at ``path`` as a regular file (``mode``: a git file mode).

    Raises:
        OSError: it cannot be written (``PermissionError`` for a read-only file).
    """
    full = workspace / path
    _refuse_read_only(full)
    full.parent.mkdir(parents=True, exist_ok=True)
    if full.is_symlink() or (full.exists() and not full.is_file()):
        _clear(full)
    with open(full, "wb") as handle:
        handle.write(data)
    _set_executable(full, mode == FileMode.BLOB_EXECUTABLE)


def _write(repo: pygit2.Repository, workspace: Path, path: str, oid: pygit2.Oid, mode: int) -> None:
    blob = repo[oid].peel(pygit2.Blob)
    full = workspace / path
    if mode == FileMode.LINK:
        _refuse_read_only(full)
        full.parent.mkdir(parents=True, exist_ok=True)
        if full.is_symlink() or full.exists():
            _clear(full)
        os.symlink(os.fsdecode(blob.data), full)
        return
    write_bytes(workspace, path, blob.data, mode)


def _refuse_read_only(full: Path) -> None:
    try:
        info = full.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISREG(info.st_mode) and not info.st_mode & stat.S_IWUSR:
        raise PermissionError(13, "read-only file", str(full))


def _clear(full: Path) -> None:
    if full.is_dir() and not full.is_symlink():
        full.rmdir()  # only an empty folder is ever removed
    else:
        full.unlink()


def _remove_file(workspace: Path, path: str) -> None:
    full = workspace / path
    _refuse_read_only(full)
    with contextlib.suppress(FileNotFoundError):
        full.unlink()
    parent = full.parent
    while parent != workspace and workspace in parent.parents:
        try:
            parent.rmdir()
        except OSError:
            break
        parent = parent.parent


def _set_executable(full: Path, executable: bool) -> None:
    current = stat.S_IMODE(full.stat().st_mode)
    readable = current & 0o444
    wanted = current | (readable >> 2) if executable else current & ~0o111
    if wanted != current:
        os.chmod(full, wanted)


def _reason(exc: OSError) -> str:
    if isinstance(exc, PermissionError):
        return "The file is read-only or its folder cannot be written."
    if isinstance(exc, IsADirectoryError) or exc.errno == 39:  # ENOTEMPTY
        return "A folder is in the way."
    if exc.errno == 28:  # ENOSPC
        return "The disk is full."
    return f"It could not be written ({exc.strerror or exc})."
