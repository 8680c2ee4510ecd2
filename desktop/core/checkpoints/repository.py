"""The checkpoint store's git repository: where it lives, how it is opened, how a snapshot of the
workspace becomes a tree, and how a checkpoint's metadata is kept in refs and commit messages.

One repository per workspace under ``<data>/checkpoints/<id>.git``. It is created bare and then
given the workspace as its work tree through ``core.worktree`` in its own config, so nothing is
ever written into the workspace (no ``.git`` file, no gitlink) and the user's own ``.git`` is
never opened: libgit2 skips ``.git`` folders when it walks a work tree. The repository's own
``info/attributes`` turns every filter off (stored bytes are the file's bytes) and its
``info/exclude`` carries the workspace's ``.agentdeskignore`` rules (``.gitignore`` files are
honoured by libgit2 itself). The index is the stat cache that makes a snapshot incremental: only
paths whose stat differs from the index are hashed.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

import pygit2
from pygit2.enums import DeltaStatus, DiffOption

from desktop.core.checkpoints.model import Checkpoint, CheckpointKind
from desktop.core.texts import CoreText

#: Refs of checkpoints: ``refs/agentdesk/<conversation>/<sequence>``.
REF_ROOT = "refs/agentdesk/"
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,120}")
_ATTRIBUTES = "* -text -filter -ident -eol -working-tree-encoding\n"
_SIGNATURE_NAME = "Agent Desk"
_SIGNATURE_MAIL = "checkpoints@agentdesk.invalid"
_DIFF_FLAGS = (
    DiffOption.INCLUDE_UNTRACKED
    | DiffOption.RECURSE_UNTRACKED_DIRS
    | DiffOption.INCLUDE_TYPECHANGE
    | DiffOption.SKIP_BINARY_CHECK
)


def conversation_key(conversation_id: str) -> str:
    """The ref component of a conversation id (ids that are not ref-safe are hex-encoded)."""
    if _SAFE_ID.fullmatch(conversation_id):
        return conversation_id
    return "x-" + conversation_id.encode("utf-8", "surrogateescape").hex()


def open_repository(path: Path, workspace: Path) -> pygit2.Repository:
    """Open (creating it the first time) the checkpoint repository at ``path`` whose work tree
    is ``workspace``."""
    if not (path / "HEAD").exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        pygit2.init_repository(str(path), bare=True)
    repo = pygit2.Repository(str(path))
    config = repo.config
    wanted: dict[str, str | bool] = {
        "core.bare": False,
        "core.worktree": str(workspace),
        "core.filemode": True,
        "core.symlinks": True,
        "core.autocrlf": "false",
        "core.safecrlf": "false",
        "core.excludesFile": str(path / "info" / "global-exclude"),
        "core.logAllRefUpdates": False,
        "gc.auto": "0",
    }
    changed = False
    for key, value in wanted.items():
        try:
            current = config[key]
        except KeyError:
            current = None
        if str(current).lower() != str(value).lower():
            config[key] = value
            changed = True
    info = path / "info"
    info.mkdir(exist_ok=True)
    for name, text in (("attributes", _ATTRIBUTES), ("global-exclude", "")):
        target = info / name
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
    if changed:
        repo = pygit2.Repository(str(path))
    return repo


def sync_excludes(repo: pygit2.Repository, workspace: Path) -> None:
    """Make the repository's ``info/exclude`` carry the workspace's ``.agentdeskignore``."""
    try:
        rules = (workspace / ".agentdeskignore").read_text(encoding="utf-8", errors="replace")
    except OSError:
        rules = ""
    text = "# from .agentdeskignore (written by Agent Desk)\n.git/\n" + rules
    target = Path(repo.path) / "info" / "exclude"
    try:
        current = target.read_text(encoding="utf-8")
    except OSError:
        current = None
    if current != text:
        target.write_text(text, encoding="utf-8")


@dataclass(frozen=True)
class WorkspaceTree:
    """A state of the workspace written as a tree.

    Attributes:
        tree: The tree's id.
        skipped: Paths left out for their size.
        unreadable: Paths that could not be read (their last recorded state is kept).
    """

    tree: pygit2.Oid
    skipped: tuple[str, ...]
    unreadable: tuple[str, ...]


class DiskFull(Exception):
    """The store could not write: the disk is full (or a quota is reached)."""


def take_snapshot(repo: pygit2.Repository, workspace: Path, size_limit: int) -> WorkspaceTree:
    """Write the workspace as it is now as a tree, hashing only what changed since the last
    snapshot.

    Raises:
        FileNotFoundError: the workspace folder is gone.
        DiskFull: no room for the new objects.
    """
    if not workspace.is_dir():
        raise FileNotFoundError(errno.ENOENT, "workspace folder is gone", str(workspace))
    sync_excludes(repo, workspace)
    index = repo.index
    index.read(False)
    skipped: list[str] = []
    unreadable: list[str] = []
    diff = index.diff_to_workdir(_DIFF_FLAGS)
    for delta in diff.deltas:
        path = delta.new_file.path if delta.status != DeltaStatus.DELETED else delta.old_file.path
        if delta.status == DeltaStatus.DELETED:
            _remove(index, path)
            continue
        full = workspace / path
        try:
            info = full.lstat()
        except FileNotFoundError:
            _remove(index, path)
            continue
        except OSError:
            unreadable.append(path)
            continue
        if (info.st_mode & 0o170000) == 0o040000:
            continue  # a nested repository (libgit2 does not enter it): not recorded
        if info.st_size > size_limit and not _is_link(info.st_mode):
            skipped.append(path)
            _remove(index, path)
            continue
        try:
            index.add(path)
        except (OSError, pygit2.GitError) as exc:
            if _no_space(exc):
                raise DiskFull(str(exc)) from exc
            unreadable.append(path)
    try:
        tree = index.write_tree()
        index.write()
    except (OSError, pygit2.GitError) as exc:
        if _no_space(exc):
            raise DiskFull(str(exc)) from exc
        raise
    return WorkspaceTree(
        tree=tree, skipped=tuple(sorted(skipped)), unreadable=tuple(sorted(unreadable))
    )


def _is_link(mode: int) -> bool:
    return (mode & 0o170000) == 0o120000


def _remove(index: pygit2.Index, path: str) -> None:
    with contextlib.suppress(OSError, pygit2.GitError):  # not in the index: nothing to forget
        index.remove(path)


def _no_space(exc: BaseException) -> bool:
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    text = str(exc).lower()
    return "no space" in text or "quota" in text


def write_checkpoint(
    repo: pygit2.Repository,
    conversation_id: str,
    turn: int,
    kind: CheckpointKind,
    call_id: str | None,
    snapshot: WorkspaceTree | None,
    problem: CoreText | None,
) -> Checkpoint:
    """Commit ``snapshot`` (the empty tree when None) under the conversation's next ref."""
    created = time.time()
    meta = {
        "conversation": conversation_id,
        "turn": turn,
        "kind": kind.value,
        "call": call_id,
        "created": created,
        "problem": problem.english if problem else None,
        "skipped": list(snapshot.skipped) if snapshot else [],
    }
    message = f"checkpoint: turn {turn} {kind.value}\n\n{json.dumps(meta, indent=1)}\n"
    tree = snapshot.tree if snapshot is not None else repo.TreeBuilder().write()
    signature = pygit2.Signature(_SIGNATURE_NAME, _SIGNATURE_MAIL, int(created), 0)
    prefix = f"{REF_ROOT}{conversation_key(conversation_id)}/"
    numbers = [int(name[len(prefix) :]) for name in _ref_names(repo, prefix)]
    ref = f"{prefix}{max(numbers, default=0) + 1:08d}"
    try:
        oid = repo.create_commit(ref, signature, signature, message, tree, [])
    except (OSError, pygit2.GitError) as exc:
        if _no_space(exc):
            raise DiskFull(str(exc)) from exc
        raise
    return Checkpoint(
        id=str(oid),
        conversation_id=conversation_id,
        turn=turn,
        kind=kind,
        created=created,
        call_id=call_id,
        problem=problem.english if problem else None,
        skipped=snapshot.skipped if snapshot else (),
    )


