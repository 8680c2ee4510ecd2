"""Cold start of the frozen app: time to first painted window, against a bare PySide6 window.

Two baselines, both the same bare ``QMainWindow`` as ``benchmarks/gui_startup.py`` (a title and
one line of text in the platform's default font; ``--empty``: no text, reported for reference
with ``--instructions``): run with
this interpreter, and frozen the same way as the app (a onedir built by this script with the
app's PyInstaller options: the same excludes, Qt plugin pruning, ``optimize``, archive and
stripping; ``BARE_SPEC``, built once under ``--build-dir``/bare). The measured runs start the
frozen onedir with ``--smoke-test window`` (the real composition root and start-up path: the
window shell paints before the core is imported, then the rest loads, then exit) and, for
reference, the same from source. Time = process launch to the line reporting the first paint,
runs interleaved. The target is the frozen app against the frozen bare window (<= 1.3). The
first frozen run is reported separately: it is the coldest (files not yet in the page cache).

Wall times on a shared machine swing widely; ``--instructions`` adds the steady figure: the
instructions each frozen program executes up to its first paint, counted by valgrind's callgrind
(up to the first entry of Qt's repaint, ``QWidgetRepaintManager::paintAndFlush``; ~1 min).

Usage: python benchmarks/packaging_startup.py [--build-dir build/packaging] [--runs 7]
       [--instructions]
(build the onedir first: python packaging/build.py freeze; the bare one is built on first use)
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import shutil
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


#: The bare window's spec: the options of ``packaging/agentdesk.spec`` that shape start-up
#: (keep them in step: excludes, plugin pruning, noarchive, optimize, strip, the bootstrap).
BARE_SPEC = """
import os
import sys
sys.path.insert(0, {packaging!r})
from bundle_config import PY_EXCLUDES, QT_EXCLUDES, QT_PLUGIN_EXCLUDES, prune_binaries
a = Analysis([{script!r}], excludes=QT_EXCLUDES + PY_EXCLUDES, noarchive=True, optimize=1)
a.binaries = prune_binaries(a.binaries)
a.datas = [e for e in a.datas
           if not any(p in e[0].replace(os.sep, "/") for p in QT_PLUGIN_EXCLUDES)]
pyz = PYZ(a.pure)
from lazy_ctypes import lazy_ctypes
from pathlib import Path
pyz.dependencies = lazy_ctypes(pyz.dependencies, Path(workpath) / "bootstrap")
exe = EXE(pyz, a.scripts, [], exclude_binaries=True, name="bare", console=True, upx=False,
          strip=False)
coll = COLLECT(exe, a.binaries, a.datas, name="bare", upx=False,
               strip=sys.platform.startswith("linux"))
