"""Hostile-stream fuzz: a few hundred seeded random aionrs streams through a real agent process.

Each stream is one turn of the fake aionrs agent (``tests/fakes/fake_aionrs.py``): well-formed
text deltas mixed with malformed JSON lines, truncated lines, wrong field types, unknown events,
tool events for unknown call ids, huge fields and invalid UTF-8. Several turns share one agent
process (the last turn of some processes ends in an early EOF: the agent exits mid-stream).
For every stream: nothing escapes the host (the session's consumers see only events), the turn
ends within its time limit, and every well-formed text delta is delivered, in order.
Seed with ``FUZZ_SEED``; the stream count is bounded so the file runs in well under a minute.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import Decision, DecisionSource, TextDelta, ToolRequested, TurnEnded
from tests.core.support import make_session

PROCESSES = 10
TURNS_PER_PROCESS = 30  # 300 streams
TURN_LIMIT = 10.0  # seconds for one stream to end


def _hostile(rng: random.Random) -> dict[str, Any]:
    """One step the host must survive without losing what surrounds it."""
    choice = rng.randrange(10)
    if choice == 0:
        return {"raw": rng.choice(["not json", "{", "[1,2", '{"type":', "null", "42", '""'])}
    if choice == 1:  # a line cut in the middle
        line = json.dumps({"type": "text_delta", "text": "cut", "msg_id": "m"})
        return {"raw": line[: rng.randrange(1, len(line) - 1)]}
    if choice == 2:  # invalid UTF-8, alone or inside a JSON string
        return {"raw_hex": rng.choice(["ff00fe", "7b2274797065223a22ff227d", "c328a0a1"])}
    if choice == 3:
        return {"event": {"type": f"unknown_{rng.randrange(1000)}", "x": [1, {"y": None}]}}
    if choice == 4:  # wrong field types
        return {"event": {"type": "text_delta", "text": rng.choice([5, None, [], {"a": 1}])}}
    if choice == 5:
        kind = rng.choice(["tool_result", "tool_running", "tool_cancelled"])
        return {"event": {"type": kind, "call_id": f"ghost-{rng.randrange(5)}", "msg_id": "m"}}
    if choice == 6:  # a huge field in an event the host ignores
        return {"event": {"type": "unknown_big", "blob": "z" * rng.randrange(10_000, 300_000)}}
    if choice == 7:
        return {"event": {"type": "tool_request", "call_id": rng.choice([None, 7, ""])}}
    if choice == 8:
        return {"event": {"type": "info", "message": rng.choice([None, 3, "hi"]), "msg_id": 9}}
    return {"raw": json.dumps({"no_type": True, "text": "ignored"})}


def _stream(rng: random.Random) -> tuple[list[dict[str, Any]], list[str]]:
    steps: list[dict[str, Any]] = []
    texts: list[str] = []
    for _ in range(rng.randrange(1, 12)):
        if rng.random() < 0.5:
            text = "".join(rng.choice('abc δ€😀\n"\\{}') for _ in range(rng.randrange(1, 40)))
            steps.append({"text": text, "chunks": rng.randrange(1, 4)})
            texts.append(text)
        else:
            steps.append(_hostile(rng))
    return steps, texts


def _ends(turn_id: str, event: TurnEnded) -> bool:
    return event.turn_id == turn_id


async def _run_process(workspace: Path, rng: random.Random, index: int) -> int:
    streams = [_stream(rng) for _ in range(TURNS_PER_PROCESS)]
    early_eof = index % 3 == 0
    turns = [steps for steps, _texts in streams]
    if early_eof:  # the agent dies in the middle of its last stream
        turns[-1] = [*turns[-1], {"crash": 0}]
    session, recorder = make_session(workspace, "spec", {"turns": turns})

    def deny(event: object) -> None:
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, Decision.DENY, DecisionSource.POLICY, source_name="fuzz")

    session.subscribe(deny)
    await session.start()
    try:
        for number, (_steps, texts) in enumerate(streams):
            seen = len(recorder.events)
            turn_id = session.submit(Prompt(f"stream {index}.{number}"))
            await recorder.wait_for(TurnEnded, partial(_ends, turn_id), TURN_LIMIT)
            delivered = "".join(
                e.text
                for e in recorder.events[seen:]
                if isinstance(e, TextDelta) and e.turn_id == turn_id
            )
            assert delivered == "".join(texts), (index, number, streams[number][0])
        await asyncio.wait_for(session.wait_idle(), TURN_LIMIT)
    finally:
        await asyncio.wait_for(session.close(), TURN_LIMIT)
    return TURNS_PER_PROCESS


@pytest.mark.timeout(120)
def test_hostile_streams_never_crash_hang_or_lose_text(tmp_path: Path) -> None:
    seed = int(os.environ.get("FUZZ_SEED", "14"))

    async def main() -> int:
        runs = []
        for index in range(PROCESSES):
            workspace = tmp_path / f"ws{index}"
            workspace.mkdir()
            runs.append(_run_process(workspace, random.Random(seed * 1000 + index), index))
        done = 0
        for batch in range(0, PROCESSES, 2):  # two agents at a time on two cores
            done += sum(await asyncio.gather(*runs[batch : batch + 2]))
        return done

    assert asyncio.run(main()) == PROCESSES * TURNS_PER_PROCESS