def _ref_names(repo: pygit2.Repository, prefix: str) -> list[str]:
    return [name for name in repo.references if name.startswith(prefix)]


def read_checkpoints(repo: pygit2.Repository, conversation_id: str) -> list[Checkpoint]:
    """The conversation's checkpoints, oldest first."""
    prefix = f"{REF_ROOT}{conversation_key(conversation_id)}/"
    found: list[tuple[int, Checkpoint]] = []
    for name in _ref_names(repo, prefix):
        try:
            commit = repo.revparse_single(name)
        except (KeyError, pygit2.GitError):
            continue  # pruned meanwhile
        checkpoint = parse_checkpoint(commit)
        if checkpoint is not None:
            found.append((int(name[len(prefix) :]), checkpoint))
    return [checkpoint for _, checkpoint in sorted(found, key=lambda item: item[0])]


def parse_checkpoint(obj: object) -> Checkpoint | None:
    """The checkpoint a commit describes (None: not one of ours)."""
    if not isinstance(obj, pygit2.Commit):
        return None
    commit = obj
    _, _, body = commit.message.partition("\n\n")
    try:
        meta = json.loads(body)
        return Checkpoint(
            id=str(commit.id),
            conversation_id=str(meta["conversation"]),
            turn=int(meta["turn"]),
            kind=CheckpointKind(meta["kind"]),
            created=float(meta["created"]),
            call_id=meta.get("call"),
            problem=meta.get("problem"),
            skipped=tuple(meta.get("skipped") or ()),
        )
    except (ValueError, KeyError, TypeError):
        return None


def conversation_keys(repo: pygit2.Repository) -> set[str]:
    """The ref components of every conversation with checkpoints."""
    keys: set[str] = set()
    for name in repo.references:
        if name.startswith(REF_ROOT):
            keys.add(name[len(REF_ROOT) :].split("/", 1)[0])
    return keys


def directory_size(path: Path) -> int:
    """Bytes used by the files under ``path``."""
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total
