"""Render the window's main states to PNG files, deterministically, for the screenshot tests.

``python -m tests.screens.render OUT_DIR --theme light|dark --scale 1|2`` runs in a process of
its own (``QT_SCALE_FACTOR`` must be set before Qt starts) and writes ``STATE-THEME-SCALEx.png``
for every state in ``STATES``: the window at a fixed size on the offscreen platform, fonts pinned
to DejaVu (``FONT_FILES``: fonts-dejavu-core, which Debian/Ubuntu install with fontconfig), no
cursor blink, the clock and relative times frozen, the home folder and workspace named the same
on every machine, an in-memory keyring, the scripted fake agent. The tests
(``tests/screens/test_screens.py``) compare the files with ``tests/screens/expected/``;
``python -m tests.screens.update`` renders new expected images.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: The states rendered, in order (each a file).
STATES = ("welcome", "empty", "streaming", "pending", "review", "decided", "settings")
THEMES = ("light", "dark")
SCALES = (1, 2)
#: The window's size (device-independent pixels) and the Settings dialog's.
WINDOW_SIZE = (1040, 700)
DIALOG_SIZE = (860, 640)
#: The pinned fonts: a missing one is an error, never a silent fallback.
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf")
SANS, MONO = "DejaVu Sans", "DejaVu Sans Mono"
#: The frozen clock (a decided card's time of day) and relative time (sidebar rows).
CLOCK, WHEN = "09:41", "just now"
ROOT = Path(__file__).resolve().parents[2]
FAKE = ROOT / "tests" / "fakes" / "fake_aionrs.py"

NEW_UTIL = '''"""Small helpers shared by the client."""


def backoff(attempt: int, base: float = 0.5, cap: float = 8.0) -> float:
    """Seconds to wait before retry ``attempt`` (exponential, capped)."""
    return min(cap, base * 2**attempt)
'''
OLD_UTIL = NEW_UTIL.replace("backoff", "delay").replace(", capped", "")
STREAMED = (
    "## Where the retries happen\n\n"
    "`fetch()` in **net.py** retries on every `OSError`, with a fixed delay of one second:\n\n"
    "- a refused connection is retried five times;\n"
    "- a timeout is retried as well, which doubles the wait.\n\n"
    "> The delay is not exponential, so a busy server is hit again at once.\n\n"
    "```python\nfor attempt in range(5):\n    try:\n        return get(url)\n"
    "    except OSError:\n        time.sleep(1)\n```\n\nI would change it to"
)
SCENARIO: dict[str, Any] = {
    "prompts": {
        "Explain the retry logic in @src/net.py": [
            {"thinking": "The loop is in fetch(); the delay is a constant."},
            {"text": STREAMED, "chunks": 1},
            {"hang": True},
        ],
        "Rename delay() to backoff() in util.py": [
            {"text": "I will rename it and say in the docstring that the wait is capped."},
            {"tool": {"name": "Write", "args": {"file_path": "util.py", "content": NEW_UTIL}}},
            {"text": "Done: `delay()` is now `backoff()`; nothing else called it."},
        ],
    }
}


def environment(home: Path, theme: str, scale: int) -> dict[str, str]:
    """The child's environment: offscreen, the scale, the theme, English, UTC, a fresh home."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(
        QT_QPA_PLATFORM="offscreen",
        QT_SCALE_FACTOR=str(scale),
        QT_API="pyside6",
        AGENTDESK_THEME=theme,
        AGENTDESK_HOME=str(home / ".agentdesk"),
        HOME=str(home),
        TZ="UTC",
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        LANGUAGE="en",
        XDG_CURRENT_DESKTOP="GNOME",
        PYTHONPATH=str(ROOT),
    )
    for key in ("QT_FONT_DPI", "QT_SCREEN_SCALE_FACTORS", "QT_ENABLE_HIGHDPI_SCALING"):
        env.pop(key, None)
    return env


