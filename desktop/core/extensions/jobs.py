"""The extension job queue, persisted in SQLite beside the conversation history.

States: queued → running → completed | failed | canceled. Each row records which process owns
it; a process that starts recovers the rows of owners that are gone (a crash or kill mid-job)
and runs them again, so the window and ``agentdesk exec`` can share one database without taking
each other's work. The tables are ours (``ext_jobs``, ``ext_meta``) and created idempotently,
so they live beside the history tables. Statements are tiny and run on the event-loop thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

from desktop.core.extensions.registry import JobTypeRegistration
from desktop.sdk.types import JsonDict

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
MAX_ATTEMPTS = 3
ACTIVE_STATES = ("queued", "running")
TERMINAL_STATES = ("completed", "failed", "canceled")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS ext_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ext_jobs (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    project_id TEXT NOT NULL,
    source_session_id TEXT,
    dedupe_key TEXT,
    state TEXT NOT NULL,
    payload TEXT NOT NULL,
    result TEXT,
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    owner TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ext_jobs_match ON ext_jobs (project_id, type, dedupe_key, state);
CREATE INDEX IF NOT EXISTS ext_jobs_claim ON ext_jobs (owner, state, created_at);
"""

#: Runs a job: (job record, its type) → JSON result.
JobRunner = Callable[[JsonDict, JobTypeRegistration], Awaitable[Any]]


