"""Time to first painted window: Agent Desk vs a bare PySide6 window, same run, fresh processes.

Agent Desk runs through its real entry point (``desktop.cli.main.main([PATH, "--agent-cmd",
...])``: argument parsing, single-instance check, theme, window). Both children watch their main
window with an event filter on that window only (an application-wide Python filter would itself
cost start-up time: it makes PySide build wrappers, and so classes and enums, for Qt's private
objects). For Agent Desk the harness makes ``QMainWindow`` a subclass that installs the filter on
itself, so it needs to know nothing of the app's classes. After the first paint Agent Desk keeps
running until its conversation pane paints (the core, the agent launcher and the renderers are
loaded after the first paint).

Each child reports wall time (from the parent's launch) and its own CPU time (user + system) at
the first paint; on a shared, busy machine the CPU figures are the steadier comparison.
Both run from compiled bytecode, as an installed app does: the children write and read ``.pyc``
files under a temporary ``PYTHONPYCACHEPREFIX`` (even when ``PYTHONDONTWRITEBYTECODE`` is set,
which would make every edited module compile on each start), after one uncounted warm-up run.

Usage: python benchmarks/gui_startup.py [RUNS]   (QT_QPA_PLATFORM=offscreen or an X DISPLAY)
Prints the medians and minima and their ratios (target <= 1.3).
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
import os, sys, time
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QMainWindow
class F(QObject):
    def eventFilter(self, o, e):
        if e.type() == QEvent.Type.Paint:
            print(time.perf_counter_ns(), time.process_time_ns()); sys.stdout.flush(); os._exit(0)
        return False
app = QApplication(sys.argv[:1]); w = QMainWindow(); w.resize(1120, 780)
f = F(); w.installEventFilter(f); w.show(); app.exec()
"""

OURS = """
import os, sys, time
from desktop.cli.main import main  # first, as the agentdesk launcher imports it (no Qt in it)
from PySide6 import QtWidgets
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication
class F(QObject):
    # The first paint of a main window; then (watching everything) of the conversation pane.
    painted = False
    def eventFilter(self, o, e):
        if e.type() == QEvent.Type.Paint:
            if not self.painted:
                self.painted = True
                print(time.perf_counter_ns(), time.process_time_ns()); sys.stdout.flush()
                QApplication.instance().installEventFilter(self)
            elif type(o).__name__ == "ConversationPane":
                print(time.perf_counter_ns(), time.process_time_ns()); sys.stdout.flush()
                os._exit(0)
        return False
f = F()
class Watched(QtWidgets.QMainWindow):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.installEventFilter(f)
QtWidgets.QMainWindow = Watched  # before the app imports it: its windows derive from Watched
# The real entry point: it makes the QApplication (make_application), as agentdesk does.
main([sys.argv[2], "--agent-cmd", sys.argv[1]])
"""


def measure(code: str, *args: str) -> list[tuple[float, float]]:
    """(wall ms from launch, child CPU ms) for each line the child prints."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter_ns()
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                         text=True, timeout=60, check=True)  # fmt: skip
    rows = [line.split() for line in out.stdout.splitlines() if line.strip()]
    return [((int(wall) - start) / 1e6, int(cpu) / 1e6) for wall, cpu in rows]


def _line(label: str, values: list[float]) -> str:
    return f"{label}: median {statistics.median(values):5.0f} ms (min {min(values):4.0f})"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    fake = ROOT / "tests" / "fakes" / "fake_aionrs.py"
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["AGENTDESK_HOME"] = str(Path(tmp) / "home")
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        agent = f"{sys.executable} {fake} --json-stream --profile spec"
        measure(BARE), measure(OURS, agent, tmp)  # warm-up: bytecode, caches, page cache
        bare: list[tuple[float, float]] = []
        ours: list[tuple[float, float]] = []
        ready: list[tuple[float, float]] = []
        for _ in range(runs):  # interleaved, so both see the same machine state
            bare.append(measure(BARE)[0])
            first, pane = measure(OURS, agent, tmp)
            ours.append(first)
            ready.append(pane)
    print(f"platform: {os.environ['QT_QPA_PLATFORM']}, runs: {runs}")
    for index, kind in ((0, "wall"), (1, "CPU ")):
        b = [row[index] for row in bare]
        o = [row[index] for row in ours]
        print(_line(f"{kind} bare PySide6 window, first paint", b))
        print(_line(f"{kind} Agent Desk window, first paint  ", o))
        ratio = statistics.median(o) / statistics.median(b)
        print(f"{kind} ratio: {ratio:.2f} (of minima {min(o) / min(b):.2f}; target <= 1.3)")
    print(_line("wall conversation painted (core, agent, renderers)", [r[0] for r in ready]))


if __name__ == "__main__":
    main()
