"""Child process of the crash-safety test: records a never-ending streaming conversation.

Prints ``D <seq>`` when a completed item has been committed, and ``E <seq> <chars> <time>`` as
assistant text is streamed (so the parent knows what could have been saved when it kills us).
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time

from desktop.core.events import (
    TextDelta,
    ToolCategory,
    ToolFinished,
    ToolRequested,
    TurnEnded,
    TurnEndReason,
    TurnStarted,
)
from desktop.core.history import HistoryRecorder, HistoryWriter
from desktop.core.history.writer import ItemWrite, Write

WORD = "lorem "
_OUT = threading.Lock()  # the writer thread and the loop both report: keep lines whole


def report(line: str) -> None:
    with _OUT:
        sys.stdout.write(line)
        sys.stdout.flush()


def on_commit(writes: list[Write]) -> None:
    done = [w.seq for w in writes if isinstance(w, ItemWrite) and w.complete]
    if done:
        report("".join(f"D {seq}\n" for seq in done))


async def main() -> None:
    writer = HistoryWriter(on_commit=on_commit)
    recorder = HistoryRecorder.start(writer, "/crash", "fake")
    report(f"C {recorder.conversation_id}\n")
    seq = 0
    for turn in range(10_000):
        tid = f"t{turn}"
        recorder.on_event(TurnStarted(turn_id=tid, prompt=f"prompt {turn}"))
        seq += 1
        text_seq, chars = seq, 0
        for n in range(200):
            recorder.on_event(TextDelta(turn_id=tid, text=WORD))
            chars += len(WORD)
            if n % 10 == 0:
                report(f"E {text_seq} {chars} {time.time():.4f}\n")
            await asyncio.sleep(0.01)
        seq += 1
        recorder.on_event(
            ToolRequested(
                turn_id=tid,
                call_id=f"c{turn}",
                name="Bash",
                category=ToolCategory.EXEC,
                args={"n": turn},
            )
        )
        recorder.on_event(
            ToolFinished(
                turn_id=tid, call_id=f"c{turn}", name="Bash", status="success", output=f"out {turn}"
            )
        )
        seq += 1
        recorder.on_event(TurnEnded(turn_id=tid, reason=TurnEndReason.COMPLETED))
        seq += 1


asyncio.run(main())
