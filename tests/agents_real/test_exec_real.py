"""``agentdesk exec --agent codex|claude|gemini|codex-acp`` with no settings: the catalogue
entries are found on PATH and run against the fake LLM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.agents_real.conftest import AGENTS, gemini_settings, npm_cache_root
from tests.fakes.fake_llm import FakeLLM

CODEX_CONFIG = """model = "fake-model"
model_provider = "fake"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
[features]
plugins = false
apps = false
remote_plugin = false
[analytics]
enabled = false
[model_providers.fake]
name = "fake"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0
"""


@pytest.mark.parametrize("key", AGENTS)
def test_exec_runs_a_real_agent(
    key: str, npm_agents: dict[str, Any], llm: FakeLLM, tmp_path: Path
) -> None:
    if isinstance(npm_agents[key], str):
        pytest.skip(f"npm could not install {key}: {npm_agents[key]}")
    home = tmp_path / "home"
    workspace = tmp_path / "ws"
    workspace.mkdir()
    home.mkdir()
    bin_dir = npm_cache_root() / key / "node_modules" / ".bin"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OPENAI_", "CODEX_", "ANTHROPIC_", "GEMINI_", "GOOGLE_"))
    }
    env.update(
        HOME=str(home),
        AGENTDESK_HOME=str(tmp_path / "agentdesk"),
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        NO_PROXY="127.0.0.1,localhost",
        SECRET_OTHER_TOKEN="must-not-leak",
    )
    if key in ("codex", "codex-acp"):
        codex_home = tmp_path / "codex-home"
        codex_home.mkdir()
        (codex_home / "config.toml").write_text(CODEX_CONFIG.format(url=llm.url))
        env.update(CODEX_HOME=str(codex_home), OPENAI_API_KEY="sk-fake")
    elif key == "claude":
        env.update(ANTHROPIC_BASE_URL=llm.url, ANTHROPIC_API_KEY="sk-ant-fake")
    else:
        gemini_settings(home)
        env.update(GEMINI_API_KEY="fake-key", GOOGLE_GEMINI_BASE_URL=llm.url)
    llm.add({"text": f"hello from {key}"})
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "desktop",
            "exec",
            "--agent",
            key,
            "--workspace",
            str(workspace),
            "--no-history",
            "--json",
            "--on-request",
            "deny",
            "-p",
            "say hello",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    ready = next(e for e in events if e["type"] == "agent_ready")
    assert ready["protocol"] == ("codex" if key == "codex" else "acp")
    assert ready["session_id"]
    text = "".join(e["text"] for e in events if e["type"] == "text_delta")
    assert f"hello from {key}" in text
    assert any(e["type"] == "turn_ended" and e["reason"] == "completed" for e in events)
