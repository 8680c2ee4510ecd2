"""Time per keystroke of the ``@`` file finder on a 50,000-file tree, beside a plain substring
filter over the same paths (the baseline, measured in the same run).

Builds a real tree on disk (folders and names like a large monorepo, a ``.gitignore`` that
hides a build folder), lists it with ``list_files`` (the finder's worker-thread listing), then
types each query one character at a time, as the composer asks: every prefix is one
``FileIndex.query``. Prints the median and worst time per keystroke, the baseline's, their
ratio, and the listing time. Target: ≤ 50 ms per keystroke.
Usage: python benchmarks/file_finder.py [FILES]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop.core.context.files import FileIndex, list_files  # noqa: E402

WORDS = [
    "src",
    "lib",
    "app",
    "core",
    "ui",
    "view",
    "model",
    "store",
    "util",
    "test",
    "spec",
    "api",
    "client",
    "server",
    "auth",
    "user",
    "session",
    "config",
    "theme",
    "icon",
    "widget",
    "panel",
    "editor",
    "render",
    "parse",
    "token",
    "index",
    "cache",
    "queue",
    "worker",
    "handler",
    "router",
    "schema",
    "migration",
    "fixture",
    "helper",
    "service",
    "adapter",
    "bridge",
]
SUFFIXES = (".py", ".ts", ".tsx", ".md", ".json", ".rs", ".go", ".css")
QUERIES = ("composer", "usrsvc", "ui/theme", "index.ts", "qwzx", "config_migration")


def make_tree(root: Path, count: int) -> None:
    """``count`` files in nested folders (seeded: the same tree every run), plus a build
    folder that ``.gitignore`` hides."""
    rng = random.Random(18)
    made = 0
    while made < count:
        depth = rng.randint(1, 5)
        folder = root.joinpath(*(rng.choice(WORDS) for _ in range(depth)))
        folder.mkdir(parents=True, exist_ok=True)
        for _ in range(rng.randint(5, 40)):
            name = f"{rng.choice(WORDS)}_{rng.choice(WORDS)}{rng.randint(0, 99)}"
            path = folder / (name + rng.choice(SUFFIXES))
            if not path.exists():
                path.write_bytes(b"")
                made += 1
            if made >= count:
                break
    (root / "composer").mkdir(exist_ok=True)
    (root / "composer" / "composer.py").write_bytes(b"")
    build = root / "build"
    build.mkdir(exist_ok=True)
    for i in range(2000):
        (build / f"out{i}.js").write_bytes(b"")
    (root / ".gitignore").write_text("build/\n")


def substring(paths: list[str], query: str, limit: int = 50) -> list[str]:
    """The baseline: the paths that hold ``query`` whole (case-insensitive), first ``limit``."""
    wanted = query.lower()
    return [p for p in paths if wanted in p.lower()][:limit]


def keystrokes(query_fn: object, queries: tuple[str, ...]) -> list[float]:
    """Seconds per keystroke: each prefix of each query, as typed."""
    times: list[float] = []
    for query in queries:
        for end in range(1, len(query) + 1):
            start = time.perf_counter()
            query_fn(query[:end])  # type: ignore[operator]
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="?", type=int, default=50_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="finder-bench-") as folder:
        root = Path(folder)
        make_tree(root, args.files)
        start = time.perf_counter()
        paths = list_files(root)
        listed = time.perf_counter() - start
        start = time.perf_counter()
        index = FileIndex(paths)
        indexed = time.perf_counter() - start
    assert not any(p.startswith("build/") for p in paths)
    best = index.query("composer")[0].path
    finder = keystrokes(index.query, QUERIES)
    baseline = keystrokes(lambda q: substring(paths, q), QUERIES)
    median, worst = statistics.median(finder), max(finder)
    base_median = statistics.median(baseline)
    print(
        f"files listed: {len(paths):,} in {listed:.2f} s (index built in {indexed * 1000:.0f} ms)"
    )
    print(f"keystrokes: {len(finder)} over {len(QUERIES)} queries; 'composer' → {best}")
    print(f"finder   : median {median * 1000:6.1f} ms, worst {worst * 1000:6.1f} ms per keystroke")
    print(
        f"substring: median {base_median * 1000:6.1f} ms, worst {max(baseline) * 1000:6.1f} ms"
        " per keystroke (baseline)"
    )
    print(f"ratio (finder / substring, medians): {median / base_median:.2f}")
    print(f"target ≤ 50 ms per keystroke: {'met' if worst <= 0.050 else 'NOT met'} (worst)")


if __name__ == "__main__":
    main()
