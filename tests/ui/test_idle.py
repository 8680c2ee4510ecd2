"""An idle window costs nothing (issue 19): no agent before the first prompt, an idle agent is
stopped and resumed, no timer runs while nothing happens, signals still quit the app, and
``agentdesk PATH --conversation ID`` opens a stored conversation.

Real windows offscreen, the real fake aionrs agent as a child process (psutil sees it), the real
history database, and the real ``agentdesk`` process for the signal and command-line cases.
"""

from __future__ import annotations

import asyncio
import gc
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from desktop.core.entries import StreamItem, UserItem
from desktop.core.events import SessionState
from desktop.core.history.models import ItemKind, StoredConversation, StoredItem
from desktop.core.history.store import HistoryStore
from desktop.ui.app import AppContext
from desktop.ui.cursor_blink import CursorBlink
from desktop.ui.open_conversation import open_in
from desktop.ui.pane import ConversationPane
from tests.core.support import agent_children
from tests.ui.conftest import Driver, agent_cmd
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]


def _idle_after(context: AppContext, seconds: float) -> None:
    settings = context.settings.settings
    context.settings.save(settings.model_copy(update={"stop_idle_agents_after": seconds / 60}))


def _answers(pane: ConversationPane) -> list[str]:
    return [i.text for i in pane.transcript.items if isinstance(i, StreamItem) and not i.thinking]


async def _ask(pane: ConversationPane, text: str) -> str:
    before = len(_answers(pane))
    pane.submit(text, [])
    await until(lambda: len(_answers(pane)) > before and pane.session.state == SessionState.IDLE,
                30, f"the answer to {text!r}")  # fmt: skip
    return _answers(pane)[-1]


def test_the_agent_starts_with_the_first_prompt(driver: Driver) -> None:
    async def body() -> None:
        context = await driver.acontext({"turns": [[{"text": "first answer"}]]})
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        await until(lambda: window.status_labels["state"].text().startswith("The agent starts"),
                    15, "the status bar")  # fmt: skip
        await until(lambda: not [t for t in pane.scope.tasks if t.get_name() == "check"], 15)
        assert pane.composer.isEnabled() and pane.composer.editor.isEnabled()
        assert agent_children() == [] and pane.session.backend is None
        assert await _ask(pane, "hello") == "first answer"
        assert len(agent_children()) == 1

    driver.run(body(), 60)


def test_an_idle_agent_is_stopped_and_the_next_prompt_resumes_its_session(
    driver: Driver,
) -> None:
    async def body() -> None:
        context = await driver.acontext(
            {"prompts": {"first question": [{"text": "one"}], "second question": [{"text": "two"}]}}
        )
        _idle_after(context, 1.0)
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        assert await _ask(pane, "first question") == "one"
        (first,) = agent_children()
        session_id = pane.session.agent_session_id
        assert session_id and pane.idle_stop.armed
        await until(lambda: pane.session.state == SessionState.NEW, 20, "the idle stop")
        await until(lambda: not agent_children(), 20, "the agent process to end")
        assert not first.is_running() and pane.session.backend is None
        assert window.status_labels["state"].text().startswith("The agent starts")
        assert await _ask(pane, "second question") == "two"
        (second,) = agent_children()
        assert second.pid != first.pid
        assert ["--resume", session_id] == second.cmdline()[-2:]
        assert pane.session.agent_session_id == session_id
        prompts = [i.text for i in pane.transcript.items if isinstance(i, UserItem)]
        assert prompts == ["first question", "second question"]

    driver.run(body(), 90)


def test_an_agent_without_sessions_gets_a_summary_when_resumed(driver: Driver) -> None:
    async def body() -> None:
        context = await driver.acontext(
            {"no_session": True, "prompts": {"which colour?": [{"text": "blue"}]}}
        )
        _idle_after(context, 1.0)
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        assert await _ask(pane, "which colour?") == "blue"
        await until(lambda: pane.session.state == SessionState.NEW, 20, "the idle stop")
        await until(lambda: not agent_children(), 20, "the agent process to end")
        history = await _ask(pane, "what is history?")
        assert "User: which colour?" in history and "Assistant: blue" in history

    driver.run(body(), 90)


