"""Crash safety: SIGKILL a process that records a streaming conversation, many times."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from desktop.core.history import HistoryStore, history_path

CHILD = Path(__file__).with_name("crash_writer.py")
RUNS = 12
PARALLEL = 4  # children write the same database at once, as several windows would


def run_and_kill(delay: float) -> tuple[str, set[int], list[tuple[int, int, float]], float]:
    proc = subprocess.Popen(
        [sys.executable, str(CHILD)], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout or []), daemon=True)
    reader.start()
    deadline = time.monotonic() + 20
    while not any(line.startswith("E ") for line in lines) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(delay)
    killed_at = time.time()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    reader.join(5)
    conv_id = next(line.split()[1] for line in lines if line.startswith("C "))
    done = {int(line.split()[1]) for line in lines if line.startswith("D ")}
    emitted = [
        (int(p[1]), int(p[2]), float(p[3]))
        for line in lines
        if line.startswith("E ")
        for p in [line.split()]
    ]
    return conv_id, done, emitted, killed_at


@pytest.mark.timeout(120)
def test_sigkill_never_loses_a_completed_item_or_more_than_a_second() -> None:
    rng = random.Random(int(os.environ.get("CRASH_SEED", "5")))
    delays = [rng.uniform(0.0, 3.0) for _ in range(RUNS)]
    with ThreadPoolExecutor(PARALLEL) as pool:
        results = list(pool.map(run_and_kill, delays))
    for run, (conv_id, done, emitted, killed_at) in enumerate(results):
        conn = sqlite3.connect(history_path())
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", run
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == [], run
        rows = {
            seq: (kind, text, complete, data)
            for seq, kind, text, complete, data in conn.execute(
                "SELECT seq, kind, text, complete, data FROM items WHERE conversation_id = ?",
                (conv_id,),
            )
        }
        conn.execute("INSERT INTO items_fts(items_fts) VALUES ('integrity-check')")
        conn.close()
        missing = sorted(seq for seq in done if seq not in rows or not rows[seq][2])
        assert missing == [], f"run {run}: completed items lost: {missing}"
        for seq, (kind, text, complete, data) in rows.items():
            if kind == "assistant":
                assert text == "lorem " * (len(text) // 6), (run, seq)  # a clean prefix
            if kind == "tool" and complete:
                assert json.loads(data)["result"]["status"] == "success"  # the finished call
        # streamed text older than one second before the kill is on disk
        for seq, chars, at in emitted:
            if at <= killed_at - 1.0:
                assert seq in rows and len(rows[seq][1]) >= chars, (run, seq, chars)
    # A conversation is on disk once anything of it was committed, or a second after it
    # streamed (a kill within ~0.1 s of the start, while four writers share the lock, may
    # come before its first commit: nothing completed is lost then).
    store = HistoryStore()
    listed = {summary.id for summary in store.list_conversations("/crash")}
    due = {
        conv_id
        for conv_id, done, emitted, killed_at in results
        if done or any(at <= killed_at - 1.0 for _, _, at in emitted)
    }
    assert len(due) >= RUNS - 2, "most runs stream for more than a second"
    assert due <= listed
    assert listed <= {conv_id for conv_id, *_ in results}
    assert store.search("lorem", "/crash")
    store.close()
