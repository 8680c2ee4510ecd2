"""Executor pipeline, action policy vectors 21-25 and trust vectors 42-44, on a real Session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from desktop.core.events import ToolCategory, ToolDecided, ToolRequested
from desktop.core.extensions.executor import ActionExecutor, TranscriptEntry
from desktop.core.extensions.manifest import Capabilities
from desktop.core.extensions.policy import (
    Scope,
    TrustMode,
    action_allowed,
    action_signature,
    evaluate_trust,
    is_cacheable,
    keep_existing_entry,
    normalize_details,
    scope_from_payload,
    signature_digest,
    steer_error_status,
)
from desktop.core.session import Session
from tests.core.support import fake_factory


@pytest.mark.parametrize("status", ["performed", "already_resolved", "not_eligible", "forbidden"])
def test_v21_cacheable(status: str) -> None:
    assert is_cacheable(status)


@pytest.mark.parametrize("status", ["conflict", "invalid", "failed"])
def test_v21_not_cacheable(status: str) -> None:
    assert not is_cacheable(status)


def test_v22_details() -> None:
    assert normalize_details(None) is None
    assert normalize_details("text") == "text"
    assert normalize_details({"anchorItemId": "item-1", "approvalId": "approval-1"}) == (
        '{"anchorItemId":"item-1","approvalId":"approval-1"}'
    )


def test_v23_complete_entries_survive() -> None:
    assert keep_existing_entry("complete", "error")
    assert keep_existing_entry("complete", "canceled")
    assert not keep_existing_entry("streaming", "error")
    assert not keep_existing_entry("complete", "complete")


def test_v24_signature() -> None:
    scope = Scope("p", "s", "t")
    a = action_signature("x", scope, {"a": 1, "b": 2})
    assert a == action_signature("x", scope, {"b": 2, "a": 1})
    assert a != action_signature("x", Scope("p2", "s", "t"), {"a": 1, "b": 2})
    assert a != action_signature("x", Scope("p", "s2", "t"), {"a": 1, "b": 2})
    assert len(signature_digest(a)) == 64 and signature_digest(a) == signature_digest(a)


def test_steer_error_mapping() -> None:
    assert steer_error_status("No active turn") == "conflict"
    assert steer_error_status("request not found") == "already_resolved"
    assert steer_error_status("turn not eligible") == "not_eligible"
    assert steer_error_status("boom") == "failed"


def test_v42_v43_v44_trust() -> None:
    assert TrustMode.parse(None) == TrustMode.WARN and TrustMode.parse("invalid") == TrustMode.WARN
    assert evaluate_trust(TrustMode.DISABLED, None, ["e"]).status == "accepted"
    assert evaluate_trust(TrustMode.WARN, None, ["e"]).status == "accepted_with_warnings"
    caps = Capabilities(events=["turn.completed"])
    denied = evaluate_trust(TrustMode.ENFORCED, caps, ["suggest_request.requested"])
    assert denied.status == "denied"
    assert "undeclared event capability" in denied.reasons[0]
    caps = Capabilities(actions=["approval.decide"])
    assert action_allowed(TrustMode.ENFORCED, caps, "turn.steer.create")[0] is False
    allowed, reason = action_allowed(TrustMode.WARN, caps, "turn.steer.create")
    assert allowed and reason


def test_scope_resolution() -> None:
    payload = {"context": {"projectId": "p", "threadId": "t1"}, "turnId": "u"}
    assert scope_from_payload(payload) == Scope("p", "t1", "u")
    assert scope_from_payload({"session": {"projectId": "p"}}) == Scope(project_id="p")
    assert scope_from_payload({}) is None


class _Target:
    """A SessionTarget over a real Session whose approvals are opened directly."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.session_id = "s1"
        self.project_id = "p1"
        self.entries: dict[str, TranscriptEntry] = {}
        self.steered: list[str] = []

    def pending_approval_turn(self, approval_id: str) -> tuple[bool, str | None]:
        for request in self.session.approvals.pending:
            if request.call_id == approval_id:
                return True, request.turn_id
        return False, None

    def decide(
        self, approval_id: str, accept: bool, always: bool, module: str, reason: str | None
    ) -> bool:
        from desktop.core.extensions.bridge import SessionBridge

        return SessionBridge.decide(self, approval_id, accept, always, module, reason)  # type: ignore[arg-type]

    def active_turn(self) -> str | None:
        return "t1"

    def upsert_transcript(self, entry: TranscriptEntry, module: str) -> None:
        self.entries[entry.messageId] = entry

    def steer(self, text: str) -> dict[str, Any]:
        if text == "fail":
            raise RuntimeError("no active turn")
        self.steered.append(text)
        return {"queued": True}


class _Host:
    def __init__(self, target: _Target) -> None:
        self.target = target
        self.jobs: list[dict[str, Any]] = []

    def sessions(self) -> list[Any]:
        return [self.target]

    async def enqueue_action_job(self, job: dict[str, Any], module: str) -> dict[str, Any]:
        self.jobs.append(job)
        status = "enqueued" if len(self.jobs) == 1 else "already_queued"
        return {"status": status, "job": {"id": "j", "type": job["type"], "projectId": "p1"}}


@pytest_asyncio.fixture
async def setup(tmp_path: Path) -> Any:
    session = Session(fake_factory(tmp_path, "spec", {}), workspace=tmp_path)
    target = _Target(session)
    host = _Host(target)
    yield session, target, host, ActionExecutor(host)
    await session.close()


