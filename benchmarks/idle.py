"""What an idle Agent Desk costs: CPU seconds, wake-ups and RSS over a quiet minute.

Three cases, measured in the same run (issue 19):

- a bare PySide6 window (a ``QWidget`` shown, nothing else): the floor;
- Agent Desk with one window on a workspace (its first conversation open, nothing typed);
- Agent Desk with three windows (two more handed over by ``agentdesk PATH``, as a user would).

The app runs as ``agentdesk WS --agent-cmd FAKE`` (the fake aionrs agent: a real child process
would be counted if one ran; none should before the first prompt), offscreen or on the X display
given by ``--display``. After it logged that start-up finished and a settling pause, each case is
watched for ``--seconds`` (default 60):

- CPU: user + system seconds of the app and of every child process (``/proc/PID/stat``);
- wake-ups: context switches of every thread of the app (``/proc/PID/task/*/status``,
  ``voluntary_ctxt_switches`` + ``nonvoluntary_ctxt_switches``): a thread that wakes up and
  sleeps again switches out at least once, so this counts wake-ups of the whole process (Qt's
  and Python's threads alike), and children's the same way;
- RSS of the app and of its children at the end (``VmRSS``).

    python benchmarks/idle.py [--seconds 60] [--display :78]
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
FAKE = ROOT / "tests" / "fakes" / "fake_aionrs.py"
SETTLE_S = 12.0  # the caret blinks for 10 s after the last input (desktop.ui.cursor_blink)
BARE = """
import sys
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication(sys.argv)
window = QWidget()
window.resize(1000, 700)
window.show()
print("ready", file=sys.stderr, flush=True)
app.exec()
"""


class Sample(NamedTuple):
    """What a process tree used so far."""

    cpu_s: float
    switches: dict[int, int]
    rss_mib: float
    children: int


def _ticks() -> int:
    return os.sysconf("SC_CLK_TCK")


def _switches(pid: int) -> dict[int, int]:
    """Context switches so far of each thread of ``pid`` (by thread id)."""
    counts: dict[int, int] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            lines = (task / "status").read_text().splitlines()
        except FileNotFoundError:  # the thread ended meanwhile
            continue
        counts[int(task.name)] = sum(
            int(line.split()[1])
            for line in lines
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"))
        )
    return counts


def _proc(pid: int) -> tuple[float, dict[int, int], float]:
    """CPU seconds, context switches per thread and RSS MiB of one process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / _ticks()  # utime, stime
    rss = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    return cpu, _switches(pid), rss


def woke(before: dict[int, int], after: dict[int, int]) -> int:
    """Wake-ups between two samples: each thread's growth (a thread born meanwhile counts
    whole; one that ended meanwhile loses its last switches, a small undercount)."""
    return sum(count - before.get(tid, 0) for tid, count in after.items())


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except FileNotFoundError:
            continue
    return found + [g for c in found for g in _children(c)]


def sample(pid: int) -> tuple[Sample, Sample]:
    """The app's own sample and its children's (summed; threads keyed by their ids)."""
    cpu, switches, rss = _proc(pid)
    kids = [_proc(c) for c in _children(pid)]
    own = Sample(cpu, switches, rss, 0)
    merged = {tid: n for kid in kids for tid, n in kid[1].items()}
    sub = Sample(sum(k[0] for k in kids), merged, sum(k[2] for k in kids), len(kids))
    return own, sub


def _wait_for(proc: subprocess.Popen[str], text: str, timeout: float = 60) -> None:
    assert proc.stderr is not None
    deadline = time.monotonic() + timeout
    for line in proc.stderr:
        if text in line:
            return
        if time.monotonic() > deadline:
            break
    proc.kill()
    raise RuntimeError(f"the process did not say {text!r}")


