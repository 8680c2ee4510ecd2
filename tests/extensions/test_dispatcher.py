"""Dispatcher vectors 26-39 with real extension folders imported by the real loader."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from desktop.core.extensions.dispatcher import Dispatcher, InvocationTools
from desktop.core.extensions.policy import Scope, TrustMode
from desktop.core.extensions.registry import LoadedModule, Snapshot, commit_modules
from tests.extensions.helpers import make_runtime, write_extension
from tests.waiting import until

ENQUEUE = """
async def handler(event, tools):
    return await tools.enqueue_job({"type": "agent_instruction", "projectId": "p",
                                    "payload": {"prompt": "hi", "dedupeKey": "%s"}})

def register_agent_events(registry):
    registry.on("evt", handler, priority=%d)
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / "ext"


async def emit(runtime: Any, payload: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = await runtime.emit({"type": "evt", "payload": payload or {}})
    return result


@pytest.mark.asyncio
async def test_v26_no_handlers(root: Path, tmp_path: Path) -> None:
    runtime = make_runtime(root, tmp_path)
    await runtime.start()
    assert await emit(runtime) == []
    await runtime.close()


class _Host:
    trust_mode = TrustMode.ENFORCED

    async def enqueue_job(self, module: LoadedModule, job: Any, scope: Scope | None) -> Any:
        return {"status": "enqueued", "job": {"id": "j", "type": "t", "projectId": "p"}}

    def session_settings(self, session_id: str) -> dict[str, Any]:
        return {}


def _snapshot(runtime: Any) -> Snapshot:
    report = runtime.loader.load()
    return Snapshot(modules=commit_modules(report.loaded))


@pytest.mark.asyncio
async def test_v27_v28_v29_actions_and_winner(root: Path, tmp_path: Path) -> None:
    write_extension(
        root,
        "alpha-action",
        """
        def h(event, tools):
            return {"kind": "action_request", "actionType": "transcript.upsert", "payload": {}}
        def register_agent_events(registry):
            registry.on("evt", h, priority=10)
    """,
    )
    write_extension(
        root,
        "beta-action",
        """
        async def h(event, tools):
            return {"kind": "action_request", "actionType": "approval.decide", "payload": {}}
        def register_agent_events(registry):
            registry.on("evt", h, priority=20)
    """,
    )
    snapshot = _snapshot(make_runtime(root, tmp_path))
    calls: list[str] = []

    async def execute(request: dict[str, Any], module: LoadedModule, scope: Any) -> Any:
        calls.append(request["actionType"])
        return {"actionType": request["actionType"], "status": "performed"}

    dispatcher = Dispatcher(_Host())
    results = await dispatcher.emit(snapshot, {"type": "evt", "payload": {}}, execute)
    assert calls == ["transcript.upsert"]
    assert [r["status"] for r in results] == ["performed", "not_eligible"]
    assert results[1]["details"]["code"] == "action_winner_already_selected"
    assert results[1]["details"]["winnerModuleName"] == "alpha-action"
    no_exec = await dispatcher.emit(snapshot, {"type": "evt", "payload": {}}, None)
    assert no_exec[0]["status"] == "failed"
    assert no_exec[0]["details"]["code"] == "action_executor_unavailable"


@pytest.mark.asyncio
async def test_v30_undeclared_action_forbidden(root: Path, tmp_path: Path) -> None:
    write_extension(
        root,
        "nocap",
        """
        def h(event, tools):
            return {"kind": "action_request", "actionType": "approval.decide", "payload": {}}
        def register_agent_events(registry):
            registry.on("evt", h)
    """,
        events=["evt"],
        actions=[],
    )
    runtime = make_runtime(root, tmp_path)
    await runtime.start()
    [result] = await emit(runtime)
    assert result["status"] == "forbidden"
    assert result["details"]["code"] == "undeclared_capability"
    await runtime.close()


@pytest.mark.asyncio
async def test_v31_direct_action_result_is_invalid(root: Path, tmp_path: Path) -> None:
    write_extension(
        root,
        "direct",
        """
        def h(event, tools):
            return {"actionType": "approval.decide", "status": "performed", "details": {"a": 1}}
        def register_agent_events(registry):
            registry.on("evt", h)
    """,
    )
    runtime = make_runtime(root, tmp_path)
    await runtime.start()
    [result] = await emit(runtime)
    assert result["status"] == "invalid"
    assert result["details"]["code"] == "direct_action_result_disallowed"
    assert result["details"]["a"] == 1
    await runtime.close()


@pytest.mark.asyncio
async def test_v32_order(root: Path, tmp_path: Path) -> None:
    template = """
        def make(label):
            def h(event, tools):
                return {{"kind": "handler_result", "details": {{"label": label}}}}
            return h
        def register_agent_events(registry):
            {body}
    """
    write_extension(root, "zeta", template.format(body='registry.on("evt", make("zeta-1"), 20)'))
    write_extension(
        root,
        "alpha",
        template.format(
            body='registry.on("evt", make("alpha-1"), 20); registry.on("evt", make("alpha-2"), 20)'
        ),
    )
    write_extension(root, "beta", template.format(body='registry.on("evt", make("beta-1"), 10)'))
    runtime = make_runtime(root, tmp_path)
    await runtime.start()
    labels = [r["details"]["label"] for r in await emit(runtime)]
    assert labels == ["beta-1", "alpha-1", "alpha-2", "zeta-1"]
    await runtime.close()


@pytest.mark.asyncio
async def test_v33_v34_broken_and_missing_register(root: Path, tmp_path: Path) -> None:
    write_extension(
        root,
        "broken",
        """
        def h(event, tools):
            raise RuntimeError("kaput")
        def register_agent_events(registry):
            registry.on("evt", h, priority=1)
    """,
    )
    write_extension(root, "noregister", "X = 1\n")
    write_extension(root, "healthy", ENQUEUE % ("k", 2))
    runtime = make_runtime(root, tmp_path)
    report = await runtime.start()
    assert [f.code for f in report.failures] == ["missing_register"]
    results = await emit(runtime)
    assert [r["kind"] for r in results] == ["handler_error", "enqueue_result"]
    assert results[0]["error"] == "kaput"
    await runtime.close()


@pytest.mark.asyncio
async def test_v35_v36_timeouts_sync_and_async(root: Path, tmp_path: Path) -> None:
    ended = tmp_path / "slow-ended"  # written when the slow handler ends, however it ends
    write_extension(
        root,
        "slow",
        f"""
        import asyncio
        from pathlib import Path
        async def h(event, tools):
            try:
                await asyncio.sleep(0.1)
                return await tools.enqueue_job({{"type": "agent_instruction", "projectId": "p",
                                                "payload": {{"prompt": "late"}}}})
            finally:
                Path({str(ended)!r}).touch()
        def register_agent_events(registry):
            registry.on("evt", h, priority=1, timeout_ms=25)
    """,
    )
    write_extension(
        root,
        "hang",
        """
        import time
        def h(event, tools):
            time.sleep(3600)
        def register_agent_events(registry):
            registry.on("evt", h, priority=2, timeout_ms=30)
    """,
    )
    write_extension(root, "fast", ENQUEUE % ("fast", 3))
    runtime = make_runtime(root, tmp_path)
    await runtime.start()
    started = time.monotonic()
    results = await emit(runtime)
    elapsed = time.monotonic() - started
    assert [r["kind"] for r in results] == ["handler_error", "handler_error", "enqueue_result"]
    assert results[0]["error"] == "agent event handler timed out after 25ms"
    assert elapsed < 0.5
    await until(ended.exists, 5, "the slow handler to end")
    prompts = [j["payload"].get("prompt") for j in runtime.jobs.list_jobs()]
    assert "late" not in prompts
    await runtime.close()


@pytest.mark.asyncio
async def test_garbage_return_values(root: Path, tmp_path: Path) -> None:
    write_extension(
        root,
        "garbage",
        """
        class Weird:
            pass
        def a(event, tools):
            return Weird()
        def b(event, tools):
            return {"kind": "action_request", "actionType": "approval.decide", "payload": 5}
        async def c(event, tools):
            return {"kind": "enqueue_result", "moduleName": "someone-else", "status": "enqueued",
                    "job": {"id": "x", "type": "t", "projectId": "p"}}
        def register_agent_events(registry):
            registry.on("evt", a); registry.on("evt", b); registry.on("evt", c)
            registry.on("", a); registry.on("evt", "not callable")
    """,
    )
    runtime = make_runtime(root, tmp_path)
    await runtime.start()
    results = await emit(runtime)
    assert [r["kind"] for r in results] == ["handler_result", "action_result", "enqueue_result"]
    assert results[1]["status"] == "invalid"
    assert all(r["moduleName"] == "garbage" for r in results)  # no spoofing (T4)
    await runtime.close()


@pytest.mark.asyncio
async def test_tools_close_after_invocation() -> None:
    host = _Host()
    module: Any = SimpleNamespace(name="m")
    tools = InvocationTools(host, module, None)
    assert tools.get_session_settings("s") == {}
    tools.close()
    with pytest.raises(RuntimeError, match="no longer active"):
        tools.get_session_setting("s", "k")
    with pytest.raises(RuntimeError, match="no longer active"):
        await tools.enqueue_job({})


@pytest.mark.asyncio
async def test_v37_v38_v39_reload(root: Path, tmp_path: Path) -> None:
    started = tmp_path / "alpha-started"
    slow = f"""
        import asyncio
        from pathlib import Path
        async def h(event, tools):
            Path({str(started)!r}).touch()
            await asyncio.sleep(0.08)
        def register_agent_events(registry):
            registry.on("evt", h)
    """
    write_extension(root, "alpha", slow)
    runtime = make_runtime(root, tmp_path)
    await runtime.start()
    first = runtime.snapshot.version
    write_extension(root, "beta", slow)
    in_flight = asyncio.ensure_future(emit(runtime))
    await until(started.exists, 5, "the in-flight handler to start")
    reloaded = await runtime.reload("r1")
    assert reloaded["status"] == "ok" and reloaded["loadedCount"] == 2
    assert reloaded["snapshotVersion"] != first
    assert len(await in_flight) == 1
    assert len(await emit(runtime)) == 2
    write_extension(root, "gamma", slow, manifest={"runtime": {"coreApiVersionRange": ">=2 <3"}})
    version = runtime.snapshot.version
    failed = await runtime.reload()
    assert failed["code"] == "reload_failed"
    assert failed["errors"][0]["code"] == "incompatible_runtime"
    assert runtime.snapshot.version == version and len(runtime.snapshot.modules) == 2
    await runtime.close()


def test_registration_normalisation() -> None:
    from desktop.core.extensions.registry import ModuleRegistry

    registry = ModuleRegistry("m")
    registry.on("  evt  ", lambda e, t: None, priority=10.7, timeout_ms=0.5)
    registry.on("evt", lambda e, t: None, priority=-0.5, timeout_ms=-1)
    registry.on("evt", lambda e, t: None, priority="x")  # type: ignore[arg-type]
    first, second, third = registry.handlers
    assert (first.event_type, first.priority, first.timeout_ms) == ("evt", 10, 1)
    assert (second.priority, second.timeout_ms) == (-1, 30_000)
    assert third.priority == 100
