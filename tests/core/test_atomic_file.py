"""``atomic_write``: the one way files are replaced (permissions, text and bytes, no leftovers)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from desktop.core.atomic_file import atomic_write


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_private_by_default_in_a_new_private_folder(tmp_path: Path) -> None:
    target = tmp_path / "config" / "settings.json"
    atomic_write(target, "{}\n", durable=True)
    assert target.read_text(encoding="utf-8") == "{}\n"
    assert _mode(target) == 0o600
    assert _mode(target.parent) == 0o700
    atomic_write(target, b"\x00\xff")  # bytes as they are
    assert target.read_bytes() == b"\x00\xff"
    assert os.listdir(target.parent) == ["settings.json"]


def test_mode_none_keeps_the_replaced_files_mode_and_new_files_follow_the_umask(
    tmp_path: Path,
) -> None:
    script = tmp_path / "run.sh"
    script.write_text("old", encoding="utf-8")
    script.chmod(0o755)
    atomic_write(script, "new ✓", mode=None)
    assert script.read_text(encoding="utf-8") == "new ✓" and _mode(script) == 0o755
    umask = os.umask(0o022)
    try:
        atomic_write(tmp_path / "new.txt", "x", mode=None)
    finally:
        os.umask(umask)
    assert _mode(tmp_path / "new.txt") == 0o644


def test_a_failed_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    folder = tmp_path / "extensions"
    (folder / "one").mkdir(parents=True)
    with pytest.raises(IsADirectoryError):
        atomic_write(folder, "x")  # a folder is not replaced by a file
    assert sorted(os.listdir(tmp_path)) == ["extensions"]
    assert os.listdir(folder) == ["one"]
