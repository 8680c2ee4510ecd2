"""The first window paints before asyncio, pydantic, the core and the renderers are imported.

The child process runs the real entry point (``desktop.cli.main.main``) and reports, at the
first paint of its main window, which modules are loaded and whether PySide has built the
``Qt`` namespace's enums (~15 ms, the largest single cost a careless import can add back).
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QMainWindow
from pytestqt.qtbot import QtBot

from desktop.cli.main import _gui_parser, _quick_gui_options
from desktop.ui.startup import show_painted

ROOT = Path(__file__).resolve().parents[2]
#: Modules that cost most of a second together; ``desktop.ui.startup`` loads them after the paint.
HEAVY = ("asyncio", "qasync", "pydantic", "pygments", "markdown_it", "keyring",
         "desktop.core.events", "desktop.core.session", "desktop.core.settings",
         "desktop.ui.pane", "desktop.ui.diff", "desktop.ui.approvals",
         # and what the first frame does without: lists, task runtime, instance server
         "desktop.ui.sidebar.lists", "desktop.ui.qt_async", "ctypes",
         "PySide6.QtNetwork")  # fmt: skip

CHILD = """
import gc, os, sys
from desktop.cli.main import main
from PySide6 import QtWidgets
from PySide6.QtCore import QEvent, QObject
class F(QObject):
    def eventFilter(self, o, e):
        if e.type() == QEvent.Type.Paint:
            qt_built = "Qt" in vars(sys.modules["PySide6.QtCore"])
            # QIcon's enums (ThemeIcon: ~2 ms): the icons arrive after the paint
            icon = ["<QIcon built>"] if "QIcon" in vars(sys.modules["PySide6.QtGui"]) else []
            icon += ["<gc enabled>"] if gc.isenabled() else []
            print("qt-enums" if qt_built else "no-qt-enums", " ".join(sorted(sys.modules) + icon))
            sys.stdout.flush(); os._exit(0)
        return False
