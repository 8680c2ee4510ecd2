"""PySide's import hook no longer reads the source of every module imported after it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import linecache, sys
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "desktop":
    import desktop.ui  # what the app imports before its other window modules
else:
    import PySide6.QtCore  # PySide alone: its hook scans what comes next
import probe_module
print(any(name.endswith("probe_module.py") for name in linecache.cache))
from PySide6.QtCore import QObject
print(QObject().objectName() == "" and hasattr(QObject, "objectName"))  # normal Qt names
"""


def _scanned(tmp_path: Path, first: str) -> list[str]:
    (tmp_path / "probe_module.py").write_text("VALUE = 1\n")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path), first],
        env={"PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.split()


def test_pyside_alone_reads_each_new_module_source(tmp_path: Path) -> None:
    """The cost being avoided exists (if PySide drops it, this test says so)."""
    assert _scanned(tmp_path, "pyside") == ["True", "True"]


def test_desktop_ui_turns_the_scan_off(tmp_path: Path) -> None:
    assert _scanned(tmp_path, "desktop") == ["False", "True"]
