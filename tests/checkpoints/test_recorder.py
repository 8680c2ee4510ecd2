"""The checkpoint recorder on a real Session driving the fake aionrs agent: checkpoints before and
after each turn and around each edit or command, in order, numbered per conversation; restores
refused while a turn runs; one notice when the workspace disappears."""

from __future__ import annotations

from pathlib import Path

import pytest

from desktop.core.backend import Prompt
from desktop.core.checkpoints.model import ChangeKind, Checkpoint, CheckpointKind
from desktop.core.checkpoints.recorder import CheckpointRecorder
from desktop.core.checkpoints.store import CheckpointError, CheckpointStore
from desktop.core.events import ApprovalMode, Notice, TurnEnded, TurnStarted
from tests.core.support import make_session
from tests.waiting import until

K = CheckpointKind


def _tool(name: str, args: dict[str, object], category: str) -> dict[str, object]:
    return {"tool": {"name": name, "args": args, "category": category}}


@pytest.mark.asyncio
async def test_turns_and_tool_calls_are_recorded_in_order(workspace: Path, data_dir: Path) -> None:
    (workspace / "log.txt").write_text("one\n")
    turns = [
        [
            _tool("Write", {"file_path": "new.txt", "content": "new\n"}, "edit"),
            _tool("Read", {"file_path": "new.txt"}, "info"),
            _tool("Bash", {"command": "echo two >> log.txt"}, "exec"),
            {"sleep": 0.3},
            {"text": "done"},
        ],
        [{"text": "nothing to change"}],
    ]
    session, events = make_session(workspace, "spec", {"turns": turns}, mode=ApprovalMode.YOLO)
    store = CheckpointStore.open(workspace, data_dir)
    recorder = CheckpointRecorder(store, "conv-1", first_turn=4)
    recorded: list[Checkpoint] = []
    recorder.add_listener(recorded.append)
    recorder.attach(session)
    try:
        await session.start()
        session.submit(Prompt("change things"))
        started = await events.wait_for(TurnStarted, timeout=20)
        await until(lambda: store.running(), 20, "the turn to be running")
        with pytest.raises(CheckpointError, match="stop it"):
            store.restore("conv-1", 4)
        await events.wait_for(TurnEnded, timeout=20)
        await until(lambda: len(recorded) == 6, 20, "the turn's checkpoints")
        assert recorder.turn_of(started.turn_id) == 4
        assert [(c.kind, c.turn) for c in recorded] == [
            (K.TURN_BEFORE, 4),
            (K.TOOL_BEFORE, 4),
            (K.TOOL_AFTER, 4),
            (K.TOOL_BEFORE, 4),
            (K.TOOL_AFTER, 4),
            (K.TURN_AFTER, 4),
        ]
        assert not store.running()
        changes = store.turn_changes("conv-1", 4).changes
        assert changes is not None
        assert {(c.path, c.kind) for c in changes.files} == {
            ("new.txt", ChangeKind.ADDED),
            ("log.txt", ChangeKind.MODIFIED),
        }
        session.submit(Prompt("again"))
        await until(lambda: len(recorded) == 8, 20, "the second turn's checkpoints")
        assert store.turns("conv-1") == [4, 5]
        second = store.turn_changes("conv-1", 5).changes
        assert second is not None and second.files == ()
    finally:
        await recorder.drain()
        await session.close()


@pytest.mark.asyncio
async def test_a_vanished_workspace_is_told_once(workspace: Path, data_dir: Path) -> None:
    turns = [[{"text": "first"}], [{"text": "second"}]]
    session, events = make_session(workspace, "spec", {"turns": turns})
    store = CheckpointStore.open(workspace, data_dir)
    recorder = CheckpointRecorder(store, lambda: "conv-2")
    recorded: list[Checkpoint] = []
    recorder.add_listener(recorded.append)
    recorder.attach(session)
    try:
        await session.start()
        session.submit(Prompt("one"))
        await until(lambda: len(recorded) == 2, 20, "the first turn's checkpoints")
        assert all(c.complete for c in recorded)
        workspace.rename(workspace.with_name("moved"))
        session.submit(Prompt("two"))
        await until(lambda: len(recorded) == 4, 20, "the second turn's checkpoints")
        assert [c.complete for c in recorded] == [True, True, False, False]
        await until(lambda: bool(events.of(Notice)), 20, "the notice")
        notices = [n.message for n in events.of(Notice) if n.message.startswith("Checkpoints")]
        assert notices == ["Checkpoints: The workspace folder is gone, so its state could not "
                           "be recorded."]  # fmt: skip
        assert [e.type for e in events.of(TurnEnded)] == ["turn_ended", "turn_ended"]
    finally:
        await recorder.drain()
        await session.close()


@pytest.mark.asyncio
async def test_attaching_brings_the_index_up_to_date_before_the_first_prompt(
    workspace: Path, data_dir: Path
) -> None:
    """The first snapshot of a large tree takes seconds: it is taken in the background when the
    recorder is attached, so the first prompt's checkpoint is incremental. Nothing is recorded."""
    (workspace / "a.txt").write_text("a\n")
    session, _events = make_session(workspace, "spec", {"turns": []}, mode=ApprovalMode.YOLO)
    store = CheckpointStore.open(workspace, data_dir)
    recorder = CheckpointRecorder(store, "conv-1")
    recorder.attach(session)
    try:
        await until(lambda: (store.path / "index").is_file(), 20, "the store's index")
        assert store.checkpoints("conv-1") == []
    finally:
        await recorder.drain()
        await session.close()
