"""Opening a long stored conversation: open → painted, the longest event-loop stall, RSS.

Measurement only (issue 19; the transcript is virtualized). For each size (``--turns``,
default 125 250 500 1000) it writes a conversation into a fresh history database through the
history store: each turn a prompt, a markdown answer with a code block and a tool card (a
``Write`` that ran), made by the core ``Transcript`` from session events as a live turn is. Then
a child process runs the real app, ``agentdesk WS`` (offscreen, or the X display of
``--display``), waits until it has settled with its new conversation, opens the stored one the
way a click on its sidebar row does (``open_in``, what ``--conversation`` calls too), and
reports:

- open → painted: from the start of ``open_in`` to the first paint of the transcript once its
  last screen is built (every row in the viewport a widget, none an estimated gap);
- whole: until the conversation's beginning (read after its end) is in and has rows;
- longest stall: the longest the Qt event loop did not run a 1 ms timer, from the start of
  ``open_in`` until the whole conversation is in, i.e. how long the window did not respond,
  beside the GUI thread's own CPU in that pass, and the largest GUI CPU of any pass (on a
  shared machine a stall can be the thread preempted; its CPU is what the app spent);
- RSS after, and RSS of the same app opened on an empty conversation (the difference is what
  the conversation costs).

Beside it, in the same run, a bare Qt baseline: a ``QTextBrowser`` given the same turns as one
markdown document (open → painted and RSS of that process).

    python benchmarks/long_conversation.py [--turns 125 250 ...] [--display :78]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ANSWER = """## Step {n}

The function `retry` waits **twice as long** after each failure:

```python
def retry(call, attempts={n}):
    for attempt in range(attempts):
        try:
            return call()
        except OSError:
            time.sleep(2 ** attempt)
```