def render(out: Path, theme: str, scale: int, timeout: float = 240.0) -> list[Path]:
    """Render every state for ``theme`` at ``scale`` into ``out`` (in a child process)."""
    import subprocess

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="agentdesk-screens-") as home:
        command = [sys.executable, "-m", "tests.screens.render", str(out), "--theme", theme,
                   "--scale", str(scale)]  # fmt: skip
        env = environment(Path(home), theme, scale)
        done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True,
                              timeout=timeout, check=False)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"rendering {theme} {scale}x failed:\n{done.stdout}\n{done.stderr}")
    return [out / name(state, theme, scale) for state in STATES]


def name(state: str, theme: str, scale: int) -> str:
    """The file name of one rendered state."""
    return f"{state}-{theme}-{scale}x.png"


# --------------------------------------------------------------------------- the child process
def _pin_fonts() -> None:
    from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication

    for file in FONT_FILES:
        if QFontDatabase.addApplicationFont(str(FONT_DIR / file)) < 0:
            raise SystemExit(f"font {FONT_DIR / file} missing (apt-get install fonts-dejavu-core)")
    for alias in ("Sans", "Sans Serif", "sans-serif", "Helvetica", "Arial"):
        QFont.insertSubstitution(alias, SANS)
    for alias in ("monospace", "Monospace", "Courier", "Courier New"):
        QFont.insertSubstitution(alias, MONO)
    font = QFont(SANS, 10)
    font.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    QGuiApplication.setFont(font)


def _freeze_time() -> None:
    from desktop.ui.approvals import line
    from desktop.ui.sidebar import entries

    line.clock = lambda _at: CLOCK  # type: ignore[assignment]
    entries.when = lambda _timestamp, now=None: WHEN  # type: ignore[assignment]


def _memory_keyring() -> None:
    """An empty in-memory keyring, named and trusted as the desktop's Secret Service is."""
    import keyring

    from tests.fakes.memory_keyring import InMemoryKeyring

    class SecretServiceLike(InMemoryKeyring):
        __module__ = "keyring.backends.SecretService"

    keyring.set_keyring(SecretServiceLike())


