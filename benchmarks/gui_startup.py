"""Time to first painted window: Agent Desk vs a bare PySide6 window, same run, fresh processes.

Usage: python benchmarks/gui_startup.py [RUNS]   (QT_QPA_PLATFORM=offscreen or an X DISPLAY)
Prints the median of each and their ratio (target ≤ 1.3).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BARE = """
import sys, time
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QMainWindow
class F(QObject):
    def eventFilter(self, o, e):
        if e.type() == QEvent.Type.Paint:
            print(time.perf_counter_ns()); sys.stdout.flush(); os._exit(0)
        return False
import os
app = QApplication(sys.argv[:1]); w = QMainWindow(); w.resize(1120, 780)
f = F(); w.installEventFilter(f); w.show(); app.exec()
"""

OURS = """
import argparse, os, sys, time, asyncio
from pathlib import Path
from PySide6.QtCore import QEvent, QObject
from desktop.ui.app import AppContext, make_application
from desktop.ui.qt_async import run_qt
class F(QObject):
    def eventFilter(self, o, e):
        if e.type() == QEvent.Type.Paint:
            print(time.perf_counter_ns()); sys.stdout.flush(); os._exit(0)
        return False
app = make_application()
f = F()
async def main():
    ctx = AppContext(app, argparse.Namespace(path=None, agent=None, agent_cmd=sys.argv[1]))
    ctx.open_workspace(Path(sys.argv[2])).installEventFilter(f)
    await asyncio.sleep(30)
    return 1
run_qt(app, main)
"""


def measure(code: str, *args: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter_ns()
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                         text=True, timeout=60, check=True)  # fmt: skip
    return (int(out.stdout.strip().splitlines()[-1]) - start) / 1e6


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    fake = ROOT / "tests" / "fakes" / "fake_aionrs.py"
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["AGENTDESK_HOME"] = str(Path(tmp) / "home")
        agent = f"{sys.executable} {fake} --json-stream --profile spec"
        bare, ours = [], []
        for _ in range(runs):  # interleaved, so both see the same machine state
            bare.append(measure(BARE))
            ours.append(measure(OURS, agent, tmp))
    b, o = statistics.median(bare), statistics.median(ours)
    print(f"platform: {os.environ['QT_QPA_PLATFORM']}, runs: {runs}")
    print(f"bare PySide6 window, first paint: median {b:.0f} ms (min {min(bare):.0f})")
    print(f"Agent Desk window, first paint:   median {o:.0f} ms (min {min(ours):.0f})")
    print(f"ratio: {o / b:.2f} (target <= 1.3)")


if __name__ == "__main__":
    main()
