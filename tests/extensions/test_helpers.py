"""Conformance vectors 1-20 of the Agent Runtime SDK reference (normalisation, reconciliation)."""

from __future__ import annotations

from typing import Any

import pytest

from desktop.sdk import (
    AGENT_RUNTIME_CORE_API_VERSION,
    MISSING,
    classify_reconciled_action_status,
    select_action_execution_plan,
    select_enqueue_winner,
    select_first_successful_action,
    summarize_action_reconciliation,
    to_agent_event_emit_result,
    to_agent_event_handler_error,
)

JOB = {"id": "j1", "type": "t", "projectId": "p"}


def norm(raw: Any) -> dict[str, Any]:
    return to_agent_event_emit_result("mod", "evt", raw)


def test_core_api_version_is_one() -> None:
    assert AGENT_RUNTIME_CORE_API_VERSION == 1


def test_v1_none_is_bare_handler_result() -> None:
    assert norm(None) == {"kind": "handler_result", "moduleName": "mod"}


def test_v2_enqueue_shape_keeps_whole_job() -> None:
    raw = {"status": "enqueued", "job": {**JOB, "state": "queued", "extra": 1}, "other": 2}
    assert norm(raw) == {
        "kind": "enqueue_result",
        "moduleName": "mod",
        "status": "enqueued",
        "job": {**JOB, "state": "queued", "extra": 1},
    }


def test_v3_already_queued_without_state() -> None:
    result = norm({"status": "already_queued", "job": dict(JOB)})
    assert result["kind"] == "enqueue_result"
    assert result["status"] == "already_queued"


def test_v4_unknown_enqueue_status_is_wrapped() -> None:
    raw = {"status": "queued", "job": dict(JOB)}
    assert norm(raw) == {"kind": "handler_result", "moduleName": "mod", "details": {"value": raw}}


def test_v5_action_result_copies_only_string_ids() -> None:
    raw = {
        "actionType": "approval.decide",
        "status": "performed",
        "requestId": "r1",
        "idempotencyKey": 5,
    }
    assert norm(raw) == {
        "kind": "action_result",
        "moduleName": "mod",
        "actionType": "approval.decide",
        "status": "performed",
        "requestId": "r1",
    }


def test_v6_unknown_action_status_is_wrapped() -> None:
    raw = {"actionType": "x", "status": "ok"}
    assert norm(raw)["details"] == {"value": raw}


def test_v7_handler_result_details_only_when_record() -> None:
    assert norm({"kind": "handler_result", "details": {"a": 1}})["details"] == {"a": 1}
    assert "details" not in norm({"kind": "handler_result", "details": [1, 2]})


def test_v8_valid_envelope_unchanged() -> None:
    raw = {"kind": "handler_result", "moduleName": "other"}
    assert norm(raw) is raw


def test_v9_empty_module_name_is_rewrapped() -> None:
    raw = {"kind": "enqueue_result", "moduleName": "", "status": "enqueued", "job": dict(JOB)}
    assert norm(raw)["moduleName"] == "mod"


def test_v10_handler_error_envelopes() -> None:
    raw = {"kind": "handler_error", "moduleName": "", "eventType": "e", "error": "x"}
    assert norm(raw) == {"kind": "handler_result", "moduleName": "mod", "details": {"value": raw}}
    good = {**raw, "moduleName": "m2"}
    assert norm(good) == good


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "action_request", "actionType": "x", "payload": {}},
        "hello",
        0,
        False,
        [1, 2],
        {"kind": "weird", "moduleName": "m"},
    ],
)
def test_v11_anything_else_is_wrapped(raw: Any) -> None:
    assert norm(raw) == {"kind": "handler_result", "moduleName": "mod", "details": {"value": raw}}


@pytest.mark.parametrize(
    ("error", "text"),
    [
        (Exception("boom"), "boom"),
        (TypeError("bad type"), "bad type"),
        ("plain", "plain"),
        ({"a": 1}, "[object Object]"),
        (MISSING, "undefined"),
        (None, "null"),
        (42, "42"),
    ],
)
def test_v12_error_text(error: object, text: str) -> None:
    assert to_agent_event_handler_error("mod", "evt", error) == {
        "kind": "handler_error",
        "moduleName": "mod",
        "eventType": "evt",
        "error": text,
    }


