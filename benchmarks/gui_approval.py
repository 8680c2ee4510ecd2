"""Time from a ``tool_request`` reaching the session to its approval card being painted.

Target ≤ 50 ms. Usage: python benchmarks/gui_approval.py [RUNS]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEvent, QObject  # noqa: E402

from desktop.core.events import SessionEvent, SessionState  # noqa: E402
from desktop.ui.app import AppContext  # noqa: E402
from desktop.ui.conversation.tool_card import ToolCard  # noqa: E402
from desktop.ui.qt_async import run_qt  # noqa: E402
from desktop.ui.startup import finish_startup, make_application  # noqa: E402


class PaintProbe(QObject):
    """Records when the watched widget is first painted."""

    def __init__(self) -> None:
        super().__init__()
        self.painted: float | None = None

    def eventFilter(self, _obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self.painted is None:
            self.painted = time.perf_counter()
        return False


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    tmp = Path(tempfile.mkdtemp())
    os.environ["AGENTDESK_HOME"] = str(tmp / "home")
    body = "\n".join(f"line {i}" for i in range(400)) + "\n"
    turn = [{"tool": {"name": "Write", "args": {"file_path": "big.txt", "content": body}}}]
    scenario = tmp / "approval.json"
    scenario.write_text(json.dumps({"turns": [turn] * runs}))
    fake = ROOT / "tests" / "fakes" / "fake_aionrs.py"
    cmd = f"{sys.executable} {fake} --json-stream --profile spec --scenario {scenario}"
    app = make_application()
    results: list[float] = []

    async def run() -> int:
        await finish_startup()  # what the app loads after its first paint (and gc.freeze)
        context = AppContext(app, argparse.Namespace(path=None, agent=None, agent_cmd=cmd))
        window = context.open_workspace(tmp)
        pane = window.current
        assert pane is not None
        requested: list[float] = []

        def on_event(event: SessionEvent) -> None:
            if event.type == "tool_requested" and event.pending:
                requested.append(time.perf_counter())

        pane.session.subscribe(on_event)
        probes: list[PaintProbe] = []

        def on_card(card: ToolCard) -> None:
            # Installed when the card is created, so its first paint cannot be missed.
            probe = PaintProbe()
            assert card.approval is not None
            card.approval.installEventFilter(probe)
            probes.append(probe)

        pane.view.approval_shown.connect(on_card)
        for _ in range(runs):
            while pane.session.state not in (SessionState.READY, SessionState.IDLE):  # noqa: ASYNC110
                await asyncio.sleep(0.005)
            count = len(requested)
            pane.submit("write", [])
            while len(requested) == count:  # noqa: ASYNC110
                await asyncio.sleep(0.001)
            card = [w for w in pane.view.widgets.values() if isinstance(w, ToolCard)][-1]
            assert card.approval is not None
            probe = probes[-1]
            while probe.painted is None:  # noqa: ASYNC110 - polling a Qt paint, not a task
                await asyncio.sleep(0.001)
            results.append(probe.painted - requested[-1])
            card.approval.approve_once()
            await pane.session.wait_idle()
        print(f"platform: {os.environ['QT_QPA_PLATFORM']}, runs: {runs}, 400-line new-file diff")
        print(
            f"approval card painted after tool_request: median "
            f"{statistics.median(results) * 1000:.1f} ms, max {max(results) * 1000:.1f} ms "
            f"(target <= 50)"
        )
        await context.shutdown()  # closes the window (its agent ends), then the tasks
        return 0

    run_qt(app, run)


if __name__ == "__main__":
    main()
