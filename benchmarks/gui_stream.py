"""Largest event-loop stall while an answer streams into a visible conversation.

A 1 ms Qt timer records the gap between its ticks while the fake agent streams through the real
adapter, session, bridge and view. Three streams, each into an empty conversation and into one
that already holds 1,000 turns (loaded into the window's transcript model, as history reopens
it): plain "lorem ipsum" text deltas (``--deltas``, default 200,000), and realistic markdown
(``markdown``: headings, paragraphs, lists, code blocks in Python, Rust, TypeScript and shell,
tables; ``--kb`` KB, default 300, in ``--chunks`` deltas, default 3,000). Target: largest stall
≤ 16 ms. Also prints the window process's resident memory before and after the stream.

The prompt is typed into the composer (a key every 50 ms, Enter sends it); the fake agent starts
answering ``--first-token`` seconds later (default 1.0: a hosted model's time to first token);
the figures include the typing and the wait.

The first row is the baseline, measured in the same run: the same window, open for as long as
the plain stream took, with nothing streaming. Its largest stall is what the machine alone
costs (a loaded machine preempts the GUI thread); "largest GUI CPU" (the GUI thread's own CPU
time in the longest gap) is the app's share of a stall.

``--profile FILE`` (diagnosis, distorts the figures): each gap over 16 ms is profiled on its
own (cProfile, restarted at every tick) and its costliest functions appended to ``FILE``; the
time a gap spent outside Python (Qt's layout and painting) is the gap minus the profiled total.

Usage: python benchmarks/gui_stream.py [--deltas N] [--kb KB] [--chunks N] [--only plain|markdown]
       [--first-token SECONDS] [--idle SECONDS] [--profile FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402
from PySide6.QtCore import Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from benchmarks.long_conversation import turn_entries  # noqa: E402
from desktop.core.events import SessionState  # noqa: E402
from desktop.ui.app import AppContext  # noqa: E402
from desktop.ui.garbage import keep_long_lived  # noqa: E402
from desktop.ui.qt_async import run_qt  # noqa: E402
from desktop.ui.startup import finish_startup, make_application  # noqa: E402

#: Pieces of a realistic answer, repeated (numbered) up to the size asked for.
_SECTION = """## Part {n}: the retry policy