def test_zero_disables_the_idle_stop(driver: Driver) -> None:
    async def body() -> None:
        context = await driver.acontext({"turns": [[{"text": "kept"}]]})
        _idle_after(context, 0)
        window = context.open_workspace(driver.workspace())
        pane = window.current
        assert pane is not None
        assert await _ask(pane, "hello") == "kept"
        assert not pane.idle_stop.armed and len(agent_children()) == 1

    driver.run(body(), 60)


def _active_qtimers(qapp: QApplication) -> list[str]:
    """Every running ``QTimer``: the windows' and the application's children, and any other
    the interpreter holds (the garbage collector's timer had no parent)."""
    owners: list[QObject] = [qapp, *QApplication.topLevelWidgets()]
    found = {t for owner in owners for t in owner.findChildren(QTimer) if t.isActive()}
    held = [o for o in gc.get_objects() if isinstance(o, QTimer) and shiboken6.isValid(o)]
    found |= {t for t in held if t.isActive()}
    return [f"QTimer of {t.parent()!r}, {t.interval()} ms" for t in found]


def _loop_timers(loop: asyncio.AbstractEventLoop) -> list[str]:
    """The qasync loop's pending callbacks (``call_later``; each is a Qt timer), looked at
    while the loop does not run (so the test's own waits are not among them)."""
    simple = getattr(loop, "_timer", None)
    pending = getattr(simple, "_SimpleTimer__callbacks", None)
    assert isinstance(pending, dict), "qasync keeps its timers elsewhere now"
    return [repr(h) for h in pending.values() if not h.cancelled()]


def test_no_timer_runs_in_an_idle_window(driver: Driver, qapp: QApplication) -> None:
    context = driver.context({"turns": [[{"text": "done"}]]})
    window = driver.open(context, driver.workspace())
    pane = window.current
    assert pane is not None

    async def opened() -> None:
        await until(lambda: context.addons_for(window.workspace), 15, "the add-ons")
        await until(lambda: not pane.scope.tasks, 15, "the start check")
        # What the opening scheduled runs out (single shots: history reload, layout).
        await until(lambda: not _active_qtimers(qapp), 15, "no timer left")

    driver.run(opened(), 40)
    assert _active_qtimers(qapp) == [] and _loop_timers(driver.loop) == []

    async def answered() -> None:
        assert await _ask(pane, "hi") == "done"
        await until(lambda: len(_active_qtimers(qapp)) <= 1, 15, "the timers of an idle turn")

    driver.run(answered(), 40)
    # After a turn: the idle stop (one single shot, ten minutes away) and the agent's heartbeat
    # (an asyncio sleep: one ping after 30 s of silence).
    assert _active_qtimers(qapp) == [f"QTimer of {pane.idle_stop!r}, 600000 ms"]
    assert len(_loop_timers(driver.loop)) <= 1, _loop_timers(driver.loop)


def test_a_stored_conversation_opens_in_the_window(driver: Driver) -> None:
    folder = driver.workspace()
    conv_id = _stored(folder, ["the stored question"], ["the stored answer"])

    async def body() -> None:
        context = await driver.acontext({"turns": [[{"text": "continued"}]]})
        window = context.open_workspace(folder)
        pane = await open_in(window, conv_id)
        assert pane is not None and window.current is pane
        prompts = [i.text for i in pane.transcript.items if isinstance(i, UserItem)]
        assert prompts == ["the stored question"]
        assert _answers(pane) == ["the stored answer"]
        assert agent_children() == []
        assert await _ask(pane, "and now?") == "continued"

    driver.run(body(), 60)


def _stored(folder: Path, prompts: list[str], answers: list[str]) -> str:
    """A conversation of ``folder`` in the history database (AGENTDESK_HOME's)."""
    items = []
    for n, (prompt, answer) in enumerate(zip(prompts, answers, strict=True)):
        turn = f"t{n}"
        for entry in (
            UserItem(text=prompt, turn_id=turn),
            StreamItem(text=answer, done=True, turn_id=turn),
        ):
            seq = len(items)
            kind = ItemKind(entry.type)
            text = entry.text
            items.append(StoredItem(id=seq, seq=seq, kind=kind, turn_id=turn, text=text,
                                    entry=entry, created_at=time.time()))  # fmt: skip
    conv = StoredConversation(id=os.urandom(16).hex(), workspace=str(folder.resolve()),
                              title="Stored", agent="fake_aionrs", created_at=time.time(),
                              updated_at=time.time(), items=items)  # fmt: skip
    store = HistoryStore()
    try:
        store.restore(conv)
    finally:
        store.close()
    return conv.id


