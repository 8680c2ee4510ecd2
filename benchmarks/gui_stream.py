"""Largest event-loop stall while 200,000 text deltas stream into a visible conversation.

A 1 ms Qt timer records the gap between its ticks while the fake agent floods text deltas
through the real adapter, session, bridge and view. Target: largest gap ≤ 50 ms.
Also prints the window process's resident memory before and after the stream (AionUi users
report 2–3 GB in use, ``../shared/reference/product-anchor.md``).
Usage: python benchmarks/gui_stream.py [DELTAS]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402
from PySide6.QtCore import QTimer  # noqa: E402

from desktop.core.events import SessionState  # noqa: E402
from desktop.ui.app import AppContext  # noqa: E402
from desktop.ui.qt_async import run_qt  # noqa: E402
from desktop.ui.startup import finish_startup, make_application  # noqa: E402


def main() -> None:
    deltas = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    tmp = Path(tempfile.mkdtemp())
    os.environ["AGENTDESK_HOME"] = str(tmp / "home")
    scenario = tmp / "flood.json"
    scenario.write_text(json.dumps({"turns": [[{"flood": deltas, "text": "lorem ipsum "}]]}))
    fake = ROOT / "tests" / "fakes" / "fake_aionrs.py"
    cmd = f"{sys.executable} {fake} --json-stream --profile spec --scenario {scenario}"
    app = make_application()
    gaps: list[float] = []
    cpu_gaps: list[float] = []
    last = [time.perf_counter(), time.thread_time()]

    def tick() -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        gaps.append(now - last[0])
        cpu_gaps.append(cpu - last[1])
        last[:] = [now, cpu]

    async def run() -> int:
        await finish_startup()  # what the app loads after its first paint (and gc.freeze)
        context = AppContext(app, argparse.Namespace(path=None, agent=None, agent_cmd=cmd))
        window = context.open_workspace(tmp)
        pane = window.current
        assert pane is not None
        while pane.session.state != SessionState.READY:
            await __import__("asyncio").sleep(0.01)
        rss_before = psutil.Process().memory_info().rss
        timer = QTimer()
        timer.timeout.connect(tick)
        timer.start(1)
        started = time.perf_counter()
        last[:] = [started, time.thread_time()]
        pane.submit("flood", [])
        await pane.session.wait_idle()
        elapsed = time.perf_counter() - started
        timer.stop()
        text = next(i.text for i in pane.transcript.items if i.type == "assistant")
        worst = sorted(gaps)[-5:]
        print(f"platform: {os.environ['QT_QPA_PLATFORM']}, deltas: {deltas:,}")
        print(
            f"streamed {len(text):,} characters in {elapsed:.2f} s; repaints: {pane.view.repaints}"
        )
        print(
            f"largest event-loop stall: {max(gaps) * 1000:.1f} ms (target <= 50); "
            f"five largest: {', '.join(f'{g * 1000:.1f}' for g in worst)} ms"
        )
        # The GUI thread's own CPU time in the same gaps: on a busy machine the wall-clock gap
        # also holds time the OS gave to other processes.
        print(f"largest GUI-thread CPU time between two ticks: {max(cpu_gaps) * 1000:.1f} ms")
        rss_after = psutil.Process().memory_info().rss
        print(
            f"window process RSS: {rss_before / 2**20:.0f} MiB with the conversation open, "
            f"{rss_after / 2**20:.0f} MiB after the stream"
        )
        await context.shutdown()  # closes the window (its agent ends), then the tasks
        return 0

    run_qt(app, run)


if __name__ == "__main__":
    main()
