"""The first window paints before asyncio, pydantic, the core and the renderers are imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Modules that cost most of a second together; ``desktop.ui.app`` loads them after the paint.
HEAVY = ("asyncio", "qasync", "pydantic", "pygments", "markdown_it", "keyring",
         "desktop.core.events", "desktop.core.session", "desktop.core.settings",
         "desktop.ui.pane", "desktop.ui.diff", "desktop.ui.approvals")  # fmt: skip


def test_window_shell_imports_nothing_heavy(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "import desktop.ui.app as a, argparse\n"
        "ctx = a.AppContext(app, argparse.Namespace(path=None, agent=None, agent_cmd='x'))\n"
        f"w = ctx.open_workspace(__import__('pathlib').Path({str(tmp_path)!r}), shell_only=True)\n"
        "a.show_painted(app, w)\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    env = {"QT_QPA_PLATFORM": "offscreen", "AGENTDESK_HOME": str(tmp_path / "home"),
           "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    loaded = set(done.stdout.split())
    assert "desktop.ui.window" in loaded and "desktop.ui.placeholder" in loaded
    assert sorted(name for name in HEAVY if name in loaded) == []
