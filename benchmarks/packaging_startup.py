"""Cold start of the frozen app: time to first painted window, against a bare PySide6 window.

The baseline is the same bare ``QMainWindow`` as ``benchmarks/gui_startup.py`` (run with this
interpreter); the measured runs start the frozen onedir with ``--smoke-test window`` (the real
composition root: settings, window, built-in agent spawned, then exit) and, for reference, the
same from source. Time = process launch to the line reporting the first paint, runs interleaved.
The first frozen run is reported separately: it is the coldest (files not yet in the page cache).

Usage: python benchmarks/packaging_startup.py [--build-dir build/packaging] [--runs 7]
(build the onedir first: python packaging/build.py freeze)
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bare_code() -> str:
    spec = importlib.util.spec_from_file_location(
        "gui_startup", ROOT / "benchmarks" / "gui_startup.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.BARE)


def time_to_line(argv: list[str], marker: str, env: dict[str, str]) -> float:
    """Milliseconds from launch until a stdout line containing ``marker``; waits for exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True
    )
    assert proc.stdout is not None
    elapsed = None
    for line in proc.stdout:
        if elapsed is None and marker in line:
            elapsed = (time.perf_counter() - start) * 1000
    if proc.wait(60) != 0 or elapsed is None:
        raise RuntimeError(f"{argv[:4]} failed (exit {proc.returncode})")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "packaging")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    frozen = args.build_dir / "dist" / "agentdesk" / "agentdesk"
    if not frozen.exists():
        raise SystemExit(f"no frozen app at {frozen}: run python packaging/build.py freeze")
    bare = _bare_code()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "AGENTDESK_HOME": str(Path(tmp) / "home"), "PYTHONPATH": str(ROOT)}
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        env.setdefault("ANTHROPIC_API_KEY", "benchmark-dummy")  # the agent starts, never calls
        results: dict[str, list[float]] = {"bare": [], "frozen": [], "source": []}
        source = [sys.executable, "-m", "desktop", "--smoke-test", "window"]
        for _ in range(args.runs):
            frozen_argv = [str(frozen), "--smoke-test", "window"]
            results["frozen"].append(time_to_line(frozen_argv, "window: painted", env))
            results["bare"].append(time_to_line([sys.executable, "-c", bare], "", env))
            try:
                results["source"].append(time_to_line(source, "window: painted", env))
            except RuntimeError as exc:  # the working tree may be mid-edit; frozen still counts
                print(f"from source: {exc}")
    base = statistics.median(results["bare"])
    print(f"platform: {env['QT_QPA_PLATFORM']}, runs: {args.runs}")
    print(f"bare PySide6 window (python):     median {base:6.0f} ms")
    for name, label in (
        ("frozen", "Agent Desk frozen onedir:"),
        ("source", "Agent Desk from source:"),
    ):
        values = results[name]
        if not values:
            continue
        median = statistics.median(values)
        print(f"{label:<33} median {median:6.0f} ms  (ratio {median / base:.2f})")
    print(f"first (coldest) frozen start:     {results['frozen'][0]:6.0f} ms")
    print("AionUi: 15-30 s cold start reported (product-anchor.md §5)")


if __name__ == "__main__":
    main()
