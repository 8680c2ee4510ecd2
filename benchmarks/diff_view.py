"""Benchmark: open a 5,000-line change in DiffView (unified and side by side) vs plain text.

Each sample builds a fresh widget, loads the diff, shows it offscreen and runs
``processEvents`` so the first screen is laid out and painted (the lazy syntax colours and
changed-word marks of the visible rows included). The baseline is a bare ``QPlainTextEdit``
given the same diff text with ``setPlainText``, measured the same way in the same run.
"Cold" is the first DiffView of the process: it also pays Pygments' one-time lexer lookup and
import (about 50-70 ms for Python). Target: well under one second; ratios are informational.

Run: python benchmarks/diff_view.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication, QPlainTextEdit, QWidget

from desktop.core.previews import unified_diff
from desktop.ui.diff import DiffView


def cases() -> dict[str, str]:
    """Diffs of three shapes, each with 5,000 changed lines (or more)."""
    old = "".join(
        f"def handler_{i}(request):\n    return respond(request, {i}, 'a')\n" for i in range(2500)
    )
    new = old.replace("'a')", "'b')")
    big_old = "".join(f"value_{i} = compute({i}, 'x')  # row {i}\n" for i in range(5000))
    return {
        "2,500 edited lines (5,000 -/+ rows)": unified_diff(old, new, "handlers.py"),
        "5,000-line new file": unified_diff("", big_old, "values.py"),
        "5,000 edited lines (10,000 -/+ rows)": unified_diff(
            big_old, big_old.replace("'x'", "'y'"), "values.py"
        ),
    }


def timed(app: QApplication, build: Callable[[], QWidget]) -> tuple[float, float]:
    """Wall time and CPU time of this process to build, show and paint one widget."""
    started, cpu = time.perf_counter(), time.process_time()
    widget = build()
    widget.resize(1000, 800)
    widget.show()
    app.processEvents()
    elapsed = (time.perf_counter() - started, time.process_time() - cpu)
    widget.close()
    widget.deleteLater()
    app.processEvents()
    return elapsed


def medians(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return (
        statistics.median(s[0] for s in samples),
        statistics.median(s[1] for s in samples),
    )


def baseline(text: str) -> Callable[[], QWidget]:
    def build() -> QWidget:
        edit = QPlainTextEdit()
        edit.setPlainText(text)
        return edit

    return build


def diff_view(text: str, side_by_side: bool) -> Callable[[], QWidget]:
    def build() -> QWidget:
        view = DiffView(side_by_side=side_by_side)
        view.set_diff(text)
        return view

    return build


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    all_cases = cases()
    first = next(iter(all_cases.values()))
    cold, cold_cpu = timed(app, diff_view(first, False))
    print(
        "cold first DiffView (unified, includes Pygments lexer load): "
        f"{cold * 1000:.0f} ms wall, {cold_cpu * 1000:.0f} ms CPU"
    )
    print("medians of", args.repeat, "runs; CPU = this process only (stable on a busy machine)")
    for name, text in all_cases.items():
        rows = text.count("\n")
        print(f"\n{name}: {rows} diff lines, {len(text) / 1024:.0f} KiB")
        base, base_cpu = medians([timed(app, baseline(text)) for _ in range(args.repeat)])
        print(f"  baseline setPlainText  {base * 1000:6.1f} ms wall  {base_cpu * 1000:6.1f} ms CPU")
        for label, side in (("unified", False), ("side by side", True)):
            samples = [timed(app, diff_view(text, side)) for _ in range(args.repeat)]
            wall, cpu = medians(samples)
            worst = max(s[0] for s in samples)
            print(
                f"  DiffView {label:<13} {wall * 1000:6.1f} ms wall  {cpu * 1000:6.1f} ms CPU"
                f"  ratio {wall / base:.2f} wall, {cpu / base_cpu:.2f} CPU"
                f"  (slowest {worst * 1000:.0f} ms)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