class JobQueueError(Exception):
    """An enqueue the queue refuses; ``code`` is the contract's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _owner_alive(owner: str) -> bool:
    pid_text = owner.split(":", 1)[0]
    return pid_text.isdigit() and psutil.pid_exists(int(pid_text))


class JobQueue:
    """Persisted queue with dedupe, limits, a small worker pool and crash recovery.

    Args:
        db_path: The SQLite file (normally the history database).
        runner: Runs one job; set by the runtime, which knows sessions and agents.
        concurrency: Jobs that run at the same time.
    """

    def __init__(
        self,
        db_path: Path,
        runner: JobRunner,
        *,
        concurrency: int = 2,
        max_active: int = 500,
        max_active_per_project: int = 100,
    ) -> None:
        self.db_path = db_path
        self.owner = f"{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._runner = runner
        self._concurrency = concurrency
        self._max_active = max_active
        self._max_per_project = max_active_per_project
        self._types: dict[str, JobTypeRegistration] = {}
        self._db: sqlite3.Connection | None = None
        self._wake = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None
        self._running: dict[str, asyncio.Task[None]] = {}
        self._finished: dict[str, asyncio.Event] = {}
        self._stopping = False

    @property
    def running(self) -> bool:
        """Whether the worker loop runs (between ``start`` and ``close``)."""
        return self._loop_task is not None and not self._loop_task.done()

    # ------------------------------------------------------------------ setup

    def set_types(self, types: list[JobTypeRegistration]) -> None:
        """Replace the known job types (after an extension reload)."""
        self._types = {t.job_type: t for t in types}
        self._wake.set()

    @property
    def started(self) -> bool:
        """Whether ``start`` ran and ``close`` did not."""
        return self._db is not None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise JobQueueError("job_conflict", "the job queue is not started")
        return self._db

    async def start(self) -> int:
        """Open the database, recover interrupted jobs, start the workers; returns the count
        of recovered jobs."""
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.db_path, isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA busy_timeout=5000")
        db.executescript(_SCHEMA)
        db.execute(
            "INSERT OR IGNORE INTO ext_meta (key, value) VALUES ('schema_version', ?)",
            (str(SCHEMA_VERSION),),
        )
        self._db = db
        self._stopping = False
        recovered = self._recover()
        self._loop_task = asyncio.get_running_loop().create_task(self._work_loop())
        return recovered

    def _recover(self) -> int:
        db = self._conn()
        rows = db.execute(
            "SELECT id, owner, state, attempts FROM ext_jobs WHERE state IN ('queued','running')"
        ).fetchall()
        count = 0
        for row in rows:
            if row["owner"] == self.owner or _owner_alive(row["owner"]):
                continue
            if row["state"] == "running" and row["attempts"] >= MAX_ATTEMPTS:
                self._finish(row["id"], "failed", None, "interrupted too many times")
                continue
            db.execute(
                "UPDATE ext_jobs SET state='queued', owner=?, updated_at=? WHERE id=?",
                (self.owner, _now(), row["id"]),
            )
            count += 1
        if count:
            log.info("recovered %d interrupted extension jobs", count)
        return count

    async def close(self) -> None:
        """Stop the workers; running jobs are cancelled and left for recovery."""
        self._stopping = True
        self._wake.set()
        if self._loop_task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        for task in list(self._running.values()):
            task.cancel()
        if self._running:
            await asyncio.wait(list(self._running.values()), timeout=2.0)
        if self._db is not None:
            self._db.close()
            self._db = None

    # ------------------------------------------------------------------ records

    @staticmethod
    def _record(row: sqlite3.Row) -> JsonDict:
        return {
            "id": row["id"],
            "type": row["type"],
            "projectId": row["project_id"],
            "sourceSessionId": row["source_session_id"],
            "dedupeKey": row["dedupe_key"],
            "state": row["state"],
            "payload": json.loads(row["payload"]),
            "result": json.loads(row["result"]) if row["result"] is not None else None,
            "error": row["error"],
            "attempts": row["attempts"],
            "createdAt": row["created_at"],
            "updatedAt": row["updated_at"],
        }

    def get(self, job_id: str) -> JsonDict | None:
        """The job record, or None."""
        row = self._conn().execute("SELECT * FROM ext_jobs WHERE id=?", (job_id,)).fetchone()
        return self._record(row) if row is not None else None

    def list_jobs(self, project_id: str | None = None, limit: int = 100) -> list[JsonDict]:
        """Newest jobs first."""
        sql, args = "SELECT * FROM ext_jobs", []
        if project_id is not None:
            sql, args = sql + " WHERE project_id=?", [project_id]
        rows = self._conn().execute(sql + " ORDER BY created_at DESC LIMIT ?", (*args, limit))
        return [self._record(r) for r in rows]

    def active_count(self) -> int:
        """Queued or running jobs of known types owned by this process."""
        marks = ",".join("?" * len(self._types))
        sql = (
            "SELECT COUNT(*) FROM ext_jobs WHERE owner=? AND state IN ('queued','running') "
            f"AND type IN ({marks})"
        )
        row = self._conn().execute(sql, (self.owner, *self._types)).fetchone()
        return int(row[0])

    # ------------------------------------------------------------------ enqueue

    async def enqueue(self, job: JsonDict) -> JsonDict:
        """Add a job (or find its duplicate); returns ``{status, job}``.

        Raises:
            JobQueueError: ``job_conflict`` (not started), ``unknown_job_type``,
                ``invalid_payload`` or ``queue_full``.
        """
        db = self._conn()
        job_type, project = job.get("type"), job.get("projectId")
        payload = job.get("payload")
        if not isinstance(job_type, str) or not isinstance(project, str) or not project:
            raise JobQueueError("invalid_payload", "a job needs a type and a projectId")
        reg = self._types.get(job_type)
        if reg is None:
            raise JobQueueError("unknown_job_type", f"unknown job type {job_type!r}")
        if not isinstance(payload, dict):
            raise JobQueueError("invalid_payload", "a job payload must be an object")
        key = reg.dedupe_key(payload) if reg.dedupe_key else payload.get("dedupeKey")
        key = key if isinstance(key, str) and key else None
        if key is not None and reg.dedupe != "none":
            states = (
                ACTIVE_STATES
                if reg.dedupe != "drop_duplicate"
                else (*ACTIVE_STATES, *TERMINAL_STATES)
            )
            marks = ",".join("?" * len(states))
            row = db.execute(
                f"SELECT * FROM ext_jobs WHERE project_id=? AND type=? AND dedupe_key=? "
                f"AND state IN ({marks}) ORDER BY created_at DESC LIMIT 1",
                (project, job_type, key, *states),
            ).fetchone()
            if row is not None:
                if reg.dedupe == "merge_duplicate" and row["state"] == "queued":
                    merged = {**json.loads(row["payload"]), **payload}
                    db.execute(
                        "UPDATE ext_jobs SET payload=?, updated_at=? WHERE id=?",
                        (json.dumps(merged), _now(), row["id"]),
                    )
                    row = db.execute("SELECT * FROM ext_jobs WHERE id=?", (row["id"],)).fetchone()
                return {"status": "already_queued", "job": self._record(row)}
        active = db.execute(
            "SELECT COUNT(*), SUM(project_id=?) FROM ext_jobs WHERE state IN ('queued','running')",
            (project,),
        ).fetchone()
        if active[0] >= self._max_active or (active[1] or 0) >= self._max_per_project:
            raise JobQueueError("queue_full", "too many queued or running jobs")
        job_id = uuid.uuid4().hex
        stamp = _now()
        db.execute(
            "INSERT INTO ext_jobs (id, type, project_id, source_session_id, dedupe_key, state, "
            "payload, owner, created_at, updated_at) VALUES (?,?,?,?,?,'queued',?,?,?,?)",
            (
                job_id,
                job_type,
                project,
                job.get("sourceSessionId"),
                key,
                json.dumps(payload),
                self.owner,
                stamp,
                stamp,
            ),
        )
        self._wake.set()
        record = self.get(job_id)
        assert record is not None
        return {"status": "enqueued", "job": record}

    async def cancel(self, job_id: str) -> bool:
        """Cancel a queued or running job; False when it already finished."""
        record = self.get(job_id)
        if record is None or record["state"] in TERMINAL_STATES:
            return False
        task = self._running.get(job_id)
        self._finish(job_id, "canceled", None, "canceled")
        if task is not None:
            task.cancel()
        return True

    async def wait(self, job_id: str, timeout: float | None = None) -> JsonDict:
        """Wait until the job reaches a terminal state; returns its record."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            record = self.get(job_id)
            if record is None or record["state"] in TERMINAL_STATES:
                return record or {}
            event = self._finished.setdefault(job_id, asyncio.Event())
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            if remaining == 0.0:
                raise TimeoutError(f"job {job_id} did not finish")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining or 0.5, 0.5))

    # ------------------------------------------------------------------ workers

    def _finish(self, job_id: str, state: str, result: Any, error: str | None) -> None:
        self._conn().execute(
            "UPDATE ext_jobs SET state=?, result=?, error=?, updated_at=? "
            "WHERE id=? AND state IN ('queued','running')",
            (
                state,
                json.dumps(result, default=str) if result is not None else None,
                error,
                _now(),
                job_id,
            ),
        )
        event = self._finished.pop(job_id, None)
        if event is not None:
            event.set()

    def _claim(self) -> tuple[JsonDict, JobTypeRegistration] | None:
        db = self._conn()
        if not self._types:
            return None
        marks = ",".join("?" * len(self._types))
        rows = db.execute(
            f"SELECT id FROM ext_jobs WHERE owner=? AND state='queued' AND type IN ({marks}) "
            "ORDER BY created_at LIMIT 1",
            (self.owner, *self._types),
        ).fetchall()
        for row in rows:
            claimed = db.execute(
                "UPDATE ext_jobs SET state='running', attempts=attempts+1, updated_at=? "
                "WHERE id=? AND state='queued'",
                (_now(), row["id"]),
            ).rowcount
            record = self.get(row["id"]) if claimed else None
            if record is not None:
                return record, self._types[record["type"]]
        return None

    async def _work_loop(self) -> None:
        # A stop flag, not only cancellation: Python 3.11's wait_for can swallow a cancel that
        # races with the wake-up (https://github.com/python/cpython/issues/86296).
        while not self._stopping:
            while len(self._running) < self._concurrency:
                claimed = self._claim()
                if claimed is None:
                    break
                record, reg = claimed
                task = asyncio.get_running_loop().create_task(self._run(record, reg))
                self._running[record["id"]] = task
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), 1.0)

    async def _run(self, record: JsonDict, reg: JobTypeRegistration) -> None:
        job_id = record["id"]
        try:
            result = await asyncio.wait_for(self._runner(record, reg), reg.timeout_ms / 1000)
        except asyncio.CancelledError:
            if self._db is not None and (self.get(job_id) or {}).get("state") == "canceled":
                return
            raise
        except TimeoutError:
            self._finish(job_id, "failed", None, f"timed out after {reg.timeout_ms}ms")
        except Exception as exc:  # noqa: BLE001 - a failing job must not stop the queue
            log.warning("extension job %s (%s) failed: %s", job_id, reg.job_type, exc)
            self._finish(job_id, "failed", None, str(exc) or type(exc).__name__)
        else:
            self._finish(job_id, "completed", result, None)
        finally:
            self._running.pop(job_id, None)
            self._wake.set()
