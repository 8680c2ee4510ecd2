"""What a prompt's mentioned files and images become on each protocol's wire, through the fake
peers: ACP blocks per ``promptCapabilities`` (image, embedded resource, resource link), Codex
``localImage`` items, aionrs ``files``; images refused with a notice where the agent does not
take them. ACP ``available_commands_update`` becomes ``CommandsChanged``; none sent, none seen."""

from __future__ import annotations

import asyncio
import base64
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop.core.backend import Prompt
from desktop.core.context.commands import acp_commands
from desktop.core.context.images import ImageInput, image_input
from desktop.core.events import CommandsChanged, Notice, SessionEvent, TurnEnded
from desktop.core.protocols.acp.adapter import AcpBackend, AcpLaunch
from desktop.core.protocols.codex.adapter import CodexAppServerBackend, CodexLaunch
from desktop.core.session import Session
from tests.core.support import make_session
from tests.waiting import until

FAKES = Path(__file__).parents[1] / "fakes"
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def files(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "src").mkdir(exist_ok=True)
    note = tmp_path / "src" / "notes.py"
    note.write_text("print('hi')\n")
    shot = tmp_path / "shot.png"
    shot.write_bytes(PNG)
    return note, shot


async def acp_turn(
    tmp_path: Path, caps: dict[str, Any], commands: list[dict[str, Any]] | None, prompt: Prompt
) -> tuple[list[SessionEvent], list[dict[str, Any]]]:
    log = tmp_path / "peer.log"
    env = {
        "PATH": "/usr/bin:/bin",
        "FAKE_PEER_LOG": str(log),
        "FAKE_PEER_SIMPLE": "1",
        "FAKE_PEER_PROMPT_CAPS": json.dumps(caps),
    }
    if commands is not None:
        env["FAKE_PEER_COMMANDS"] = json.dumps(commands)
    spec = AcpLaunch([sys.executable, str(FAKES / "fake_acp_peer.py")], tmp_path, env, name="a")
    session = Session(lambda rid: AcpBackend(spec, resume_id=rid), workspace=tmp_path)
    events: list[SessionEvent] = []
    session.subscribe(events.append)
    try:
        await session.start()
        session.submit(prompt)
        await asyncio.wait_for(session.wait_idle(), 20)
    finally:
        await session.close()
    sent = [json.loads(line) for line in log.read_text().splitlines()]
    return events, sent