"""


def frozen_bare(build_dir: Path, code: str) -> Path:
    """The bare window frozen as the app is (built once; rebuilt when its inputs change)."""
    folder = build_dir / "bare"
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "bare_window.py"
    spec = BARE_SPEC.format(packaging=str(ROOT / "packaging"), script=str(script))
    executable = folder / "dist" / "bare" / "bare"
    stamp = folder / "bare.spec"
    inputs = (
        code
        + spec
        + "".join(
            (ROOT / "packaging" / name).read_text(encoding="utf-8")
            for name in ("bundle_config.py", "lazy_ctypes.py")
        )
    )
    recorded = folder / "inputs.txt"
    if executable.exists() and recorded.exists() and recorded.read_text("utf-8") == inputs:
        return executable
    script.write_text(code, encoding="utf-8")
    stamp.write_text(spec, encoding="utf-8")
    print("freezing the bare window (once)...", flush=True)
    subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level=WARN",
         "--distpath", str(folder / "dist"), "--workpath", str(folder / "work"), str(stamp)],
        check=True, cwd=folder, capture_output=True,
    )  # fmt: skip
    if sys.platform.startswith("linux"):  # as build.py freeze does
        sys.path.insert(0, str(ROOT / "packaging"))
        from linux_packages import fix_runpaths

        with contextlib.redirect_stdout(io.StringIO()):  # it echoes each patchelf call
            fix_runpaths(folder / "dist" / "bare")
    recorded.write_text(inputs, encoding="utf-8")
    return executable


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


def _spread(values: list[float]) -> str:
    low, _, high = statistics.quantiles(values, n=4)
    return f"(quartiles {low:.0f}-{high:.0f}, min {min(values):.0f})"


#: Qt's repaint of the window's backing store: the first entry is the first paint of both.
_PAINT_FUNCTION = "QWidgetRepaintManager::paintAndFlush*"


def instructions_to_paint(argv: list[str], env: dict[str, str]) -> int:
    """Instructions ``argv`` executes up to its first paint (callgrind dumps the count when the
    first repaint starts; the bootloader's re-exec is followed)."""
    with tempfile.TemporaryDirectory() as out:
        command = ["valgrind", "--tool=callgrind", "--trace-children=yes",
                   f"--dump-before={_PAINT_FUNCTION}", f"--callgrind-out-file={out}/cg.%p",
                   *argv]  # fmt: skip
        subprocess.run(command, env=env, capture_output=True, timeout=900, check=True)
        dumps = sorted(Path(out).glob("cg.*.1"))
        if not dumps:
            raise RuntimeError(f"{argv[0]}: callgrind saw no paint")
        text = dumps[0].read_text(encoding="utf-8", errors="replace")
    for line in text.splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise RuntimeError(f"{argv[0]}: no callgrind summary")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "packaging")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count the instructions to the first paint of both (callgrind; the steady "
        "figure on a shared machine)",
    )
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt install valgrind)")
    frozen = args.build_dir / "dist" / "agentdesk" / "agentdesk"
    if not frozen.exists():
        raise SystemExit(f"no frozen app at {frozen}: run python packaging/build.py freeze")
    bare = _bare_code()
    bare_frozen = frozen_bare(args.build_dir, bare)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "AGENTDESK_HOME": str(Path(tmp) / "home"), "PYTHONPATH": str(ROOT)}
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        env.setdefault("ANTHROPIC_API_KEY", "benchmark-dummy")  # the agent never starts
        runs: dict[str, list[float]] = {"bare frozen": [], "frozen": [], "bare": [], "source": []}
        source = [sys.executable, "-m", "desktop", "--smoke-test", "window"]
        time_to_line([str(bare_frozen)], "", env)  # warm-up of the bare one (built just now)
        for _ in range(args.runs):  # interleaved, so all see the same machine state
            frozen_argv = [str(frozen), "--smoke-test", "window"]
            runs["frozen"].append(time_to_line(frozen_argv, "window: painted", env))
            runs["bare frozen"].append(time_to_line([str(bare_frozen)], "", env))
            runs["bare"].append(time_to_line([sys.executable, "-c", bare], "", env))
            try:
                runs["source"].append(time_to_line(source, "window: painted", env))
            except RuntimeError as exc:  # the working tree may be mid-edit; frozen still counts
                print(f"from source: {exc}")
        counted = None
        if args.instructions:
            frozen_argv = [str(frozen), "--smoke-test", "window"]
            counted = (instructions_to_paint([str(bare_frozen)], env),
                       instructions_to_paint(frozen_argv, env),
                       instructions_to_paint([str(bare_frozen), "--empty"], env))  # fmt: skip
    print(f"platform: {env['QT_QPA_PLATFORM']}, runs: {args.runs}")
    base = statistics.median(runs["bare frozen"])
    py_base = statistics.median(runs["bare"])
    line = "{:<37}median {:6.0f} ms  {}"
    print(line.format("bare PySide6 window, frozen onedir:", base, _spread(runs["bare frozen"])))
    print(line.format("bare PySide6 window, python:", py_base, _spread(runs["bare"])))
    frozen_median = statistics.median(runs["frozen"])
    ratios = [app / bare for app, bare in zip(runs["frozen"], runs["bare frozen"], strict=True)]
    low, paired, high = statistics.quantiles(ratios, n=4)
    print(line.format("Agent Desk frozen onedir:", frozen_median, _spread(runs["frozen"])))
    print(
        f"  ratio to the frozen bare window {frozen_median / base:.2f} (of the minima "
        f"{min(runs['frozen']) / min(runs['bare frozen']):.2f}; of the pairs: median {paired:.2f}, "
        f"quartiles {low:.2f}-{high:.2f}); target <= 1.3"
    )
    if runs["source"]:
        median = statistics.median(runs["source"])
        print(
            f"Agent Desk from source:              median {median:6.0f} ms  "
            f"(ratio to the python bare window {median / py_base:.2f})"
        )
    print(f"first (coldest) frozen start:        {runs['frozen'][0]:6.0f} ms")
    if counted:
        bare_count, app_count, empty_count = counted
        print(
            f"instructions to the first paint: frozen bare {bare_count / 1e6:.0f} M, Agent Desk "
            f"frozen {app_count / 1e6:.0f} M, ratio {app_count / bare_count:.2f} (target <= 1.3)"
            f"\n  (the bare window without its line of text: {empty_count / 1e6:.0f} M, ratio "
            f"{app_count / empty_count:.2f})"
        )
    print("AionUi: 15-30 s cold start reported (product-anchor.md §5)")


if __name__ == "__main__":
    main()
