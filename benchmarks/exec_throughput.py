"""Benchmark: 200,000 text deltas through `agentdesk exec --json` vs a bare json.loads loop.

Both runs use the same producer (the fake aionrs agent flooding ``text_delta`` lines, flushed one
by one as real agents do). The baseline spawns it, sends one ``message`` line and reads and
``json.loads`` every line until ``stream_end``. The measured run is the whole ``agentdesk exec
--json`` process (start-up, session engine, validation, JSON Lines output to a pipe). Target:
ratio ≤ 1.5, and peak memory of the agentdesk process flat in the number of events (printed with
the history on, which keeps the streamed answer, and with ``--no-history``). It also prints the
fixed cost: a 1-prompt exec of a one-event reply (start-up, agent start-up, shutdown).

Run: python benchmarks/exec_throughput.py [--events 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
FAKE = ROOT / "tests" / "fakes" / "fake_aionrs.py"


def producer(folder: Path, events: int) -> list[str]:
    scenario = folder / f"flood-{events}.json"
    step = {"flood": events, "text": "token "} if events > 1 else {"text": "token"}
    scenario.write_text(json.dumps({"prompts": {"go": [step]}}))
    return [sys.executable, str(FAKE), "--json-stream", "--scenario", str(scenario)]


def bare_loop(argv: list[str]) -> float:
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None
    assert proc.stdout is not None
    proc.stdin.write(b'{"type":"message","msg_id":"m","content":"go","input":"go"}\n')
    proc.stdin.flush()
    for line in proc.stdout:
        event = json.loads(line)
        if event["type"] == "stream_end":
            break
    proc.stdin.close()
    proc.wait()
    return time.perf_counter() - started


def exec_run(argv: list[str], workspace: Path, *extra: str) -> tuple[float, int, int]:
    """Seconds, peak RSS in bytes, and number of JSON lines printed."""
    command = [
        sys.executable,
        "-m",
        "desktop",
        "exec",
        "--json",
        "--workspace",
        str(workspace),
        "--agent-cmd",
        " ".join(argv),
        *extra,
        "-p",
        "go",
    ]
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, cwd=workspace)
    peak = 0
    lines = 0

    def count() -> None:
        nonlocal lines
        assert proc.stdout is not None
        for _ in proc.stdout:
            lines += 1

    reader = threading.Thread(target=count)
    reader.start()
    watched = psutil.Process(proc.pid)
    while proc.poll() is None:
        try:
            peak = max(peak, watched.memory_info().rss)
        except psutil.Error:
            break
        time.sleep(0.02)
    reader.join()
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"agentdesk exec failed with {proc.returncode}")
    return elapsed, peak, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        os.environ["AGENTDESK_HOME"] = str(folder / "home")
        workspace = folder / "ws"
        workspace.mkdir()
        argv = producer(folder, options.events)
        small_argv = producer(folder, options.events // 4)
        tiny_argv = producer(folder, 1)
        tiny_bare = [bare_loop(tiny_argv) for _ in range(options.repeat)]
        tiny = [exec_run(tiny_argv, workspace)[0] for _ in range(options.repeat)]
        bare = [bare_loop(argv) for _ in range(options.repeat)]
        runs = [exec_run(argv, workspace) for _ in range(options.repeat)]
        small = exec_run(small_argv, workspace)
        bare_small = exec_run(small_argv, workspace, "--no-history")
        bare_large = exec_run(argv, workspace, "--no-history")
    bare_s = statistics.median(bare)
    exec_s = statistics.median(r[0] for r in runs)
    peak = max(r[1] for r in runs)
    print(f"events: {options.events:,} text_delta (median of {options.repeat})")
    print(f"bare read + json.loads loop: {bare_s:.3f} s")
    print(f"agentdesk exec --json:       {exec_s:.3f} s ({runs[0][2]:,} lines out)")
    print(f"ratio: {exec_s / bare_s:.2f} (target <= 1.5)")
    print(
        f"fixed cost (1 prompt, 1-event reply): exec {statistics.median(tiny):.3f} s "
        f"(range {min(tiny):.3f}-{max(tiny):.3f}), bare loop {statistics.median(tiny_bare):.3f} s"
    )
    quarter = f"{options.events // 4:,}"
    print(
        f"peak RSS of agentdesk exec: {small[1] / 2**20:.1f} MiB at {quarter} events, "
        f"{peak / 2**20:.1f} MiB at {options.events:,} events (history on: it keeps the "
        "streamed answer)"
    )
    print(
        f"peak RSS with --no-history: {bare_small[1] / 2**20:.1f} MiB at {quarter} events, "
        f"{bare_large[1] / 2**20:.1f} MiB at {options.events:,} events"
    )


if __name__ == "__main__":
    main()
