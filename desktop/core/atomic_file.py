"""One way to replace a file atomically, for every writer in Agent Desk.

Settings, extension trust, the Codex home, ACP agents' workspace writes and the built-in agent
(its sessions and its Write/Edit tools) all replace files through ``atomic_write``: the data goes
to a temporary file beside the target, which is then renamed over it, so neither a reader nor a
crash ever sees half a file. Standard library only: the built-in agent's process loads it too.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

#: Permissions of a new file whose mode is not given: ``open`` would apply the umask to it.
_OPEN_DEFAULT = 0o666


def atomic_write(
    path: Path, data: str | bytes, *, mode: int | None = 0o600, durable: bool = False
) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8).

    A missing folder is made (owner-only for an owner-only file).

    Args:
        mode: The file's permissions (default: owner-only). None: those of the file it
            replaces, or for a new file what ``open`` would give (the umask's default).
        durable: fsync the data before the rename and the folder after it, so after a crash
            or power loss the file holds either the old or the new content.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if mode is None:
        with contextlib.suppress(FileNotFoundError):
            mode = stat.S_IMODE(path.stat().st_mode)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700 if mode == 0o600 else 0o777)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(tmp, flags, _OPEN_DEFAULT if mode is None else 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable and os.name == "posix":
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
