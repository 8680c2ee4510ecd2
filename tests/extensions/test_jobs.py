"""The job queue on a real SQLite file: states, dedupe strategies, limits and crash recovery."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from desktop.core.extensions.jobs import JobQueue, JobQueueError
from desktop.core.extensions.registry import JobTypeRegistration


async def _echo(ctx: Any) -> Any:
    if ctx.payload.get("fail"):
        raise ValueError("asked to fail")
    if ctx.payload.get("sleep"):
        await asyncio.sleep(ctx.payload["sleep"])
    return {"echo": ctx.payload.get("value")}


def _types(*strategies: str) -> list[JobTypeRegistration]:
    return [
        JobTypeRegistration(job_type=s, handler=_echo, module_name="t", dedupe=s)
        for s in strategies
    ]


async def _runner(job: dict[str, Any], reg: JobTypeRegistration) -> Any:
    class Ctx:
        payload = job["payload"]

    return await reg.handler(Ctx())  # type: ignore[arg-type]


def job(kind: str, **payload: Any) -> dict[str, Any]:
    return {"type": kind, "projectId": "p", "payload": payload}


@pytest.mark.asyncio
async def test_states_and_dedupe(tmp_path: Path) -> None:
    queue = JobQueue(tmp_path / "h.sqlite3", _runner, concurrency=1)
    with pytest.raises(JobQueueError) as not_started:
        await queue.enqueue(job("none"))
    assert not_started.value.code == "job_conflict"
    queue.set_types(_types("none", "single_flight", "drop_duplicate", "merge_duplicate"))
    await queue.start()
    with pytest.raises(JobQueueError) as unknown:
        await queue.enqueue(job("bogus"))
    assert unknown.value.code == "unknown_job_type"
    blocker = await queue.enqueue(job("none", sleep=0.3))
    first = await queue.enqueue(job("single_flight", dedupeKey="k", value=1))
    second = await queue.enqueue(job("single_flight", dedupeKey="k", value=2))
    assert (first["status"], second["status"]) == ("enqueued", "already_queued")
    assert second["job"]["id"] == first["job"]["id"]
    merged_a = await queue.enqueue(job("merge_duplicate", dedupeKey="m", value=1, a=1))
    merged_b = await queue.enqueue(job("merge_duplicate", dedupeKey="m", value=2, b=2))
    assert merged_b["job"]["id"] == merged_a["job"]["id"]
    assert merged_b["job"]["payload"] == {"dedupeKey": "m", "value": 2, "a": 1, "b": 2}
    drop = await queue.enqueue(job("drop_duplicate", dedupeKey="d", value=1))
    failing = await queue.enqueue(job("none", fail=True))
    canceled = await queue.enqueue(job("none", value="never"))
    assert await queue.cancel(canceled["job"]["id"])
    assert (await queue.wait(blocker["job"]["id"], 5))["state"] == "completed"
    done = await queue.wait(first["job"]["id"], 5)
    assert (done["state"], done["result"]) == ("completed", {"echo": 1})
    assert (await queue.wait(merged_a["job"]["id"], 5))["result"] == {"echo": 2}
    assert (await queue.wait(failing["job"]["id"], 5))["error"] == "asked to fail"
    assert queue.get(canceled["job"]["id"])["state"] == "canceled"  # type: ignore[index]
    await queue.wait(drop["job"]["id"], 5)
    again = await queue.enqueue(job("drop_duplicate", dedupeKey="d", value=9))
    assert again["status"] == "already_queued" and again["job"]["state"] == "completed"
    fresh = await queue.enqueue(job("single_flight", dedupeKey="k", value=3))
    assert fresh["status"] == "enqueued"  # the earlier one finished
    await queue.close()
    db = sqlite3.connect(tmp_path / "h.sqlite3")
    assert db.execute("SELECT value FROM ext_meta WHERE key='schema_version'").fetchone() == ("1",)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


@pytest.mark.asyncio
async def test_queue_full(tmp_path: Path) -> None:
    queue = JobQueue(tmp_path / "h.sqlite3", _runner, concurrency=1, max_active_per_project=2)
    queue.set_types(_types("none"))
    await queue.start()
    await queue.enqueue(job("none", sleep=1))
    await queue.enqueue(job("none", sleep=1))
    with pytest.raises(JobQueueError) as full:
        await queue.enqueue(job("none"))
    assert full.value.code == "queue_full"
    await queue.close()


CRASHING_OWNER = """
import asyncio, sys
from pathlib import Path
from desktop.core.extensions.jobs import JobQueue
from desktop.core.extensions.registry import JobTypeRegistration

async def forever(ctx):
    await asyncio.sleep(3600)

async def runner(job, reg):
    return await reg.handler(None)

async def main():
    queue = JobQueue(Path(sys.argv[1]), runner)
    queue.set_types([JobTypeRegistration("slow", forever, "t")])
    await queue.start()
    await queue.enqueue({"type": "slow", "projectId": "p", "payload": {"value": 7}})
    while queue.list_jobs()[0]["state"] != "running":
        await asyncio.sleep(0.01)
    print("running", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


@pytest.mark.asyncio
async def test_interrupted_job_is_recovered_after_a_crash(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(CRASHING_OWNER), str(db)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "running"
    os.kill(child.pid, signal.SIGKILL)
    child.wait(10)
    queue = JobQueue(db, _runner)
    queue.set_types([JobTypeRegistration("slow", _echo, "t")])
    started = time.monotonic()
    assert await queue.start() == 1
    [record] = queue.list_jobs()
    done = await queue.wait(record["id"], 5)
    assert (done["state"], done["result"], done["attempts"]) == ("completed", {"echo": 7}, 2)
    assert time.monotonic() - started < 5
    await queue.close()