- it gives up after {n} attempts;
- it only retries on `OSError`.
"""


def rss_mib(pid: int | str = "self") -> float:
    """Resident memory of a process, MiB (``/proc/PID/status``: VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# ---------------------------------------------------------------------- the conversations


def turn_entries(turns: int) -> list[Any]:
    """The transcript entries of ``turns`` turns (prompt, markdown answer, a ``Write`` that ran),
    made by the core ``Transcript`` from session events as a live turn is."""
    from desktop.core.events import (
        TextDelta,
        ToolCategory,
        ToolFinished,
        ToolRequested,
        ToolStarted,
        TurnEnded,
        TurnEndReason,
        TurnStarted,
    )
    from desktop.core.transcript import Transcript

    transcript = Transcript()
    for n in range(turns):
        turn, call = f"turn{n}", f"call{n}"
        path = f"src/module_{n}.py"
        for event in (
            TurnStarted(turn_id=turn, prompt=f"Explain the retry logic in step {n}"),
            TextDelta(turn_id=turn, text=ANSWER.format(n=n + 1)),
            ToolRequested(turn_id=turn, call_id=call, name="Write", category=ToolCategory.EDIT,
                          args={"file_path": path, "content": f"x = {n}\n"}, pending=False),
            ToolStarted(turn_id=turn, call_id=call, name="Write"),
            ToolFinished(turn_id=turn, call_id=call, name="Write", status="success",
                         output=f"Wrote {path}"),
            TurnEnded(turn_id=turn, reason=TurnEndReason.COMPLETED),
        ):  # fmt: skip
            transcript.apply(event)
    return list(transcript.items)


def write_conversation(workspace: Path, turns: int) -> str:
    """A stored conversation of ``turns`` turns in the history of ``AGENTDESK_HOME``."""
    return store_entries(workspace, turn_entries(turns), title=f"{turns} turns", agent="builtin")


def store_entries(workspace: Path, entries: list[Any], *, title: str, agent: str) -> str:
    """A conversation of ``entries`` stored through the history store; returns its id."""
    from desktop.core.history.items import search_text
    from desktop.core.history.models import ItemKind, StoredConversation, StoredItem
    from desktop.core.history.store import HistoryStore

    now = time.time()
    items = [
        StoredItem(id=seq, seq=seq, kind=ItemKind(item.type), turn_id=item.turn_id,
                   call_id=getattr(getattr(item, "request", None), "call_id", None),
                   text=search_text(item), entry=item, created_at=now)
        for seq, item in enumerate(entries)
    ]  # fmt: skip
    conversation = StoredConversation(
        id=os.urandom(16).hex(), workspace=str(workspace.resolve()), title=title,
        agent=agent, created_at=now, updated_at=now, items=items,
    )  # fmt: skip
    store = HistoryStore()
    try:
        store.restore(conversation)
    finally:
        store.close()
    return conversation.id


def markdown_of(turns: int) -> str:
    """The same turns as one markdown document (the bare baseline's content)."""
    parts = []
    for n in range(turns):
        parts.append(f"**You:** Explain the retry logic in step {n}\n\n{ANSWER.format(n=n + 1)}")
        parts.append(f"> Write `src/module_{n}.py` — Wrote src/module_{n}.py\n")
    return "\n".join(parts)


# ---------------------------------------------------------------------- child: the app


class StallProbe:
    """The longest time the Qt event loop did not run a 1 ms timer (seconds): a stall, and the
    GUI thread's own CPU in the longest pass (a shared machine preempts the thread: a stall far
    above its CPU is the machine, not the app). With ``AGENTDESK_BENCH_PROFILE=DIR`` each pass
    runs under cProfile and one longer than 8 ms is written to DIR (``pstats`` files)."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.longest = 0.0
        self.cpu = 0.0  # the GUI thread's CPU in the longest pass
        self.largest_cpu = 0.0
        #: (wall, GUI CPU) of each pass longer than 8 ms, in order.
        self.long_passes: list[tuple[float, float]] = []
        self._last = time.perf_counter()
        self._last_cpu = time.thread_time()
        self._dir = os.environ.get("AGENTDESK_BENCH_PROFILE")
        self._profile: Any = None
        self._passes = 0
        self._timer = QTimer()
        self._timer.setInterval(1)
        self._timer.timeout.connect(self._tick)
        self._timer.start()
        self._restart_profile()

    def _restart_profile(self) -> None:
        if self._dir:
            import cProfile

            self._profile = cProfile.Profile()
            self._profile.enable()

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        gap, used = now - self._last - 0.001, cpu - self._last_cpu
        if gap > self.longest:
            self.longest, self.cpu = gap, used
        self.largest_cpu = max(self.largest_cpu, used)
        if gap > 0.008:
            self.long_passes.append((gap, used))
        if self._profile is not None:
            self._profile.disable()
            self._passes += 1
            if gap > 0.008:
                name = f"{os.getpid()}-pass{self._passes:05d}-{gap * 1000:.0f}ms.prof"
                self._profile.dump_stats(str(Path(self._dir or ".") / name))
            self._restart_profile()
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()

    def stop(self) -> float:
        """Stop probing; the longest stall seen."""
        self._tick()
        self._timer.stop()
        if self._profile is not None:
            self._profile.disable()
        return self.longest


def child_app(workspace: str, conv_id: str | None) -> None:
    """Run ``agentdesk WS --conversation ID``; print the figures as JSON; quit by SIGTERM."""
    import signal

    from PySide6.QtCore import QEvent, QObject

    import desktop.ui.app as app_module
    import desktop.ui.open_conversation as opening
    from desktop.cli.main import main

    result: dict[str, Any] = {}

    class Painted(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.at: float | None = None

        def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and self.at is None:
                self.at = time.perf_counter()
            return False

    async def measured(window: Any, stored: str | None) -> Any:
        import asyncio

        probe = StallProbe()
        start = time.perf_counter()
        assert stored is not None
        pane = await opening.open_in(window, stored)
        assert pane is not None, "the conversation was not found"
        view = pane.view
        # The last screen: every row in the viewport built (no estimated gap), then painted.
        while not (view.rows.covered() and view.at_bottom()):  # noqa: ASYNC110 - 1 ms poll
            await asyncio.sleep(0.001)
        # The column, not the viewport: the column is opaque and fills the viewport, so Qt
        # paints the column alone (the viewport gets no paint event of its own).
        painted = Painted()
        view.widget().installEventFilter(painted)
        view.widget().update()
        while painted.at is None:  # noqa: ASYNC110 - a benchmark's poll, 1 ms
            await asyncio.sleep(0.001)
        result.update(open_to_paint=painted.at - start)
        # The whole conversation: its beginning read, given rows, the view settled.
        await pane.transcript.whole()
        while view.rows.due():  # noqa: ASYNC110 - 1 ms poll
            await asyncio.sleep(0.001)
        result.update(whole=time.perf_counter() - start, stall=probe.stop(), rss=rss_mib())
        result.update(stall_cpu=probe.cpu, largest_cpu=probe.largest_cpu)
        result.update(passes=probe.long_passes)
        result["items"] = len(pane.transcript.items)
        os.kill(os.getpid(), signal.SIGTERM)
        return pane

    async def empty(window: Any, _stored: str) -> None:
        import asyncio

        await asyncio.sleep(1.0)  # settle after start-up
        result.update(rss=rss_mib())
        os.kill(os.getpid(), signal.SIGTERM)

    async def opened(window: Any, _stored: str) -> None:
        import asyncio

        await asyncio.sleep(1.0)  # settle after start-up: the window and its new conversation
        await measured(window, conv_id)

    # The window starts as ``agentdesk WS`` does, then the conversation is opened the way a
    # click on its sidebar row opens it (``open_in``).
    app_module._main = _empty_main(app_module._main, opened if conv_id else empty)
    status = main([workspace])
    result["status"] = status
    print(json.dumps(result), flush=True)


def _empty_main(main: Any, measure: Any) -> Any:
    async def wrapped(context: Any, first: Any, stored: str | None = None) -> int:
        import asyncio

        task = asyncio.get_running_loop().create_task(measure(first, ""))
        status: int = await main(context, first, stored)
        await asyncio.wait([task])
        return status

    return wrapped


def child_bare(turns: int) -> None:
    """A bare ``QTextBrowser`` with the same turns: open → painted and RSS."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QTextBrowser

    app = QApplication([])
    probe = StallProbe()
    result: dict[str, Any] = {}

    class Painted(QObject):
        def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and "open_to_paint" not in result:
                result["open_to_paint"] = time.perf_counter() - start
                QTimer.singleShot(0, app.quit)
            return False

    text = markdown_of(turns)
    painted = Painted()
    start = time.perf_counter()
    browser = QTextBrowser()
    browser.resize(1000, 800)
    browser.viewport().installEventFilter(painted)
    browser.setMarkdown(text)
    browser.verticalScrollBar().setValue(browser.verticalScrollBar().maximum())
    browser.show()
    app.exec()
    result.update(stall=probe.stop(), rss=rss_mib())
    print(json.dumps(result), flush=True)


# ---------------------------------------------------------------------- parent


def _child(args: list[str], env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, *args], env=env, capture_output=True,
                          text=True, timeout=900, check=False)  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"child {args} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[125, 250, 500, 1000])
    parser.add_argument("--display", help="an X display (Xvfb) instead of offscreen")
    parser.add_argument(
        "--passes",
        action="store_true",
        help="also list each pass of the loop over 8 ms (wall / GUI CPU)",
    )
    parser.add_argument("--child-app", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--child-bare", type=int, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child_app:
        child_app(
            options.child_app[0], options.child_app[1] if len(options.child_app) > 1 else None
        )
        return 0
    if options.child_bare is not None:
        child_bare(options.child_bare)
        return 0
    with tempfile.TemporaryDirectory(prefix="agentdesk-long-") as tmp:
        home, workspace = Path(tmp) / "home", Path(tmp) / "ws"
        workspace.mkdir()
        env = {**os.environ, "AGENTDESK_HOME": str(home), "PYTHONPATH": str(ROOT),
               "QT_API": "pyside6", "AGENTDESK_THEME": "light"}  # fmt: skip
        if options.display:
            env.update(DISPLAY=options.display, QT_QPA_PLATFORM="xcb")
        else:
            env["QT_QPA_PLATFORM"] = "offscreen"
        os.environ["AGENTDESK_HOME"] = str(home)
        empty = _child(["--child-app", str(workspace)], env)
        print(f"empty window: RSS {empty['rss']:.0f} MiB")
        print("| turns | items | open → painted | whole | longest stall (its GUI CPU) "
              "| largest GUI CPU | RSS after (+ over empty) "
              "| bare Qt: painted | bare Qt: stall | bare Qt: RSS |")  # fmt: skip
        print("|---|---|---|---|---|---|---|---|---|---|")
        for turns in options.turns:
            conv_id = write_conversation(workspace, turns)
            app = _child(["--child-app", str(workspace), conv_id], env)
            bare = _child(["--child-bare", str(turns)], env)
            print(
                f"| {turns:,} | {app['items']:,} | {app['open_to_paint'] * 1000:.0f} ms "
                f"| {app['whole']:.2f} s | {app['stall'] * 1000:.0f} ms "
                f"({app['stall_cpu'] * 1000:.0f} ms) | {app['largest_cpu'] * 1000:.0f} ms "
                f"| {app['rss']:.0f} MiB (+{app['rss'] - empty['rss']:.0f}) "
                f"| {bare['open_to_paint']:.2f} s | {bare['stall']:.2f} s "
                f"| {bare['rss']:.0f} MiB |",
                flush=True,
            )
            if options.passes:
                print(
                    "  passes over 8 ms (wall/CPU ms):",
                    " ".join(f"{wall * 1000:.0f}/{cpu * 1000:.0f}" for wall, cpu in app["passes"]),
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