def _app(home: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "AGENTDESK_HOME": str(home),
           "PYTHONPATH": str(ROOT), "AGENTDESK_LOG_LEVEL": "INFO"}  # fmt: skip
    return subprocess.Popen([sys.executable, "-m", "desktop", *args], env=env, text=True,
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)  # fmt: skip


def _wait_for_line(app: subprocess.Popen[str], text: str, timeout: float = 40) -> list[str]:
    assert app.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    os.set_blocking(app.stderr.fileno(), False)
    while not any(text in line for line in lines):
        if app.poll() is not None or time.monotonic() > deadline:
            app.kill()
            pytest.fail(f"no {text!r} from the app:\n{''.join(lines)}")
        line = app.stderr.readline()
        if line:
            lines.append(line)
        else:  # wait until the app writes (or the time is up), not for a fixed time
            select.select([app.stderr], [], [], max(0.0, deadline - time.monotonic()))
    return lines


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_quits_an_idle_app_cleanly(tmp_path: Path, signum: signal.Signals) -> None:
    folder = tmp_path / "ws"
    folder.mkdir()
    command = agent_cmd({"turns": []}, tmp_path)
    app = _app(tmp_path / "home", str(folder), "--agent-cmd", command)
    _wait_for_line(app, "nothing runs until something happens")
    app.send_signal(signum)
    try:
        assert app.wait(30) == 0
    finally:
        if app.poll() is None:
            app.kill()


def test_the_command_line_opens_a_stored_conversation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("AGENTDESK_HOME", str(home))
    folder, other = tmp_path / "ws", tmp_path / "other"
    folder.mkdir()
    other.mkdir()
    conv_id = _stored(folder, ["q"], ["a"])
    # Unknown ids and another workspace's conversation: one line, exit 2, no window.
    for args, said in (
        ([str(folder), "--conversation", "feedbeef"], "no stored conversation 'feedbeef'"),
        ([str(other), "--conversation", conv_id[:12]], "belongs to the workspace"),
    ):
        wrong = _app(home, *args)
        _out, err = wrong.communicate(timeout=60)
        assert wrong.returncode == 2 and said in err, err
    app = _app(home, str(folder), "--conversation", conv_id[:12])
    _wait_for_line(app, f"opened the stored conversation {conv_id}: shown")
    # A second ``agentdesk PATH --conversation ID`` hands it to the running app.
    later = _stored(folder, ["q2"], ["a2"])
    second = _app(home, str(folder), "--conversation", later)
    assert second.wait(60) == 0
    _wait_for_line(app, f"opened the stored conversation {later}: shown")
    app.send_signal(signal.SIGTERM)
    try:
        assert app.wait(30) == 0
    finally:
        if app.poll() is None:
            app.kill()


def test_the_caret_stops_blinking_until_the_next_key(
    driver: Driver, qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(CursorBlink, "TIMEOUT_MS", 300)
    context = driver.context({"turns": []})
    window = driver.open(context, driver.workspace())
    pane = window.current
    assert pane is not None
    blink = CursorBlink.watch(pane.composer.editor)
    system = blink.flash_ms
    assert system > 0  # the platform blinks (Qt: 1000 ms)

    async def body() -> None:
        pane.composer.editor.setFocus()
        QTest.keyClick(pane.composer.editor, Qt.Key.Key_A)
        assert qapp.styleHints().cursorFlashTime() == system
        await until(lambda: blink.resting, 15, "a steady caret")
        QTest.keyClick(pane.composer.editor, Qt.Key.Key_B)
        assert qapp.styleHints().cursorFlashTime() == system  # blinking again

    try:
        driver.run(body(), 30)
    finally:
        blink.wake()