def _open(session: Session, call_id: str, turn: str = "t1") -> None:
    session.approvals.open(
        ToolRequested(turn_id=turn, call_id=call_id, name="Write", category=ToolCategory.EDIT)
    )


def req(action_type: str, payload: Any, **extra: Any) -> dict[str, Any]:
    return {"kind": "action_request", "actionType": action_type, "payload": payload, **extra}


@pytest.mark.asyncio
async def test_approval_decide_and_already_resolved(setup: Any) -> None:
    session, _, _, executor = setup
    seen: list[Any] = []
    session.subscribe(seen.append)
    _open(session, "c1")
    scope = Scope("p1", "s1", "t1")
    result = await executor.execute(
        req("approval.decide", {"approvalId": "c1", "decision": "accept", "scope": "session"}),
        module="ext-a",
        scope=scope,
    )
    assert result["status"] == "performed"
    assert result["details"]["approvalId"] == "c1" and result["details"]["threadId"] == "s1"
    [decided] = [e for e in seen if isinstance(e, ToolDecided)]
    assert (decided.decision, decided.source, decided.source_name) == (
        "always",
        "extension",
        "ext-a",
    )
    again = await executor.execute(
        req("approval.decide", {"approvalId": "c1", "decision": "decline"}),
        module="ext-b",
        scope=scope,
    )
    assert again["status"] == "already_resolved"
    _open(session, "c2", turn="t9")
    wrong_turn = await executor.execute(
        req("approval.decide", {"approvalId": "c2", "decision": "accept"}), module="m", scope=scope
    )
    assert wrong_turn["details"]["code"] == "scope_turn_mismatch"
    wrong_session = await executor.execute(
        req("approval.decide", {"approvalId": "c2", "decision": "accept"}),
        module="m",
        scope=Scope("p1", "other", None),
    )
    assert wrong_session["details"]["code"] == "scope_session_mismatch"


@pytest.mark.asyncio
async def test_envelope_and_payload_validation(setup: Any) -> None:
    _, _, _, executor = setup
    bad = await executor.execute({"actionType": " ", "payload": {}}, module="m", scope=None)
    assert (bad["status"], bad["actionType"]) == ("invalid", "unknown")
    unknown = await executor.execute(req("x.y", {}), module="m", scope=None)
    assert unknown["details"]["message"] == "unsupported actionType: x.y"
    payload = await executor.execute(
        req("approval.decide", {"decision": "maybe"}), module="m", scope=None
    )
    assert payload["details"]["message"] == "approval.decide payload is invalid"
    long_id = await executor.execute(req("x", {}, requestId="r" * 201), module="m", scope=None)
    assert long_id["status"] == "invalid"


@pytest.mark.asyncio
async def test_transcript_steer_enqueue_and_idempotency(setup: Any) -> None:
    _, target, host, executor = setup
    entry = {
        "messageId": "m1",
        "turnId": "t1",
        "role": "system",
        "type": "note",
        "content": "hello",
        "status": "complete",
    }
    upsert = req(
        "transcript.upsert",
        {"sessionId": "s1", "entry": entry},
        idempotencyKey="k1",
        requestId="r1",
    )
    scope = Scope("p1", "s1", "t1")
    first = await executor.execute(upsert, module="m", scope=scope)
    assert first == {
        "actionType": "transcript.upsert",
        "status": "performed",
        "details": {"messageId": "m1", "turnId": "t1"},
        "requestId": "r1",
        "idempotencyKey": "k1",
    }
    target.entries.clear()
    replay = await executor.execute({**upsert, "requestId": "r2"}, module="m", scope=scope)
    assert replay["status"] == "performed" and replay["requestId"] == "r2"
    assert target.entries == {}  # replayed, not executed again
    changed = {**upsert, "payload": {"sessionId": "s1", "entry": {**entry, "content": "x"}}}
    conflict = await executor.execute(changed, module="m", scope=scope)
    assert conflict["status"] == "conflict"
    assert conflict["details"]["code"] == "idempotency_conflict"
    missing = await executor.execute(
        req("transcript.upsert", {"sessionId": "nope", "entry": entry}), module="m", scope=None
    )
    assert missing["details"]["code"] == "session_not_found"
    steer = await executor.execute(
        req("turn.steer.create", {"sessionId": "s1", "turnId": "t1", "input": "Continue."}),
        module="m",
        scope=scope,
    )
    assert steer["status"] == "performed" and target.steered == ["Continue."]
    failed = await executor.execute(
        req("turn.steer.create", {"sessionId": "s1", "input": "fail"}), module="m", scope=scope
    )
    assert failed["status"] == "conflict"
    job = {"type": "t", "projectId": "p1", "payload": {}}
    enq = await executor.execute(req("queue.enqueue", job), module="m", scope=scope)
    assert enq["status"] == "performed" and enq["details"]["enqueueStatus"] == "enqueued"
    assert host.jobs[0]["sourceSessionId"] == "s1"
    dup = await executor.execute(req("queue.enqueue", job), module="m", scope=scope)
    assert dup["status"] == "already_resolved"
    other = await executor.execute(
        req("queue.enqueue", {**job, "projectId": "p2"}), module="m", scope=scope
    )
    assert other["details"]["code"] == "scope_project_mismatch"
    cap = await executor.execute(
        req("queue.enqueue", job),
        module="m",
        scope=scope,
        capabilities=Capabilities(actions=[]),
        check_capability=True,
    )
    assert cap["status"] == "forbidden"