f = F()
class Watched(QtWidgets.QMainWindow):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.installEventFilter(f)
QtWidgets.QMainWindow = Watched
main([sys.argv[1], "--agent-cmd", "true"])
"""


def _first_paint(tmp_path: Path) -> tuple[str, set[str]]:
    env = {"QT_QPA_PLATFORM": "offscreen", "AGENTDESK_HOME": str(tmp_path / "home"),
           "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    enums, *loaded = done.stdout.split()
    return enums, set(loaded)


def test_window_shell_imports_nothing_heavy(tmp_path: Path) -> None:
    config = tmp_path / "home" / "config"
    config.mkdir(parents=True)
    # as the previous run left it (Qt's INI format, read by desktop.ui.startup_hints)
    (config / "window.ini").write_text("[startup]\ncolor-scheme=light\n")
    enums, loaded = _first_paint(tmp_path)
    assert "desktop.ui.window" in loaded and "desktop.ui.placeholder" in loaded
    assert sorted(name for name in HEAVY if name in loaded) == []
    assert enums == "no-qt-enums"
    assert "platformdirs" not in loaded and "dataclasses" not in loaded
    assert "<QIcon built>" not in loaded
    assert "<gc enabled>" not in loaded  # automatic collection waits for the paint


def test_the_first_paint_resumes_garbage_collection(qtbot: QtBot) -> None:
    """``desktop.cli.main`` pauses automatic collection for the start-up; the paint resumes it."""
    window = QMainWindow()
    qtbot.addWidget(window)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    gc.disable()
    try:
        show_painted(app, window)
        assert gc.isenabled()
    finally:
        gc.enable()


def test_first_run_asks_the_desktop_for_its_scheme(tmp_path: Path) -> None:
    """No remembered scheme: asked before the paint (building the ``Qt`` enums), still light."""
    enums, loaded = _first_paint(tmp_path)
    assert enums == "qt-enums"
    assert sorted(name for name in HEAVY if name in loaded) == []


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["/src/app"],
        ["/src/app", "--agent", "claude"],
        ["--agent-cmd", "python agent.py --json-stream", "/src/app"],
        ["--agent", "a", "--agent", "b"],
        ["--agent", "a", "--agent-cmd", "b"],
        ["--agent=claude", "/src/app"],
        ["--agent-cmd", "--flag"],
        ["/a", "/b"],
        ["--smoke-test"],
        ["--smoke-test", "window"],
        ["/src/app", "--smoke-test", "full"],
        ["--smoke-test", "/src/app"],
        ["--smoke-test", "window", "--smoke-test"],
        ["--smoke-test", "window", "/src/app"],
        ["--help"],
        ["--age", "x"],
    ],
)
def test_quick_options_equal_the_parser_or_defer_to_it(argv: list[str]) -> None:
    quick = _quick_gui_options(argv)
    if quick is None:
        return  # the parser decides (help, errors, rarer forms)
    assert quick == _gui_parser().parse_args(argv)
    assert isinstance(quick, argparse.Namespace)


def test_quick_options_take_the_common_forms() -> None:
    assert _quick_gui_options(["/src/app", "--agent-cmd", "x y"]) == argparse.Namespace(
        path="/src/app", agent=None, agent_cmd="x y", smoke_test=None, conversation=None
    )
    assert _quick_gui_options(["--agent", "a", "--agent-cmd", "b"]) is None
    assert _quick_gui_options(["--help"]) is None


def test_a_wrong_remembered_scheme_is_corrected_after_the_paint(
    qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop.ui import startup, startup_hints, theme

    monkeypatch.delenv("AGENTDESK_THEME", raising=False)
    monkeypatch.setenv("AGENTDESK_HOME", str(tmp_path / "home"))
    actual = theme.system_is_dark()  # what the (offscreen) desktop asks for
    startup_hints.remember(dark=not actual)  # the previous run saw the other one
    assert (tmp_path / "home" / "config" / "window.ini").is_file()
    theme.assume_scheme(startup.remembered_scheme())
    try:
        assert theme.current().dark is not actual  # the first frame uses the remembered one
        theme.apply(qapp)
        startup.confirm_scheme(qapp)
        assert theme.current().dark is actual
        expected = (theme.DARK if actual else theme.LIGHT).window
        assert qapp.palette().color(QPalette.ColorRole.Window).name() == expected
        assert startup_hints.remembered_scheme() is actual
    finally:
        theme.assume_scheme(None)
        theme.apply(qapp)


def test_agentdesk_alone_opens_the_last_workspace(
    qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop.ui import startup_hints
    from desktop.ui.startup import initial_workspace

    monkeypatch.setenv("AGENTDESK_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    no_path = argparse.Namespace(path=None)
    assert initial_workspace(no_path) == tmp_path  # nothing remembered: the current folder
    last = tmp_path / "project"
    last.mkdir()
    startup_hints.remember(workspace=last)
    assert initial_workspace(no_path) == last
    assert initial_workspace(argparse.Namespace(path=str(tmp_path))) == tmp_path
    last.rmdir()  # gone since: not offered
    assert initial_workspace(no_path) == tmp_path


def test_a_damaged_hints_file_only_costs_the_hints(
    qapp: QApplication, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from desktop.ui import startup_hints

    config = tmp_path / "home" / "config"
    config.mkdir(parents=True)
    (config / "window.ini").write_bytes(b"\x00\xff[startup\ncolor-scheme=purple\nlast-workspace=")
    monkeypatch.setenv("AGENTDESK_HOME", str(tmp_path / "home"))
    assert startup_hints.remembered_scheme() is None
    assert startup_hints.last_workspace() is None
    startup_hints.remember(dark=True)  # rewritten whole
    assert startup_hints.remembered_scheme() is True


def test_the_smoke_window_paints_before_the_core_loads(tmp_path: Path) -> None:
    """``--smoke-test window`` (what the frozen cold-start benchmark times) takes the real start
    path: nothing heavy is imported before its "window: painted" line, all of it after."""
    env = {"QT_QPA_PLATFORM": "offscreen", "AGENTDESK_HOME": str(tmp_path / "home"),
           "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "desktop", "--smoke-test", "window"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and "smoke test passed" in lines, done.stdout[-3000:]
    painted = next(i for i, line in enumerate(lines) if line.startswith("window: painted"))

    def imported(chunk: list[str]) -> set[str]:
        return {line.rsplit("|", 1)[1].strip() for line in chunk if line.startswith("import time:")}

    before, after = imported(lines[:painted]), imported(lines[painted:])
    assert "desktop.ui.window" in before
    assert sorted(name for name in HEAVY if name in before) == []
    assert {"asyncio", "pydantic", "pygments", "markdown_it"} <= after


POOL_CHILD = """
import os
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollBar
from desktop.ui.startup import make_application
app = make_application(icon=False)
bar = QScrollBar(Qt.Orientation.Vertical)  # Fusion fills its groove with a gradient
bar.setRange(0, 100_000)
bar.resize(15, 900)
bar.grab()
names = [open(f"/proc/self/task/{t}/comm").read().strip() for t in os.listdir("/proc/self/task")]
print(sum(name.startswith("Thread (pooled)") for name in names))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads threads from /proc")
def test_fills_stay_on_the_gui_thread(tmp_path: Path) -> None:
    """A tall scroll bar's groove (a gradient fill of 900 rows) is not handed to Qt's GUI
    thread pool: no pool thread is started."""
    env = {"QT_QPA_PLATFORM": "offscreen", "AGENTDESK_HOME": str(tmp_path / "home"),
           "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", POOL_CHILD], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
    assert done.stdout.strip().splitlines()[-1] == "0", done.stderr
