"""Time to first painted window: Agent Desk vs a bare PySide6 window, same run, fresh processes.

Agent Desk runs through its real entry point (``desktop.cli.main.main([PATH, "--agent-cmd",
...])``: argument parsing, single-instance check, theme, window); an application-wide event
filter reports the first paint of the workspace window, and then the first paint of its
conversation pane (the core, the agent launcher and the renderers loaded after the first paint).

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
import os, sys, time
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QMainWindow
class F(QObject):
    # The first paint of the workspace window, then of its conversation (agent loaded).
    painted = False
    def eventFilter(self, o, e):
        if e.type() == QEvent.Type.Paint and o.isWidgetType():
            if not self.painted and isinstance(o.window(), QMainWindow):
                self.painted = True
                print(time.perf_counter_ns()); sys.stdout.flush()
            elif self.painted and type(o).__name__ == "ConversationPane":
                print(time.perf_counter_ns()); sys.stdout.flush(); os._exit(0)
        return False
# The real entry point: make_application() adopts this QApplication, nothing else differs.
app = QApplication(sys.argv[:1]); f = F(); app.installEventFilter(f)
from desktop.cli.main import main
main([sys.argv[2], "--agent-cmd", sys.argv[1]])
"""


def measure(code: str, *args: str) -> list[float]:
    """Milliseconds from launch to each timestamp the child prints."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter_ns()
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                         text=True, timeout=60, check=True)  # fmt: skip
    return [(int(line) - start) / 1e6 for line in out.stdout.split()]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    fake = ROOT / "tests" / "fakes" / "fake_aionrs.py"
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["AGENTDESK_HOME"] = str(Path(tmp) / "home")
        agent = f"{sys.executable} {fake} --json-stream --profile spec"
        bare, ours, ready = [], [], []
        for _ in range(runs):  # interleaved, so both see the same machine state
            bare.append(measure(BARE)[0])
            first, pane = measure(OURS, agent, tmp)
            ours.append(first)
            ready.append(pane)
    b, o, r = statistics.median(bare), statistics.median(ours), statistics.median(ready)
    print(f"platform: {os.environ['QT_QPA_PLATFORM']}, runs: {runs}")
    print(f"bare PySide6 window, first paint: median {b:.0f} ms (min {min(bare):.0f})")
    print(f"Agent Desk window, first paint:   median {o:.0f} ms (min {min(ours):.0f})")
    print(f"ratio: {o / b:.2f} (target <= 1.3)")
    print(f"conversation painted (core, agent and renderers loaded): median {r:.0f} ms")


if __name__ == "__main__":
    main()
