"""The ACP adapter against a scripted peer process (no npm needed)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import (
    Decision,
    PlanPriority,
    PlanStatus,
    PlanUpdated,
    SessionEvent,
    ToolRequested,
    TurnEnded,
)
from desktop.core.protocols.acp.adapter import AcpBackend, AcpLaunch
from desktop.core.session import Session

PEER = Path(__file__).parents[1] / "fakes" / "fake_acp_peer.py"


async def run(
    tmp_path: Path, decisions: dict[str, Decision], resume: str | None = None
) -> tuple[list[SessionEvent], list[dict]]:
    log = tmp_path / "peer.log"
    log.unlink(missing_ok=True)
    spec = AcpLaunch(
        [sys.executable, str(PEER)],
        tmp_path,
        {"PATH": "/usr/bin:/bin", "FAKE_PEER_LOG": str(log)},
        name="fake-acp",
    )
    session = Session(
        lambda rid: AcpBackend(spec, resume_id=rid), workspace=tmp_path, resume_id=resume
    )
    events: list[SessionEvent] = []

    def on(event: SessionEvent) -> None:
        events.append(event)
        if isinstance(event, ToolRequested) and event.pending:
            session.decide(event.call_id, decisions[event.name])

    session.subscribe(on)
    await session.start()
    session.submit(Prompt("go"))
    await asyncio.wait_for(session.wait_idle(), 10)
    await session.close()
    return events, [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.asyncio
async def test_permission_options_fs_and_updates(tmp_path: Path) -> None:
    events, sent = await run(
        tmp_path, {"Write a.txt": Decision.ALWAYS, "write_file": Decision.ONCE}
    )
    init = next(m for m in sent if m.get("method") == "initialize")
    assert init["params"]["clientCapabilities"]["fs"] == {
        "readTextFile": True,
        "writeTextFile": True,
    }
    assert init["params"]["clientCapabilities"]["terminal"] is True
    answers = {m["id"]: m for m in sent if "method" not in m}
    # "Always" is kept by the host: the agent gets its one-off option and keeps asking.
    assert answers[100]["result"]["outcome"] == {"outcome": "selected", "optionId": "yes"}
    assert (tmp_path / "written.txt").read_text() == "via fs\n"
    assert "outside the workspace" in json.dumps(answers[102]["error"])
    cards = [e for e in events if isinstance(e, ToolRequested) and e.pending]
    assert cards[0].preview and "+one" in cards[0].preview.text
    write = next(e for e in events if isinstance(e, ToolRequested) and e.name == "write_file")
    assert write.preview and "+via fs" in write.preview.text  # approved by the "always" rule
    kinds = [e.type for e in events]
    assert "text_delta" in kinds and "thinking_delta" in kinds and "tool_finished" in kinds
    plan = next(e for e in events if isinstance(e, PlanUpdated))
    assert [(s.content, s.status, s.priority) for s in plan.entries] == [
        ("step one", PlanStatus.COMPLETED, PlanPriority.HIGH)
    ]
    end = next(e for e in events if isinstance(e, TurnEnded))
    assert end.usage is not None and end.usage.input_tokens == 11


@pytest.mark.asyncio
async def test_reject_maps_to_reject_option_and_denied_write_is_not_written(tmp_path: Path) -> None:
    events, sent = await run(
        tmp_path, {"Write a.txt": Decision.DENY, "write_file": Decision.DENY}, resume="s-old"
    )
    assert any(m.get("method") == "session/load" for m in sent)
    answers = {m["id"]: m for m in sent if "method" not in m}
    assert answers[100]["result"]["outcome"] == {"outcome": "selected", "optionId": "no"}
    assert "error" in answers[101]
    assert not (tmp_path / "written.txt").exists()
    assert "REPLAYED" not in "".join(getattr(e, "text", "") for e in events)
    assert any(e.type == "tool_cancelled" for e in events)