The client retries **idempotent** calls only; see `retry.py` and [the RFC](https://example.com/rfc{n}).
A longer paragraph explains why: the server may have applied the first request before the
connection dropped, so retrying a `POST` could charge twice. Backoff doubles each time, with
jitter, and gives up after {n} attempts.

1. Read the configuration.
2. Build the client:
   - set the timeout;
   - set the retry budget.
3. Call the service.

```python
def retry(call, attempts={n}):
    for attempt in range(attempts):
        try:
            return call()
        except OSError:
            time.sleep(2 ** attempt + random.random())
```

```rust
fn backoff(attempt: u32) -> Duration {{
    Duration::from_millis(100 * 2u64.pow(attempt.min({n})))
}}
```

| attempt | delay | gives up |
|---|---|---|
| 1 | 100 ms | no |
| 2 | 200 ms | no |
| {n} | {n}00 ms | yes |

```typescript
export async function retry<T>(call: () => Promise<T>, attempts = {n}): Promise<T> {{
  for (let i = 0; ; i++) {{
    try {{ return await call(); }} catch (e) {{ if (i >= attempts) throw e; }}
  }}
}}
```

```bash
for i in $(seq 1 {n}); do curl -fsS https://example.com/health && break; sleep $((2**i)); done
```

> Note: a `PUT` is idempotent, a `POST` is not.

"""


def realistic_markdown(kb: int) -> str:
    """About ``kb`` KB of markdown as a coding agent writes it."""
    parts, size, n = ["# Retry behaviour, explained\n\n"], 0, 1
    while size < kb * 1024:
        part = _SECTION.format(n=n)
        parts.append(part)
        size += len(part)
        n += 1
    return "".join(parts)


def run_one(kind: str, args: argparse.Namespace, turns: int) -> dict[str, float]:
    """Stream one answer (``plain`` or ``markdown``) into a conversation of ``turns`` turns."""
    tmp = Path(tempfile.mkdtemp())
    os.environ["AGENTDESK_HOME"] = str(tmp / "home")
    workspace = tmp / "workspace"  # not the app's home: a turn's checkpoint hashes the workspace
    workspace.mkdir()
    scenario = tmp / "stream.json"
    if kind == "plain":
        step: dict[str, object] = {"flood": args.deltas, "text": "lorem ipsum "}
    else:
        step = {"text": realistic_markdown(args.kb), "chunks": args.chunks}
    scenario.write_text(json.dumps({"turns": [[{"sleep": args.first_token}, step]]}))
    fake = ROOT / "tests" / "fakes" / "fake_aionrs.py"
    cmd = f"{sys.executable} {fake} --json-stream --profile spec --scenario {scenario}"
    app = make_application()
    gaps: list[float] = []
    cpu_gaps: list[float] = []
    last = [time.perf_counter(), time.thread_time()]
    result: dict[str, float] = {}
    profiler = [cProfile.Profile()]

    def tick() -> None:
        if args.profile:
            profiler[0].disable()
        now, cpu = time.perf_counter(), time.thread_time()
        gaps.append(now - last[0])
        cpu_gaps.append(cpu - last[1])
        if args.profile and gaps[-1] > 0.016:
            report(args.profile, f"{kind} {turns}", gaps[-1], cpu_gaps[-1], profiler[0])
        last[:] = [now, cpu]
        if args.profile:
            profiler[0] = cProfile.Profile()
            profiler[0].enable()

    async def run() -> int:
        await finish_startup()  # what the app loads after its first paint (and gc.freeze)
        context = AppContext(app, argparse.Namespace(path=None, agent=None, agent_cmd=cmd))
        settings = context.settings.settings  # no update check (its HTTP client loads mid-run)
        context.settings.save(settings.model_copy(update={"check_for_updates": False}))
        window = context.open_workspace(workspace)
        window.resize(1100, 800)
        window.show()
        pane = window.current
        assert pane is not None
        if turns:
            pane.transcript.load(turn_entries(turns))
            keep_long_lived()  # as reopening does: no collection walks them again
        pane.start()  # the agent starts with the first prompt: started here, outside the figures
        while pane.session.state != SessionState.READY:  # noqa: ASYNC110 - a benchmark's poll
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)  # the view settles (its last screen, lazily the rest)
        rss_before = psutil.Process().memory_info().rss
        timer = QTimer()
        timer.timeout.connect(tick)
        timer.start(1)
        started = time.perf_counter()
        last[:] = [started, time.thread_time()]
        if kind == "idle":
            await asyncio.sleep(args.idle)
            text = ""
        else:
            for key in "stream":  # a key a turn, as a fast typist's keys come
                QTest.keyClicks(pane.composer.editor, key)
                await asyncio.sleep(0.05)
            QTest.keyClick(pane.composer.editor, Qt.Key.Key_Return)
            await pane.session.wait_idle()
            while pane.view._dirty:  # noqa: ASYNC110 - the answer is rendered to its end
                await asyncio.sleep(0.01)
            text = [i.text for i in pane.transcript.items if i.type == "assistant"][-1]
        elapsed = time.perf_counter() - started
        timer.stop()
        result.update(
            chars=len(text), seconds=elapsed, repaints=pane.view.repaints,
            stall=max(gaps) * 1000, cpu=max(cpu_gaps) * 1000,
            over=sum(c > 0.010 for c in cpu_gaps),
            rss_before=rss_before / 2**20, rss_after=psutil.Process().memory_info().rss / 2**20,
        )  # fmt: skip
        await context.shutdown()  # closes the window (its agent ends), then the tasks
        return 0

    run_qt(app, run)
    return result


def report(path: str, run: str, gap: float, cpu: float, profiler: cProfile.Profile) -> None:
    """Append the costliest functions of one long gap to ``path``."""
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    total = stats.total_tt  # type: ignore[attr-defined]
    out.write(f"\n=== {run}: gap {gap * 1000:.1f} ms, GUI CPU {cpu * 1000:.1f} ms, "
              f"in Python {total * 1000:.1f} ms\n")  # fmt: skip
    stats.sort_stats("tottime").print_stats(12)
    stats.sort_stats("cumulative").print_stats(16)
    with open(path, "a") as file:
        file.write(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deltas", type=int, default=200_000)
    parser.add_argument("--kb", type=int, default=300)
    parser.add_argument("--chunks", type=int, default=3_000)
    parser.add_argument("--turns", type=int, default=1_000)
    parser.add_argument("--first-token", type=float, default=1.0)
    parser.add_argument("--only", choices=["plain", "markdown"])
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of the baseline")
    parser.add_argument("--profile", help="append a profile of each gap over 16 ms to this file")
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)  # child: KIND TURNS
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one[0], args, int(args.one[1]))))
        return
    import subprocess

    print(f"platform: {os.environ['QT_QPA_PLATFORM']}")
    print("| stream | into | characters | time | repaints | largest stall | largest GUI CPU "
          "| gaps with GUI CPU > 10 ms | RSS before → after |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    runs = [("idle", 0)] + [
        (kind, turns)
        for kind in ([args.only] if args.only else ["plain", "markdown"])
        for turns in (0, args.turns)
    ]
    for kind, turns in runs:
        child = [sys.executable, __file__, "--deltas", str(args.deltas), "--kb", str(args.kb),
                 "--first-token", str(args.first_token),
                 "--chunks", str(args.chunks), "--idle", str(args.idle), "--one", kind,
                 str(turns)] + (["--profile", args.profile] if args.profile else [])  # fmt: skip
        out = subprocess.run(child, capture_output=True, text=True, check=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        into = "empty" if not turns else f"{turns:,} turns"
        name = "none (baseline)" if kind == "idle" else kind
        print(f"| {name} | {into} | {int(r['chars']):,} | {r['seconds']:.2f} s | "
              f"{int(r['repaints'])} | {r['stall']:.1f} ms | {r['cpu']:.1f} ms | "
              f"{int(r['over'])} | "
              f"{r['rss_before']:.0f} → {r['rss_after']:.0f} MiB |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
