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

Wall and CPU times on a shared machine swing by ±30 % from run to run (other processes, CPU
frequency); ``--instructions`` adds the one steady figure: instructions executed up to the first
paint, counted by valgrind's callgrind (one run each, ~20 s; needs ``valgrind``).

Usage: python benchmarks/gui_startup.py [RUNS] [--instructions]
       (QT_QPA_PLATFORM=offscreen or an X DISPLAY)
Prints the medians and minima and their ratios (target <= 1.3).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The baseline: a bare ``QMainWindow`` with a title and one line of text in the platform's
#: default font (a window a user can read: without text, fontconfig and the first font, ~35 M
#: instructions, never load, and that is a cost no real window avoids). ``--empty``: the window
#: without the label (no text at all), for reference.
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
w.setWindowTitle("A bare window")
if "--empty" not in sys.argv:
    from PySide6.QtWidgets import QLabel
    w.setCentralWidget(QLabel("A bare PySide6 window with one line of text"))
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
                if os.environ.get("BENCH_FIRST_PAINT_ONLY"):
                    os._exit(0)
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


def instructions(code: str, *args: str) -> int:
    """Instructions the child executes up to its first paint (callgrind's total)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BENCH_FIRST_PAINT_ONLY": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as out:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg.out",
                   sys.executable, "-c", code, *args]  # fmt: skip
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    match = re.search(r"Collected : (\d+)", done.stderr)
    if match is None:
        raise RuntimeError(f"callgrind gave no count:\n{done.stderr[-2000:]}")
    return int(match.group(1))


def _line(label: str, values: list[float]) -> str:
    return f"{label}: median {statistics.median(values):5.0f} ms (min {min(values):4.0f})"


def main() -> None:
    numbers = [arg for arg in sys.argv[1:] if arg.isdigit()]
    runs = int(numbers[0]) if numbers else 15
    count = "--instructions" in sys.argv[1:]
    if count and shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind (apt install valgrind)")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    fake = ROOT / "tests" / "fakes" / "fake_aionrs.py"
    with tempfile.TemporaryDirectory() as tmp:
        # Isolated through the XDG folders, not AGENTDESK_HOME: the run takes the path a user's
        # start takes (platformdirs resolves the folders before the first paint).
        os.environ.pop("AGENTDESK_HOME", None)
        for name in ("CONFIG", "DATA", "CACHE", "STATE"):
            os.environ[f"XDG_{name}_HOME"] = str(Path(tmp) / name.lower())
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        # A child ends with os._exit, which leaves its single-instance socket behind as a crash
        # would; the next start would then try it (QtNetwork, a refused connection). A clean
        # quit removes it, so each run removes it too, from the children's own TMPDIR.
        sockets = Path(tmp) / "tmp"
        sockets.mkdir()
        os.environ["TMPDIR"] = str(sockets)
        agent = f"{sys.executable} {fake} --json-stream --profile spec"

        def ours_run() -> list[tuple[float, float]]:
            rows = measure(OURS, agent, tmp)
            for stale in sockets.iterdir():
                stale.unlink()
            return rows

        measure(BARE), ours_run()  # warm-up: bytecode, caches, page cache
        bare: list[tuple[float, float]] = []
        ours: list[tuple[float, float]] = []
        ready: list[tuple[float, float]] = []
        for _ in range(runs):  # interleaved, so both see the same machine state
            bare.append(measure(BARE)[0])
            first, pane = ours_run()
            ours.append(first)
            ready.append(pane)
        if count:
            counted = (instructions(BARE), instructions(OURS, agent, tmp))
    print(f"platform: {os.environ['QT_QPA_PLATFORM']}, runs: {runs}")
    for index, kind in ((0, "wall"), (1, "CPU ")):
        b = [row[index] for row in bare]
        o = [row[index] for row in ours]
        print(_line(f"{kind} bare PySide6 window, first paint", b))
        print(_line(f"{kind} Agent Desk window, first paint  ", o))
        ratio = statistics.median(o) / statistics.median(b)
        paired = statistics.median(x / y for x, y in zip(o, b, strict=True))
        print(
            f"{kind} ratio: {ratio:.2f} (of minima {min(o) / min(b):.2f}, median of the "
            f"{len(o)} back-to-back pairs {paired:.2f}; target <= 1.3)"
        )
    print(_line("wall conversation painted (core, agent, renderers)", [r[0] for r in ready]))
    if count:
        print(
            f"instructions to first paint: bare {counted[0] / 1e6:.0f} M, Agent Desk "
            f"{counted[1] / 1e6:.0f} M, ratio {counted[1] / counted[0]:.2f} (target <= 1.3)"
        )


if __name__ == "__main__":
    main()
