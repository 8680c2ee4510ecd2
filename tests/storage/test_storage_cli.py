"""`agentdesk keys|profiles|history` and `exec --profile`, plus the "no key leak" check."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import psutil
import pytest

from desktop.cli.main import main
from desktop.core.entries import ToolItem
from desktop.core.history import HistoryStore
from desktop.core.launch.resolve import resolve
from desktop.core.launch.spec import AgentRef, MissingKeyError
from desktop.core.secrets import SecretStore
from desktop.core.settings import SettingsStore
from tests.core.support import fake_command
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn
from tests.fakes.memory_keyring import InMemoryKeyring

KEY = "sk-ant-test-7Qz9xLeakCanary0042"


def agentdesk(
    *args: str, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        input=stdin,
        env={**os.environ, **(env or {})},
        check=False,
    )


def run_in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_profiles_add_list_remove(tmp_path: Path) -> None:
    added = agentdesk(
        "profiles",
        "add",
        "local",
        "--provider",
        "openai",
        "--model",
        "qwen3",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--max-tokens",
        "2048",
        cwd=tmp_path,
    )
    assert added.returncode == 0, added.stderr
    listed = agentdesk("profiles", "list", cwd=tmp_path).stdout.splitlines()
    assert [line.split()[0] for line in listed] == ["anthropic", "openai", "local"]
    assert "base_url=http://127.0.0.1:9/v1 max_tokens=2048" in listed[2]
    assert (
        agentdesk(
            "profiles", "add", "local", "--provider", "openai", "--model", "m", cwd=tmp_path
        ).returncode
        == 2
    )
    bad = agentdesk(
        "profiles",
        "add",
        "x",
        "--provider",
        "openai",
        "--model",
        "m",
        "--base-url",
        "ftp://nope",
        cwd=tmp_path,
    )
    assert bad.returncode == 2 and "base_url" in bad.stderr
    in_use = agentdesk("profiles", "remove", "anthropic", cwd=tmp_path)
    assert in_use.returncode == 1 and "used by agent(s) builtin" in in_use.stderr
    assert agentdesk("profiles", "remove", "local", cwd=tmp_path).returncode == 0
    assert SettingsStore().settings.profile("local") is None


def test_keys_set_list_delete(
    memory_keyring: InMemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_in_process(monkeypatch, capsys, "keys", "set", "anthropic", stdin=KEY + "\n")
    assert code == 0 and KEY not in out and "sk-…0042" in out
    assert memory_keyring.passwords == {("agentdesk", "anthropic"): KEY}
    code, out, _ = run_in_process(monkeypatch, capsys, "keys", "list")
    assert code == 0 and KEY not in out
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert "stored (sk-…0042)" in lines["anthropic"] and "no key" in lines["openai"]
    code, _, err = run_in_process(monkeypatch, capsys, "keys", "set", "nope", stdin="x")
    assert code == 2 and "unknown profile" in err
    code, _, _ = run_in_process(monkeypatch, capsys, "keys", "delete", "anthropic")
    assert code == 0 and memory_keyring.passwords == {}
    assert run_in_process(monkeypatch, capsys, "keys", "delete", "anthropic")[0] == 1
    assert KEY not in SettingsStore().path.read_text()


def test_keys_set_refuses_without_a_secure_keyring(tmp_path: Path) -> None:
    result = agentdesk(
        "keys",
        "set",
        "openai",
        cwd=tmp_path,
        stdin=KEY,
        env={"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"},
    )
    assert result.returncode == 1
    assert "No secure system keyring" in result.stderr and "set OPENAI_API_KEY" in result.stderr
    assert result.stderr.count("No secure system keyring") == 1  # said once


@pytest.mark.asyncio
async def test_profile_becomes_flags_and_the_key_only_env(memory_keyring: InMemoryKeyring) -> None:
    store = SettingsStore()
    settings = store.settings
    work = settings.profiles[0].model_copy(
        update={"name": "work", "base_url": "http://127.0.0.1:9", "max_tokens": 100}
    )
    store.save(settings.model_copy(update={"profiles": [*settings.profiles, work]}))
    secrets = SecretStore(environ={})
    with pytest.raises(MissingKeyError, match="agentdesk keys set work"):
        await resolve(AgentRef(profile="work"), store.settings, secrets)
    await secrets.set("work", KEY)
    launch = await resolve(AgentRef(profile="work"), store.settings, secrets)
    assert launch.command[-8:] == [
        "--provider",
        "anthropic",
        "--model",
        "claude-sonnet-4-6",
        "--base-url",
        "http://127.0.0.1:9",
        "--max-tokens",
        "100",
    ]
    assert KEY not in " ".join(launch.command)
    assert launch.keys == {"ANTHROPIC_API_KEY": KEY} and KEY not in repr(launch)


def test_exec_records_history_and_continues(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    cmd = " ".join(fake_command("aionrs-0.2", {"turns": [[{"text": "first answer"}]]}, tmp_path))
    first = agentdesk("exec", "--agent-cmd", cmd, "-p", "remember the tokenizer", cwd=ws)
    assert first.returncode == 0, first.stderr
    listed = agentdesk("history", "list", "--json", cwd=ws)
    [conv] = json.loads(listed.stdout)
    assert conv["title"] == "remember the tokenizer" and conv["agent_session_id"]
    again = agentdesk(
        "exec", "--agent-cmd", cmd, "--continue", conv["id"][:8], "-p", "more", cwd=ws
    )
    assert again.returncode == 0, again.stderr
    shown = agentdesk("history", "show", conv["id"][:8], cwd=ws).stdout
    assert shown.count("## You") == 2 and "first answer" in shown
    exported = agentdesk(
        "history", "export", conv["id"], "--format", "json", "-o", str(tmp_path / "c.json"), cwd=ws
    )
    assert exported.returncode == 0
    doc = json.loads((tmp_path / "c.json").read_text())
    assert doc["agent_session_id"] == conv["agent_session_id"]  # resumed the same session
    found = agentdesk("history", "search", "tokeniz", "--workspace", str(ws), cwd=ws)
    assert found.returncode == 0 and conv["id"][:12] in found.stdout
    assert agentdesk("history", "show", "zzz", cwd=ws).returncode == 2
    assert agentdesk("exec", "--agent-cmd", cmd, "--no-history", "-p", "x", cwd=ws).returncode == 0
    assert len(HistoryStore().list_conversations()) == 1


def _watch_command_lines(stop: threading.Event, seen: list[str]) -> None:
    me = psutil.Process()
    while not stop.is_set():
        for child in me.children(recursive=True):
            with contextlib.suppress(psutil.Error):
                seen.append(" ".join(child.cmdline()))
        stop.wait(0.02)


def test_no_key_leak_with_the_builtin_agent(
    memory_keyring: InMemoryKeyring,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    agentdesk_home: Path,
    tmp_path: Path,
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    monkeypatch.setenv("AGENTDESK_PROTOCOL_LOG", "1")
    monkeypatch.chdir(ws)
    turns: list[Any] = [
        Turn(
            text="Checking.",
            tool_calls=[ToolCallSpec("Bash", {"command": "echo $ANTHROPIC_API_KEY"})],
        ),
        Turn(text="Done."),
    ]
    with FakeLLM(turns) as llm:
        assert (
            run_in_process(
                monkeypatch,
                capsys,
                "profiles",
                "add",
                "fake",
                "--provider",
                "anthropic",
                "--model",
                "fake-model",
                "--base-url",
                llm.url,
            )[0]
            == 0
        )
        assert run_in_process(monkeypatch, capsys, "keys", "set", "fake", stdin=KEY)[0] == 0
        stop, seen = threading.Event(), []
        watcher = threading.Thread(target=_watch_command_lines, args=(stop, seen))
        watcher.start()
        try:
            code, out, err = run_in_process(
                monkeypatch,
                capsys,
                "exec",
                "--profile",
                "fake",
                "--on-request",
                "approve",
                "-p",
                "show the key",
            )
        finally:
            stop.set()
            watcher.join()
        assert code == 0, err
        headers = llm.model_requests[0].headers  # the key did reach the agent:
        assert KEY in (headers.get("x-api-key", "") + headers.get("authorization", ""))
    assert any("--provider anthropic" in line for line in seen)
    assert not [line for line in seen if KEY in line]
    assert "Done." in out
    files = [p for p in agentdesk_home.rglob("*") if p.is_file()]
    assert any(p.name == "history.sqlite3" for p in files)
    assert any("protocol" in p.parts for p in files)
    leaks = [p for p in files if KEY.encode() in p.read_bytes()]
    assert leaks == []
    store = HistoryStore()
    [conv] = store.list_conversations()
    tool = next(i for i in store.get(conv.id).items if i.kind == "tool")
    assert isinstance(tool.entry, ToolItem)
    assert tool.entry.request.args == {"command": "echo $ANTHROPIC_API_KEY"} and tool.complete
    store.close()


def test_recorder_redacts_known_keys() -> None:
    from desktop.core.events import TextDelta, TurnStarted
    from desktop.core.history import HistoryRecorder, HistoryWriter
    from desktop.core.traffic_log import Redactor

    redactor = Redactor([KEY])
    writer = HistoryWriter()
    recorder = HistoryRecorder.start(writer, "/w", "a", redactor=redactor)
    recorder.on_event(TurnStarted(turn_id="t", prompt=f"my key is {KEY}"))
    recorder.on_event(TextDelta(turn_id="t", text=f"env: ANTHROPIC_API_KEY={KEY}"))
    recorder.detach()
    writer.close()
    assert KEY.encode() not in writer.path.read_bytes()
    items = HistoryStore().get(recorder.conversation_id).items
    assert [i.text for i in items] == ["my key is [REDACTED]", "env: ANTHROPIC_API_KEY=[REDACTED]"]
