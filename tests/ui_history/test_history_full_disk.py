"""A full disk in the window (issue 14, item 13): the conversation says that it could not be
saved, keeps everything on screen, and says so again once the history is written again.

The home is a real 1 MiB tmpfs (the tests run as root, which may mount), filled with a file
until the kernel answers ENOSPC, then emptied.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QTextBrowser, QTextEdit, QWidget

from desktop.core.events import SessionState
from desktop.core.history import HistoryStore
from desktop.ui.pane import ConversationPane
from tests.ui.conftest import Driver, _shutdown
from tests.waiting import until

ANSWER = "word " * 12_000  # 60 KB: more than the little room left on the full disk


@pytest.fixture
def small_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "home"
    home.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(home)], check=True)
    monkeypatch.setenv("AGENTDESK_HOME", str(home))
    try:
        yield home
    finally:
        subprocess.run(["umount", "-l", str(home)], check=False)


def _fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to the last byte with one file."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for block in (65536, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * block)
        with pytest.raises(OSError, match="No space left") as full:
            os.write(fd, b"\0")
        assert full.value.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def _shown(pane: ConversationPane) -> str:
    """Every text the conversation shows."""
    texts: list[str] = []
    for widget in pane.findChildren(QWidget):
        if isinstance(widget, QLabel):
            texts.append(widget.text())
        elif isinstance(widget, QTextEdit | QTextBrowser | QPlainTextEdit):
            texts.append(widget.toPlainText())
    return "\n".join(texts)


def _idle(pane: ConversationPane) -> bool:
    return pane.session.state == SessionState.IDLE and pane.session.active_turn is None


def test_a_full_disk_is_told_in_the_window_and_nothing_is_lost(
    driver: Driver, small_home: Path
) -> None:
    turns = [[{"text": "first answer"}], [{"text": ANSWER, "chunks": 4}], [{"text": "third"}]]

    async def body() -> None:
        context = await driver.acontext({"turns": turns})
        window = context.open_workspace(driver.workspace())
        engine = window.history.engine
        assert engine is not None
        await until(lambda: engine.service.store is not None, what="history open")
        window.show()
        pane = window.current
        assert pane is not None

        async def converse(prompt: str) -> None:
            pane.submit(prompt, [])
            await until(lambda: _idle(pane) and pane.session.queued == [], what=prompt)

        await converse("hello disk")
        await until(lambda: any(e.stored for e in engine.entries), what="recorded")
        filler = _fill(small_home)
        await converse("a long answer please")
        await until(lambda: "could not be saved to the history" in _shown(pane), 20, "notice")
        await until(lambda: "word word" in _shown(pane), what="the answer stays on screen")
        filler.unlink()
        await converse("and now?")
        await until(lambda: "The history is saved again" in _shown(pane), 20, "saved again")
        await _shutdown(context)

    driver.run(body(), 120)
    store = HistoryStore()
    try:
        (summary,) = store.list_conversations(driver.workspace())
        texts = [item.text for item in store.get(summary.id).items]
    finally:
        store.close()
    assert "a long answer please" in texts and "and now?" in texts and "third" in texts
    assert any(text.startswith("word word") for text in texts), "the failed turn was lost"
