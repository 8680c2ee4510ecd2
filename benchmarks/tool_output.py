"""What streaming a command's output costs in the transcript (issue 18: live command output).

Every consumer (the window's model, the history recording, the extension bridge) keeps its own
``Transcript`` and applies each ``tool_output_delta``; the entry keeps the last 64 KiB of the
output (``LIVE_OUTPUT_LIMIT``). This times, in the same run and with the same piece sizes:

- N ``tool_output_delta`` events of one running command through a ``Transcript``;
- the baseline: N ``text_delta`` events (the most optimised path: pieces kept in a list);

and prints microseconds per event, the ratio, and the size the entry keeps (bounded however much
output streams). Median of ``--rounds`` rounds.

Usage: ``python benchmarks/tool_output.py [--events 50000] [--piece 80] [--rounds 5]``
"""

from __future__ import annotations

import argparse
import statistics
import time

from desktop.core.entries import LIVE_OUTPUT_LIMIT
from desktop.core.events import TextDelta, ToolOutputDelta, ToolRequested, ToolStarted
from desktop.core.transcript import Transcript


def _tool(events: list[ToolOutputDelta]) -> tuple[float, int]:
    transcript = Transcript()
    transcript.apply(ToolRequested(call_id="c", name="bash", category="exec", pending=False))
    transcript.apply(ToolStarted(call_id="c", name="bash"))
    start = time.perf_counter()
    for event in events:
        transcript.apply(event)
    elapsed = time.perf_counter() - start
    tool = transcript.tool("c")
    assert tool is not None
    return elapsed, len(tool.live_output)


def _text(events: list[TextDelta]) -> float:
    transcript = Transcript()
    start = time.perf_counter()
    for event in events:
        transcript.apply(event)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--piece", type=int, default=80, help="characters per event")
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    piece = "x" * (options.piece - 1) + "\n"
    tools = [ToolOutputDelta(call_id="c", text=piece) for _ in range(options.events)]
    texts = [TextDelta(text=piece) for _ in range(options.events)]
    tool_times, text_times, kept = [], [], 0
    for _ in range(options.rounds):
        elapsed, kept = _tool(tools)
        tool_times.append(elapsed)
        text_times.append(_text(texts))
    tool_s, text_s = statistics.median(tool_times), statistics.median(text_times)
    per = 1e6 / options.events
    print(f"{options.events:,} events of {options.piece} characters, median of {options.rounds}")
    print(f"tool_output_delta: {tool_s * per:.1f} µs/event ({tool_s:.3f} s)")
    print(f"text_delta (baseline): {text_s * per:.1f} µs/event ({text_s:.3f} s)")
    print(f"ratio: {tool_s / text_s:.2f}")
    total = options.events * options.piece
    print(f"kept by the entry: {kept:,} of {total:,} characters (limit {LIVE_OUTPUT_LIMIT:,})")


if __name__ == "__main__":
    main()
