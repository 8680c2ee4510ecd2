"""Checkpoint cost on a generated 20,000-file workspace (issue 17: an incremental checkpoint
with a few changed files takes at most 300 ms).

Generates a tree of 20,000 small text files in 400 folders, then times, through the real store
(``desktop.core.checkpoints.store.CheckpointStore``: pygit2, the index as stat cache):

- the first checkpoint (every file hashed and written),
- an incremental checkpoint after changing 5 files (median of several rounds),
- an incremental checkpoint with nothing changed,
- a baseline measured in the same run: ``os.walk`` + ``lstat`` of every file (what any
  change detection has to do at least), so the ratios say what the store adds to it.

Usage: ``python benchmarks/checkpoints.py [--files N] [--rounds R]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from desktop.core.checkpoints.model import CheckpointKind
from desktop.core.checkpoints.store import CheckpointStore


def generate(root: Path, files: int) -> list[Path]:
    """``files`` small text files in folders of 50."""
    paths = []
    for n in range(files):
        folder = root / f"pkg{n // 50:04d}"
        if n % 50 == 0:
            folder.mkdir()
        path = folder / f"module_{n:05d}.py"
        path.write_text(f"# module {n}\n" + "def f(x):\n    return x + 1\n" * 10)
        paths.append(path)
    return paths


def walk_and_stat(root: Path) -> int:
    """The baseline: every file's ``lstat`` via ``os.walk``."""
    count = 0
    for folder, _dirs, names in os.walk(root):
        for name in names:
            os.lstat(os.path.join(folder, name))
            count += 1
    return count


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="agentdesk-bench-") as temp:
        root = Path(temp) / "ws"
        root.mkdir()
        paths = generate(root, options.files)
        store = CheckpointStore.open(root, Path(temp) / "data")
        time.sleep(1.1)  # past the index's racy-git window: the stat cache is trusted
        first = timed(lambda: store.record("bench", 1, CheckpointKind.TURN_BEFORE))
        time.sleep(1.1)
        store.prepare()  # the index written after the racy window
        baseline = statistics.median(timed(lambda: walk_and_stat(root)) for _ in range(5))
        changed, unchanged = [], []
        for round_ in range(options.rounds):
            for path in paths[round_ * 997 % len(paths) :][:5]:
                path.write_text(path.read_text() + f"# round {round_}\n")
            changed.append(timed(lambda: store.record("bench", 1, CheckpointKind.TOOL_AFTER)))
            unchanged.append(timed(lambda: store.record("bench", 1, CheckpointKind.TOOL_AFTER)))
        incremental = statistics.median(changed)
        idle = statistics.median(unchanged)
        print(f"workspace: {len(paths):,} files")
        print(f"baseline os.walk + lstat:         {baseline * 1000:8.1f} ms")
        print(
            f"first checkpoint (all hashed):    {first * 1000:8.1f} ms  ({first / baseline:.1f}x)"
        )
        print(
            f"incremental, 5 files changed:     {incremental * 1000:8.1f} ms  "
            f"({incremental / baseline:.1f}x baseline; median of {options.rounds})"
        )
        print(f"incremental, nothing changed:     {idle * 1000:8.1f} ms  ({idle / baseline:.1f}x)")
        verdict = "within" if incremental <= 0.300 else "OVER"
        print(f"target: incremental <= 300 ms: {verdict}")


if __name__ == "__main__":
    main()