def enq(module: str, status: str, job_id: str, state: str = "queued") -> dict[str, Any]:
    return {
        "kind": "enqueue_result",
        "moduleName": module,
        "status": status,
        "job": {"id": job_id, "type": "t", "projectId": "p", "state": state},
    }


def act(module: str, status: str) -> dict[str, Any]:
    return {"kind": "action_result", "moduleName": module, "actionType": "x", "status": status}


def test_v13_prefer_enqueued_default() -> None:
    results = [enq("a", "already_queued", "job-existing"), enq("b", "enqueued", "job-new")]
    winner = select_enqueue_winner(results)
    assert winner is not None and winner["job"]["id"] == "job-new"
    alone = [enq("a", "already_queued", "job-existing", "running")]
    winner = select_enqueue_winner(alone)
    assert winner is not None and winner["job"]["id"] == "job-existing"


def test_v14_prefer_existing() -> None:
    first = select_enqueue_winner(
        [enq("a", "already_queued", "1"), enq("b", "enqueued", "2")], "prefer_existing"
    )
    assert first is not None and first["moduleName"] == "a"
    both = select_enqueue_winner(
        [enq("a", "enqueued", "1"), enq("b", "enqueued", "2")], "prefer_existing"
    )
    assert both is not None and both["moduleName"] == "a"
    late = select_enqueue_winner(
        [enq("a", "enqueued", "1"), enq("b", "already_queued", "2")], "prefer_existing"
    )
    assert late is not None and late["moduleName"] == "b"


def test_v15_no_enqueue_results_and_unknown_strategy() -> None:
    assert select_enqueue_winner([]) is None
    assert select_enqueue_winner([act("a", "performed")]) is None
    results = [enq("a", "already_queued", "1"), enq("b", "enqueued", "2")]
    winner = select_enqueue_winner(results, "bogus")
    assert winner is not None and winner["moduleName"] == "b"


def test_v16_second_performed_is_reconciled() -> None:
    results = [act("a", "performed"), act("b", "performed"), act("c", "already_resolved")]
    plan = select_action_execution_plan(results)
    assert plan["winner"] is results[0]
    assert [r["status"] for r in plan["reconciled"]] == ["performed", "already_resolved"]
    assert plan["failed"] == []


def test_v17_full_plan() -> None:
    statuses = [
        "failed",
        "performed",
        "performed",
        "conflict",
        "forbidden",
        "invalid",
        "not_eligible",
        "already_resolved",
    ]
    results = [act(m, s) for m, s in zip("abcdefgh", statuses, strict=True)]
    plan = select_action_execution_plan(results)
    assert plan["winner"] is not None and plan["winner"]["moduleName"] == "b"
    assert [r["moduleName"] for r in plan["reconciled"]] == ["c", "d", "g", "h"]
    assert [r["moduleName"] for r in plan["failed"]] == ["a", "e", "f"]
    assert select_first_successful_action(results) is results[1]


def test_v18_no_winner() -> None:
    plan = select_action_execution_plan([act("a", "already_resolved"), act("b", "failed")])
    assert plan["winner"] is None
    assert [r["moduleName"] for r in plan["reconciled"]] == ["a"]
    assert [r["moduleName"] for r in plan["failed"]] == ["b"]


def test_v19_summary() -> None:
    summary = summarize_action_reconciliation(
        [act("m1", "performed"), act("m2", "already_resolved"), act("m3", "failed")]
    )
    assert summary["winner"] is not None and summary["winner"]["moduleName"] == "m1"
    assert (summary["reconciledCount"], summary["failedCount"]) == (1, 1)
    assert summary["reconciledStatuses"] == ["already_resolved"]


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        ("performed", "winner"),
        ("already_resolved", "reconciled"),
        ("not_eligible", "reconciled"),
        ("conflict", "reconciled"),
        ("failed", "failed"),
        ("bogus", "failed"),
    ],
)
def test_v20_classification(status: str, cls: str) -> None:
    assert classify_reconciled_action_status(status) == cls
