"""The import contracts of ``pyproject.toml`` catch what they are for.

``tests/core/test_qt_free.py`` runs ``lint-imports`` on the tree as it is; here a copy of the
tree gets one import it must not have, and the matching contract (and only it) breaks: an
import up the core's layers, and a cycle between two window modules (the window's parts have no
layers contract, only the rule that no package has an import cycle).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = "core layers"
ACYCLIC = "no import cycles"


def _lint_with(tmp_path: Path, module: str, line: str) -> dict[str, str]:
    """Each contract's verdict (KEPT/BROKEN) on a copy of the tree where ``module`` (a path
    under ``desktop``) ends with ``line``."""
    shutil.copytree(ROOT / "desktop", tmp_path / "desktop", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "desktop" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    lint = Path(sys.executable).with_name("lint-imports")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "COLUMNS": "300"}  # one line a contract
    result = subprocess.run(
        [str(lint), "--no-cache"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env=env,
    )
    verdicts = dict(re.findall(r"^(.+?) (KEPT|BROKEN)$", result.stdout, re.MULTILINE))
    assert verdicts, result.stdout + result.stderr
    return verdicts


def _names(verdicts: dict[str, str], state: str) -> list[str]:
    return sorted(name for name, verdict in verdicts.items() if verdict == state)


def test_the_event_model_importing_the_session_breaks_the_core_layers(tmp_path: Path) -> None:
    verdicts = _lint_with(tmp_path, "core/events.py", "from desktop.core import session  # noqa")
    broken = _names(verdicts, "BROKEN")
    assert [name for name in broken if name.startswith(LAYERS)] != []
    assert [name for name in broken if name.startswith(ACYCLIC)] != []  # session imports events
    assert "core is Qt-free" in _names(verdicts, "KEPT")


def test_a_window_module_importing_the_window_back_is_a_cycle(tmp_path: Path) -> None:
    verdicts = _lint_with(tmp_path, "ui/status_bar.py", "from desktop.ui import window  # noqa")
    assert [name for name in _names(verdicts, "BROKEN") if name.startswith(ACYCLIC)] != []
    assert [name for name in _names(verdicts, "KEPT") if name.startswith(LAYERS)] != []
    assert len(_names(verdicts, "BROKEN")) == 1