def _drain(proc: subprocess.Popen[str]) -> None:
    """Keep reading the child's stderr (a full pipe would block it) without waking it."""
    import threading

    def read() -> None:
        assert proc.stderr is not None
        for _ in proc.stderr:
            pass

    threading.Thread(target=read, daemon=True).start()


def measure(proc: subprocess.Popen[str], seconds: float) -> dict[str, float]:
    """Watch ``proc`` for ``seconds`` (after a settling pause)."""
    time.sleep(SETTLE_S)  # start-up's last single shots, the caret's last blinks
    own0, kids0 = sample(proc.pid)
    time.sleep(seconds)
    own1, kids1 = sample(proc.pid)
    return {
        "cpu": own1.cpu_s - own0.cpu_s,
        "wakeups": woke(own0.switches, own1.switches),
        "rss": own1.rss_mib,
        "kids": kids1.children,
        "kids_cpu": kids1.cpu_s - kids0.cpu_s,
        "kids_wakeups": woke(kids0.switches, kids1.switches),
        "kids_rss": kids1.rss_mib,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--display", help="an X display (Xvfb) instead of offscreen")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="agentdesk-idle-") as tmp:
        env = {**os.environ, "AGENTDESK_HOME": str(Path(tmp) / "home"), "PYTHONPATH": str(ROOT),
               "QT_API": "pyside6", "AGENTDESK_LOG_LEVEL": "INFO"}  # fmt: skip
        if options.display:
            env.update(DISPLAY=options.display, QT_QPA_PLATFORM="xcb")
        else:
            env["QT_QPA_PLATFORM"] = "offscreen"
        scenario = Path(tmp) / "scenario.json"
        scenario.write_text('{"turns": []}')
        agent = shlex.join([sys.executable, str(FAKE), "--json-stream", "--scenario",
                            str(scenario)])  # fmt: skip
        folders = [Path(tmp) / f"ws{n}" for n in range(3)]
        for folder in folders:
            folder.mkdir()
        rows: list[tuple[str, dict[str, float]]] = []

        bare = subprocess.Popen([sys.executable, "-c", BARE], env=env, text=True,
                                stderr=subprocess.PIPE)  # fmt: skip
        try:
            _wait_for(bare, "ready")
            _drain(bare)
            rows.append(("bare PySide6 window", measure(bare, options.seconds)))
        finally:
            bare.kill()
            bare.wait()

        for windows in (1, 3):
            argv = [sys.executable, "-m", "desktop", str(folders[0]), "--agent-cmd", agent]
            app = subprocess.Popen(argv, env=env, text=True, stderr=subprocess.PIPE)
            try:
                _wait_for(app, "nothing runs until something happens")
                _drain(app)
                for folder in folders[1:windows]:  # handed to the running app, as a user would
                    subprocess.run([sys.executable, "-m", "desktop", str(folder)], env=env,
                                   check=True, timeout=60, capture_output=True)  # fmt: skip
                rows.append((f"Agent Desk, {windows} window(s)", measure(app, options.seconds)))
            finally:
                app.terminate()
                app.wait(30)

    minutes = options.seconds / 60
    print(f"Idle for {options.seconds:g} s (after {SETTLE_S:g} s settling); wake-ups: context "
          "switches of every thread, /proc/PID/task/*/status")  # fmt: skip
    print("| case | CPU s | wake-ups | per s | RSS MiB | children | children CPU s "
          "| children RSS MiB |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for name, r in rows:
        per_s = r["wakeups"] / options.seconds
        print(f"| {name} | {r['cpu']:.2f} | {r['wakeups']:.0f} | {per_s:.2f} | {r['rss']:.0f} "
              f"| {r['kids']:.0f} | {r['kids_cpu']:.2f} | {r['kids_rss']:.0f} |")  # fmt: skip
    base = rows[0][1]
    for name, r in rows[1:]:
        extra = (r["wakeups"] - base["wakeups"]) / minutes
        print(f"{name}: {extra:+.0f} wake-ups per minute over the bare window")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