async def _until(predicate: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    from PySide6.QtWidgets import QApplication

    from tests.waiting import until

    try:
        await until(predicate, timeout, what)
    except BaseException:
        for window in QApplication.topLevelWidgets():
            pane = getattr(window, "current", None)
            if pane is not None:
                print(window, [repr(i)[:300] for i in pane.transcript.items], file=sys.stderr)
        raise


async def _save(widget: Any, path: Path) -> None:
    pane = getattr(widget, "current", None)
    if pane is not None:
        pane.view.flush()  # the streamed text the next frame would show
        await _until(pane.view.rendered, "every answer rendered")  # blocks on the worker too
    for _ in range(5):  # Qt handles the layouts and repaints posted by the last change
        await asyncio.sleep(0)
    if not widget.grab().save(str(path)):
        raise SystemExit(f"could not write {path}")


async def _states(out: Path, theme: str, scale: int) -> None:
    from PySide6.QtWidgets import QApplication

    from desktop.core.events import SessionState
    from desktop.ui.app import AppContext
    from desktop.ui.checkpoints.summary import ChangesSummary
    from desktop.ui.startup import finish_startup
    from desktop.ui.welcome.panel import WelcomePanel

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    await finish_startup()  # the icons and the rest the app loads after its first paint
    home = Path(os.environ["HOME"])

    async def shot(state: str, widget: Any) -> None:
        await _save(widget, out / name(state, theme, scale))

    # Welcome: the built-in agent without a key (the in-memory keyring is empty).
    welcome_ws = home / "first-project"
    welcome_ws.mkdir()
    context = AppContext(app, argparse.Namespace(path=None, agent=None, agent_cmd=None))
    window = context.open_workspace(welcome_ws)
    window.resize(*WINDOW_SIZE)
    pane = window.current
    assert pane is not None
    await _until(lambda: isinstance(pane.body.currentWidget(), WelcomePanel), "welcome panel")
    await shot("welcome", window)
    window.close()
    await _until(lambda: window._closed_done, "welcome window closed")

    # The fake agent in ~/demo-project.
    folder = home / "demo-project"
    (folder / "src").mkdir(parents=True)
    (folder / "util.py").write_text(OLD_UTIL)
    (folder / "src" / "net.py").write_text("def fetch(url):\n    return get(url)\n")
    scenario = home / "scenario.json"
    scenario.write_text(json.dumps(SCENARIO))
    command = shlex.join([sys.executable, str(FAKE), "--json-stream", "--profile", "spec",
                          "--scenario", str(scenario)])  # fmt: skip
    context = AppContext(app, argparse.Namespace(path=None, agent=None, agent_cmd=command))
    window = context.open_workspace(folder)
    window.resize(*WINDOW_SIZE)
    window.activateWindow()
    pane = window.current
    assert pane is not None
    # The agent starts with the first prompt: the empty state waits only for the start check.
    await _until(lambda: not pane.scope.tasks, "the start check")
    await _until(pane.composer.editor.hasFocus, "composer focused")
    await shot("empty", window)

    pane.submit("Explain the retry logic in @src/net.py", [])
    await _until(lambda: "I would change it to" in _answer_text(pane), "streamed text")
    pane.composer.editor.setFocus()
    await shot("streaming", window)

    window.new_conversation()
    pane = window.current
    assert pane is not None
    pane.submit("Rename delay() to backoff() in util.py", [])
    await _until(lambda: len(pane.navigator.pending()) == 1, "a pending edit")
    (card,) = pane.navigator.pending()
    await _until(lambda: card.hasFocus() and not card._guarded(), "the card has the keys")
    await shot("pending", window)

    assert window.review.open_card(pane, card)
    await _until(lambda: window.review.view.isAncestorOf(QApplication.focusWidget()), "review")
    await shot("review", window)
    window.review.close()

    card.approve_once()
    await _until(
        lambda: pane.session.state == SessionState.IDLE and pane.session.active_turn is None,
        "turn end",
    )
    await _until(lambda: "nothing else called it" in _answer_text(pane), "the last answer")
    await _until(lambda: _tool_done(pane), "the edit written")
    await _until(lambda: pane.view.findChildren(ChangesSummary), "the turn's Changes card")
    await shot("decided", window)

    addons = context.addons_for(folder)
    assert addons is not None
    dialog = addons.open_settings()
    dialog.resize(*DIALOG_SIZE)
    await _until(dialog.isVisible, "settings shown")
    await shot("settings", dialog)
    dialog.close()

    context.quit()
    await _until(lambda: not context.windows(), "windows closed", 60)
    await context.shutdown()  # as the app does on its way out: nothing it started outlives it


def _tool_done(pane: Any) -> bool:
    from desktop.core.entries import ToolItem, ToolStatus

    return any(
        isinstance(i, ToolItem) and i.status == ToolStatus.SUCCEEDED for i in pane.transcript.items
    )


def _answer_text(pane: Any) -> str:
    """Every assistant text of ``pane``'s transcript, as entries hold it."""
    return "\n".join(str(getattr(item, "text", "")) for item in pane.transcript.items)


def main(argv: list[str] | None = None) -> int:
    """Render the states (run by ``render`` in a child process with its environment)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--theme", choices=THEMES, required=True)
    parser.add_argument("--scale", type=int, choices=SCALES, required=True)
    args = parser.parse_args(argv)
    if os.environ.get("QT_SCALE_FACTOR") != str(args.scale):
        raise SystemExit("run through tests.screens.render.render (it sets the environment)")
    from desktop.ui.qt_async import make_loop
    from desktop.ui.startup import make_application

    app = make_application()
    app.setCursorFlashTime(0)  # the text cursor always shown, never mid-blink
    _pin_fonts()
    _freeze_time()
    _memory_keyring()
    from desktop.ui import theme

    theme.choose(args.theme)
    theme.apply(app)
    loop = make_loop(app)
    asyncio.set_event_loop(loop)
    args.out.mkdir(parents=True, exist_ok=True)
    loop.run_until_complete(asyncio.wait_for(_states(args.out, args.theme, args.scale), 200))
    return 0


if __name__ == "__main__":
    sys.exit(main())