def prompt_blocks(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return next(m for m in sent if m.get("method") == "session/prompt")["params"]["prompt"]


@pytest.mark.asyncio
async def test_acp_with_image_and_embedded_context(tmp_path: Path) -> None:
    note, shot = files(tmp_path)
    caps = {"image": True, "embeddedContext": True}
    prompt = Prompt("look at @src/notes.py", (str(note), str(shot)))
    events, sent = await acp_turn(tmp_path, caps, None, prompt)
    text, embedded, image = prompt_blocks(sent)
    assert text == {"type": "text", "text": "look at @src/notes.py"}
    assert embedded["type"] == "resource"
    assert embedded["resource"]["uri"] == note.as_uri()
    assert embedded["resource"]["text"] == "print('hi')\n"
    assert image["type"] == "image" and image["mimeType"] == "image/png"
    assert base64.b64decode(image["data"]) == PNG
    assert not [e for e in events if isinstance(e, Notice) and "images" in e.message]
    assert not [e for e in events if isinstance(e, CommandsChanged)]  # none offered, none seen
    assert any(isinstance(e, TurnEnded) for e in events)


@pytest.mark.asyncio
async def test_acp_baseline_gets_links_and_no_image(tmp_path: Path) -> None:
    note, shot = files(tmp_path)
    events, sent = await acp_turn(tmp_path, {}, None, Prompt("see", (str(note), str(shot))))
    assert prompt_blocks(sent) == [
        {"type": "text", "text": "see"},
        {"type": "resource_link", "uri": note.as_uri(), "name": "notes.py"},
    ]
    [notice] = [e for e in events if isinstance(e, Notice) and "images" in e.message]
    assert notice.level == "warning" and "shot.png" in notice.message
    assert notice.i18n is not None


@pytest.mark.asyncio
async def test_acp_commands_become_data(tmp_path: Path) -> None:
    commands = [
        {"name": "review", "description": "Review the changes"},
        {"name": "web", "description": "Search the web", "input": {"hint": "query"}},
    ]
    events, _ = await acp_turn(tmp_path, {}, commands, Prompt("hi"))
    [changed] = [e for e in events if isinstance(e, CommandsChanged)]
    assert [(c.name, c.description, c.hint) for c in changed.commands] == [
        ("review", "Review the changes", None),
        ("web", "Search the web", "query"),
    ]
    assert not [e for e in events if isinstance(e, Notice) and "commands" in e.message]


@pytest.mark.asyncio
async def test_codex_gets_local_images_and_named_files(tmp_path: Path) -> None:
    note, shot = files(tmp_path)
    log = tmp_path / "codex.log"
    env = {"PATH": "/usr/bin:/bin", "FAKE_PEER_LOG": str(log)}
    backend = CodexAppServerBackend(
        CodexLaunch([sys.executable, str(FAKES / "fake_codex_peer.py")], tmp_path, env, name="c")
    )
    session = Session(lambda _rid: backend, workspace=tmp_path)
    await session.start()

    def turn_start() -> dict[str, Any] | None:
        lines = log.read_text().splitlines() if log.exists() else []
        return next((m for m in map(json.loads, lines) if m.get("method") == "turn/start"), None)

    try:
        session.submit(Prompt("fix @src/notes.py", (str(note), str(shot))))
        await until(lambda: turn_start() is not None, timeout=20)
    finally:
        await session.close()
    start = turn_start()
    assert start is not None
    text, image = start["params"]["input"]
    assert text["type"] == "text" and text["text"].startswith("fix @src/notes.py")
    assert f"- {note}" in text["text"] and "shot.png" not in text["text"]
    assert image == {"type": "localImage", "path": str(shot)}


@pytest.mark.asyncio
@pytest.mark.parametrize("said", ["unsupported", "supported", "unknown"])
async def test_aionrs_files_and_images_per_image_input(tmp_path: Path, said: str) -> None:
    note, shot = files(tmp_path)
    log = tmp_path / "messages.log"
    scenario = {"image_input": said, "message_log": str(log)}
    session, rec = make_session(tmp_path, "aionrs-0.2", scenario)
    await session.start()
    try:
        session.submit(Prompt("read @src/notes.py", (str(note), str(shot))))
        await rec.wait_for(TurnEnded, timeout=20.0)
    finally:
        await session.close()
    [message] = [json.loads(line) for line in log.read_text().splitlines()]
    refused = [n for n in rec.of(Notice) if "does not take images" in n.message]
    if said == "unsupported":
        assert message["files"] == [str(note)] and len(refused) == 1
    else:
        assert message["files"] == [str(note), str(shot)] and not refused


def test_malformed_acp_commands_are_skipped() -> None:
    update = {
        "availableCommands": [
            {"name": "/ok", "description": "fine"},
            {"name": "bad name", "description": "spaces"},
            {"description": "no name"},
            "junk",
        ]
    }
    assert [c.name for c in acp_commands(update).commands] == ["ok"]
    assert acp_commands({}).commands == []


def test_image_input_per_protocol() -> None:
    assert image_input("acp", {"promptCapabilities": {"image": True}}) is ImageInput.TAKEN
    assert image_input("acp", {}) is ImageInput.REFUSED
    assert image_input("codex", {}) is ImageInput.TAKEN
    assert image_input("aionrs", {"image_input": "unsupported"}) is ImageInput.REFUSED
    assert image_input("aionrs", {"image_input": "supported"}) is ImageInput.TAKEN
    assert image_input("aionrs", {}) is ImageInput.UNKNOWN
    assert image_input("remote", {}) is ImageInput.UNKNOWN
