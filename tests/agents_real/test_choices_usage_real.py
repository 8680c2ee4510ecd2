"""Issue 18's models, modes and usage through the real npm agents against the fake LLM: the
choices each agent offers (Codex ``model/list``; claude-agent-acp's session modes and models),
a switch through ``AgentBackend.set_choice`` reaching the next model request, every turn's
``TurnEnded.usage`` as the fake LLM reported it, and ``agentdesk history list --json`` showing the
usage of an ``agentdesk exec --agent codex`` run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop.core.backend import Prompt
from desktop.core.events import (
    ChoiceKind,
    ChoicesChanged,
    CommandsChanged,
    Notice,
    TurnEndReason,
    Usage,
)
from tests.agents_real.conftest import RealAgent, npm_cache_root
from tests.agents_real.context_helpers import Run, open_run
from tests.agents_real.test_exec_real import CODEX_CONFIG
from tests.fakes.fake_llm import FakeLLM

#: The fake LLM reports these token counts for the first turn.
SPENT = {"input_tokens": 321, "output_tokens": 45, "cache_read_tokens": 7}


def last_choices(run: Run, kind: ChoiceKind) -> ChoicesChanged:
    offered = [e for e in run.of(ChoicesChanged) if e.kind == kind]
    assert offered, f"no {kind} choices in {[e.type for e in run.events]}"
    last: ChoicesChanged = offered[-1]
    return last


async def switch(run: Run, kind: ChoiceKind, choice: str) -> None:
    backend = run.session.backend
    assert backend is not None
    await backend.set_choice(kind, choice)
    assert last_choices(run, kind).current == choice


@pytest.mark.asyncio
async def test_codex_models_usage_and_a_switch(make_agent: Any) -> None:
    agent: RealAgent = make_agent("codex")
    agent.llm.add({"text": "one", "usage": SPENT}, {"text": "two"})
    run = await open_run(agent)
    try:
        first = await run.turn(Prompt("first"))
        models = last_choices(run, ChoiceKind.MODEL)
        # Codex lists its own catalogue (model/list), not the provider's /models.
        offered = {c.id for c in models.available}
        assert models.current == "fake-model" and "gpt-5.5" in offered, models
        await switch(run, ChoiceKind.MODEL, "gpt-5.5")
        second = await run.turn(Prompt("second"))
    finally:
        await run.session.close()
    assert (first.reason, second.reason) == (TurnEndReason.COMPLETED,) * 2
    # Codex counts cached tokens inside its input tokens; Agent Desk separates them.
    assert first.usage == Usage(input_tokens=314, output_tokens=45, cache_read_tokens=7)
    assert first.model == "fake-model" and second.model == "gpt-5.5"
    assert second.usage == Usage(input_tokens=12, output_tokens=5)
    sent = [r.body.get("model") for r in agent.llm.model_requests]
    assert sent == ["fake-model", "gpt-5.5"], sent
    assert [e for e in run.of(ChoicesChanged) if e.kind == ChoiceKind.MODE] == []
    assert run.errors() == []


@pytest.mark.asyncio
async def test_claude_modes_models_usage_and_switches(make_agent: Any) -> None:
    agent: RealAgent = make_agent("claude")
    agent.llm.add({"text": "one", "usage": SPENT}, {"text": "two"}, {"text": "three"})
    run = await open_run(agent)
    try:
        first = await run.turn(Prompt("first"))
        modes = last_choices(run, ChoiceKind.MODE)
        assert modes.current == "default"
        assert {"default", "acceptEdits", "plan"} <= {c.id for c in modes.available}
        models = last_choices(run, ChoiceKind.MODEL)
        assert models.current == "default" and "haiku" in {c.id for c in models.available}
        await switch(run, ChoiceKind.MODEL, "haiku")
        second = await run.turn(Prompt("second"))
        await switch(run, ChoiceKind.MODE, "plan")
        third = await run.turn(Prompt("third"))
    finally:
        await run.session.close()
    assert {first.reason, second.reason, third.reason} == {TurnEndReason.COMPLETED}
    assert first.usage == Usage(input_tokens=321, output_tokens=45, cache_read_tokens=7)
    assert second.usage == Usage(input_tokens=12, output_tokens=5)
    # ACP names no model per turn: the turn says the session's model choice.
    assert (first.model, second.model) == ("default", "haiku")
    bodies = [r.body for r in agent.llm.model_requests]
    assert len(bodies) == 3
    assert "sonnet" in bodies[0]["model"] and "haiku" in bodies[1]["model"], bodies
    # Claude Code tells the model it is in plan mode from the switch on.
    assert "Plan mode is active" not in json.dumps(bodies[1])
    assert "Plan mode is active" in json.dumps(bodies[2]["messages"][-1])
    assert [n for n in run.of(Notice) if "could not switch" in n.message] == []
    assert run.errors() == []


#: Per other ACP agent: commands it offers, a model to switch to, and whether it reports tokens
#: per turn (codex-acp 0.16.0 sends only ``usage_update`` with the context size it used).
OTHER_ACP = {
    "codex-acp": ({"compact", "init", "review"}, "gpt-5.4", False),
    "gemini": ({"about", "help", "init", "memory"}, "gemini-2.5-pro", True),
}


@pytest.mark.asyncio
@pytest.mark.parametrize("key", sorted(OTHER_ACP))
async def test_other_acp_agents_commands_choices_and_usage(make_agent: Any, key: str) -> None:
    commands, other_model, reports_usage = OTHER_ACP[key]
    agent: RealAgent = make_agent(key)
    agent.llm.add({"text": "one", "usage": SPENT}, {"text": "two"})
    run = await open_run(agent)
    try:
        first = await run.turn(Prompt("first"))
        assert last_choices(run, ChoiceKind.MODE).available
        models = last_choices(run, ChoiceKind.MODEL)
        assert other_model in {c.id for c in models.available} and models.current != other_model
        await switch(run, ChoiceKind.MODEL, other_model)
        second = await run.turn(Prompt("second"))
    finally:
        await run.session.close()
    assert {first.reason, second.reason} == {TurnEndReason.COMPLETED}
    assert commands <= {c.name for c in run.of(CommandsChanged)[-1].commands}
    if reports_usage:
        assert first.usage == Usage(input_tokens=321, output_tokens=45)
    else:
        assert first.usage is None
    assert (first.model, second.model) == (models.current, other_model)
    last = agent.llm.model_requests[-1]
    assert other_model in f"{last.path} {last.body.get('model')}", last.path
    assert run.errors() == []


def test_history_list_shows_a_codex_exec_runs_usage(
    npm_agents: dict[str, Any], llm: FakeLLM, tmp_path: Path
) -> None:
    if isinstance(npm_agents["codex"], str):
        pytest.skip(f"npm could not install codex: {npm_agents['codex']}")
    (tmp_path / "home").mkdir()
    (tmp_path / "ws").mkdir()
    codex_home = tmp_path / "codex-home"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(CODEX_CONFIG.format(url=llm.url))
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OPENAI_", "CODEX_", "ANTHROPIC_", "GEMINI_", "GOOGLE_"))
    }
    bin_dir = npm_cache_root() / "codex" / "node_modules" / ".bin"
    env.update(
        HOME=str(tmp_path / "home"),
        AGENTDESK_HOME=str(tmp_path / "agentdesk"),
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        NO_PROXY="127.0.0.1,localhost",
        CODEX_HOME=str(codex_home),
        OPENAI_API_KEY="sk-fake",
    )
    llm.add({"text": "hello", "usage": {"input_tokens": 1200, "output_tokens": 34}})

    def agentdesk(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "desktop", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    ran = agentdesk(
        "exec", "--agent", "codex", "--workspace", str(tmp_path / "ws"), "-p", "say hello"
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    listed = agentdesk("history", "list", "--json")
    assert listed.returncode == 0, listed.stderr[-2000:]
    rows = json.loads(listed.stdout)
    assert [row["agent"] for row in rows] == ["codex"], rows
    usage = rows[0]["usage"]
    assert (usage["input_tokens"], usage["output_tokens"]) == (1200, 34), usage
    # fake-model is in no price table: no estimate, and it says the estimate is partial.
    assert usage["cost_usd"] is None and usage["cost_partial"] is True, usage
