"""aionrs usage and model through ``agentdesk exec``, priced in ``agentdesk history list``."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_exec import agent_cmd, agentdesk

SCENARIO = {
    "models": ["gpt-4o", "gpt-4o-mini"],
    "prompts": {
        "one": [{"text": "first"}, {"usage": {"input_tokens": 1_000_000, "output_tokens": 0}}],
        "two": [{"text": "second"}, {"usage": {"input_tokens": 0, "output_tokens": 100_000}}],
    },
}


def test_each_turn_says_its_usage_and_model_and_the_list_sums_the_cost(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    cmd = agent_cmd("aionrs-0.2", SCENARIO, tmp_path)
    result = agentdesk(
        "exec", "--agent-cmd", cmd, "--json", "-p", "one", "-p", "two", cwd=workspace
    )
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    choices = [e for e in events if e["type"] == "choices_changed"]
    assert choices and choices[0]["current"] == "gpt-4o"
    assert [c["id"] for c in choices[0]["available"]] == ["gpt-4o", "gpt-4o-mini"]
    ends = [e for e in events if e["type"] == "turn_ended"]
    assert [
        (e["model"], e["usage"]["input_tokens"], e["usage"]["output_tokens"]) for e in ends
    ] == [
        ("gpt-4o", 1_000_000, 0),
        ("gpt-4o", 0, 100_000),  # aionrs 0.2 reports cumulative usage: the host subtracts
    ]
    [conv] = json.loads(agentdesk("history", "list", "--json", cwd=workspace).stdout)
    usage = conv["usage"]
    assert usage["input_tokens"] == 1_000_000 and usage["output_tokens"] == 100_000
    assert usage["cost_usd"] == 2.5 + 1.0 and usage["cost_partial"] is False
    listed = agentdesk("history", "list", cwd=workspace).stdout
    assert "1,100,000 tokens" in listed and "≈ $3.50" in listed


def test_an_agent_that_names_no_model_has_tokens_but_no_cost(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    scenario = {"prompts": {"one": [{"text": "hi"}, {"usage": {"input_tokens": 7}}]}}
    cmd = agent_cmd("spec", scenario, tmp_path)
    result = agentdesk("exec", "--agent-cmd", cmd, "--json", "-p", "one", cwd=workspace)
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert not any(e["type"] == "choices_changed" for e in events)
    [conv] = json.loads(agentdesk("history", "list", "--json", cwd=workspace).stdout)
    assert conv["usage"]["input_tokens"] == 7 and conv["usage"]["cost_usd"] is None
    listed = agentdesk("history", "list", cwd=workspace).stdout
    assert "7 tokens" in listed and "$" not in listed
