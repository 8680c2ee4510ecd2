"""Windows, workspaces, single instance and the shutdown path."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.core.events import ApprovalMode, SessionState
from desktop.ui.instance import AgentOptions
from tests.ui.conftest import Driver, agent_cmd
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]


def test_two_windows_on_two_folders(driver: Driver, qtbot: QtBot) -> None:
    write = {"tool": {"name": "Write", "args": {"file_path": "where.txt", "content": "here"}}}

    async def body() -> None:
        context = await driver.acontext({"turns": [[write]]})
        context.settings.save(context.settings.settings)
        one, two = driver.workspace("one"), driver.workspace("two")
        first = context.open_workspace(one)  # the command line's agent: the first window's
        own = AgentOptions(agent_cmd=agent_cmd({"turns": [[write]]}, driver.tmp))
        second = context.open_workspace(two, agent=own)  # its own (a second `agentdesk PATH`)
        assert context.open_workspace(one) is first  # raised, not duplicated
        assert [w.workspace for w in context.windows()] == [one.resolve(), two.resolve()]
        assert context.recent_workspaces()[:2] == [two.resolve(), one.resolve()]
        panes = [first.current, second.current]
        for pane in panes:
            assert pane is not None
            await pane.session.set_mode(ApprovalMode.YOLO)
            pane.submit("write", [])
        await until(lambda: all(p.session.state == SessionState.IDLE for p in panes))  # type: ignore[union-attr]
        assert (one / "where.txt").read_text() == "here"
        assert (two / "where.txt").read_text() == "here"
        second.close()
        await until(lambda: len(context.windows()) == 1, what="second window closed")
        assert panes[1].session.state == SessionState.EXITED  # type: ignore[union-attr]
        assert first.isVisible()
        first.new_conversation()
        assert len(first.panes) == 2 and first.sidebar.count() == 2
        qtbot.keyClick(first, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)

    driver.run(body(), 60)


def test_single_instance_hands_the_folder_over(driver: Driver, tmp_path: Path) -> None:
    async def body() -> None:
        context = await driver.acontext({})
        assert context.server.listen()
        context.open_workspace(driver.workspace("first"))
        other = driver.workspace("second")
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "desktop", str(other), env=env
        )
        status = await asyncio.wait_for(proc.wait(), 30)
        assert status == 0
        await until(lambda: len(context.windows()) == 2, what="handed-over window")
        assert context.windows()[1].workspace == other.resolve()

    driver.run(body(), 60)


def test_shutdown_path_exits_zero_repeatedly(tmp_path: Path) -> None:
    """The real start-to-exit path, after a 200,000-delta stream and after short turns."""
    import subprocess

    workspace = tmp_path / "ws"
    workspace.mkdir()
    flood = agent_cmd({"turns": [[{"flood": 200000, "text": "x"}]]}, tmp_path)
    short = agent_cmd({"turns": [[{"text": "hi"}]]}, tmp_path)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    runs = [flood, short, short, flood, short, short]
    for command in runs:
        done = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("drive_app.py")), str(workspace),
             command, "go"],
            env=env, capture_output=True, text=True, timeout=90, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        assert "Fatal Python error" not in done.stderr


def test_first_frame_has_the_final_layout_and_names_the_agent_command(driver: Driver) -> None:
    """The shell window painted first has the agent toolbar already: nothing moves down when
    the Settings add-ons and the conversation arrive; ``--agent-cmd`` shows in the picker."""
    from PySide6.QtCore import QEvent, QPoint
    from PySide6.QtWidgets import QApplication

    async def body() -> None:
        context = await driver.acontext({})
        window = context.open_workspace(driver.workspace("shell"), shell_only=True)
        await until(lambda: window.isVisible() and window.stack.height() > 0)
        top_before = window.stack.mapTo(window, QPoint(0, 0)).y()
        assert not window.agent_picker.isEnabled()
        assert window.focusWidget() is window  # no field shows a focus ring yet
        window.finish_building()
        window.new_conversation()  # what the app does after the first paint
        await until(lambda: window.current is not None and context.addons_for(window.workspace))
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # layouts settle
        assert window.stack.mapTo(window, QPoint(0, 0)).y() == top_before
        assert window.current is not None
        assert window.focusWidget() is window.current.composer.editor
        picker = window.agent_picker
        python = Path(sys.executable).name
        assert picker.count() == 1 and not picker.isEnabled()
        assert picker.currentText() == f"{python} fake_aionrs.py … (--agent-cmd)"
        assert "fake_aionrs.py" in picker.toolTip()

    driver.run(body(), 60)


def test_closing_a_window_at_once_fails_no_background_task(driver: Driver) -> None:
    """Closed before its history has opened (as ``--smoke-test window`` does): the pending
    open and reload end quietly instead of reporting "the history is not open"."""

    async def body() -> None:
        context = await driver.acontext({})
        failures: list[tuple[str, str]] = []
        context.runtime.task_failed.connect(
            lambda owner, message: failures.append((owner, message))
        )
        window = context.open_workspace(driver.workspace("brief"))
        window.close()
        await until(lambda: not context.windows(), what="window closed")
        await until(lambda: context.runtime.live_tasks == 0, what="pending tasks to end")
        assert failures == []

    driver.run(body(), 60)
