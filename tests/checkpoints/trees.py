"""A folder's whole state (paths, kinds, modes, contents, link targets) for exact comparisons."""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: path → ("file", mode, bytes) | ("link", 0, target) | ("dir", mode, b"")
Tree = dict[str, tuple[str, int, bytes]]


def tree_state(root: Path, *, skip: tuple[str, ...] = ()) -> Tree:
    """Every entry under ``root`` (folders too), except the top-level names in ``skip``."""
    state: Tree = {}
    for folder, dirs, files in os.walk(root):
        rel_folder = Path(folder).relative_to(root)
        if rel_folder.parts and rel_folder.parts[0] in skip:
            continue
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            if rel in skip:
                continue
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                state[rel] = ("link", 0, os.readlink(path).encode())
            elif stat.S_ISDIR(info.st_mode):
                state[rel] = ("dir", stat.S_IMODE(info.st_mode), b"")
            else:
                state[rel] = ("file", stat.S_IMODE(info.st_mode), path.read_bytes())
    return state
