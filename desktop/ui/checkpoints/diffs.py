"""From the checkpoint store's change sets to what the window shows: one diff text for the
review view and the compact words of a "Changes" summary.

Qt-free, so it is cheap to test; the widgets of ``desktop.ui.checkpoints`` and the review use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

from desktop.core.checkpoints.model import ChangeKind, ChangeSet, FileChange

#: File names a summary lists before it says "+N more".
SUMMARY_NAMES = 3


def file_diff(change: FileChange) -> str:
    """The unified diff text of one changed path, with a header even when the store gives no
    hunks (a binary file, a permission change, an empty file added or removed)."""
    path = change.path
    header = f"diff --git a/{path} b/{path}\n"
    if change.diff.strip():
        text = change.diff if change.diff.endswith("\n") else change.diff + "\n"
        # Each file opens with its own ``diff --git`` line, so a file with no hunks before it
        # (a binary one) does not swallow this one's ``---``/``+++`` lines; under it, a removed
        # file needs its "deleted file mode" line to parse.
        if text.startswith("diff --git "):
            header, text = text.split("\n", 1)[0] + "\n", text.split("\n", 1)[1]
        mode = {ChangeKind.ADDED: "new file mode", ChangeKind.DELETED: "deleted file mode"}
        line = mode.get(change.kind)
        if line is not None and not text.startswith(line) and "\n" + line not in text:
            header += f"{line} 100644\n"
        return header + text
    if change.binary:
        old = "/dev/null" if change.kind == ChangeKind.ADDED else f"a/{path}"
        new = "/dev/null" if change.kind == ChangeKind.DELETED else f"b/{path}"
        return header + f"Binary files {old} and {new} differ\n"
    match change.kind:
        case ChangeKind.ADDED:
            return header + "new file mode 100644\n"
        case ChangeKind.DELETED:
            return header + "deleted file mode 100644\n"
        case _:
            return header + "old mode 100644\nnew mode 100755\n"


def combined_diff(changes: ChangeSet) -> str:
    """Every file of ``changes`` as one multi-file diff, in the change set's order."""
    return "".join(file_diff(change) for change in changes.files)


def short_names(files: Sequence[FileChange], limit: int = SUMMARY_NAMES) -> tuple[list[str], int]:
    """The first ``limit`` file names (folders dropped) and how many more there are."""
    names = [PurePosixPath(change.path).name or change.path for change in files[:limit]]
    return names, max(0, len(files) - limit)


def plural(count: int, one: str, many: str) -> str:
    """``one`` for a count of 1, else ``many``, with ``{n}`` replaced by the count (other
    fields stay for ``format``). Both are translated already: English and German need these
    two forms, and there is no English catalogue for Qt's ``%n`` plurals."""
    return (one if count == 1 else many).replace("{n}", str(count))
