"""An agent's buffered flood of lines reaches its reader whole and in order, in small batches,
and the event loop gets turns while the reader works through it (a window stays responsive)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from desktop.core.process import BATCH_LINES, TURN_BUDGET_S, AgentProcess

LINES = 20_000
_WRITER = f"import sys; sys.stdout.write(''.join(f'{{i}}\\n' for i in range({LINES})))"


@pytest.mark.asyncio
async def test_a_buffered_flood_is_read_in_order_with_turns_of_the_loop(tmp_path: Path) -> None:
    process = AgentProcess([sys.executable, "-c", _WRITER], cwd=tmp_path, env=dict(os.environ))
    await process.start()
    await process.wait()  # every line is written before the first one is read
    turns = 0
    stop = asyncio.Event()

    async def other_work() -> None:  # what else the loop runs (a window's repaint)
        nonlocal turns
        while not stop.is_set():
            turns += 1
            await asyncio.sleep(0)

    other = asyncio.create_task(other_work())
    await asyncio.sleep(0)
    seen: list[bytes] = []
    sizes: list[int] = []
    turns_in_read: list[int] = []
    async for batch in process.lines():
        sizes.append(len(batch))
        seen.extend(line for line in batch if isinstance(line, bytes))
        turns_in_read.append(turns)
        end = time.perf_counter() + TURN_BUDGET_S / 2  # the reader's work on the batch
        while time.perf_counter() < end:
            pass
    stop.set()
    await other

    assert seen == [str(i).encode() for i in range(LINES)]
    assert max(sizes) <= BATCH_LINES
    # The loop had turns between the batches, not only between the reads of the pipe.
    assert len(set(turns_in_read)) >= len(sizes) // 4
