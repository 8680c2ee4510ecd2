"""The composer's context in a real window with the fake aionrs agent: the ``@`` finder (keys,
the picked token, the file on the wire), pasted and dropped images (chips, thumbnails in the
transcript, refused where the agent takes none) and the ``/`` menu (Agent Desk's commands; an
agent that offers none adds no row; unknown ``/x`` is sent as text)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QColor, QDropEvent, QGuiApplication, QImage
from pytestqt.qtbot import QtBot

from desktop.core.events import AgentCommand, CommandsChanged, SessionState
from desktop.core.paths import app_paths
from desktop.ui.composer_context.chips import ImageThumbs
from desktop.ui.pane import ConversationPane
from tests.ui.conftest import KNOWN_QT_MESSAGES, Driver
from tests.waiting import until


def _workspace(driver: Driver) -> Path:
    root = driver.workspace()
    for name in ("src/composer.py", "src/composer_actions.py", "docs/guide.md", "build/x.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x\n")
    (root / ".gitignore").write_text("build/\n")
    return root


async def _open(driver: Driver, scenario: dict[str, Any], profile: str) -> ConversationPane:
    context = await driver.acontext(scenario, profile)
    window = context.open_workspace(_workspace(driver))
    pane = window.current
    assert pane is not None
    return pane


def _idle(pane: ConversationPane) -> bool:
    return pane.session.state == SessionState.IDLE and pane.session.active_turn is None


def _sent(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def _png(path: Path, colour: str = "#2f5fd9") -> Path:
    image = QImage(64, 40, QImage.Format.Format_RGB32)
    image.fill(QColor(colour))
    assert image.save(str(path))
    return path


def test_at_finder_keys_token_and_wire(driver: Driver, qtbot: QtBot, tmp_path: Path) -> None:
    log = tmp_path / "messages.log"

    async def body() -> None:
        pane = await _open(driver, {"message_log": str(log)}, "aionrs-0.2")
        editor, popup = pane.composer.editor, pane.context.popup
        editor.setFocus()
        qtbot.keyClicks(editor, "look at @comp")
        await until(lambda: popup.isVisible() and popup.keys(), 15, "the finder")
        assert popup.keys()[:2] == ["src/composer.py", "src/composer_actions.py"]
        qtbot.keyClick(editor, Qt.Key.Key_Down)
        assert popup.current_key() == "src/composer_actions.py"
        qtbot.keyClick(editor, Qt.Key.Key_Escape)  # closes the finder, does not stop
        assert not popup.isVisible() and editor.toPlainText() == "look at @comp"
        qtbot.keyClicks(editor, "o")
        await until(popup.isVisible, 15, "the finder again")
        qtbot.keyClick(editor, Qt.Key.Key_Tab)
        assert editor.toPlainText() == "look at @src/composer.py "
        assert editor.hasFocus() and not popup.isVisible()
        formats = editor.document().firstBlock().layout().formats()
        assert [(f.start, f.length) for f in formats] == [(8, 16)]  # the token, tinted
        qtbot.keyClicks(editor, "@gitig")
        await until(popup.isVisible, 15, "the finder for .gitignore")
        assert popup.keys()[0] == ".gitignore"
        qtbot.keyClick(editor, Qt.Key.Key_Escape)
        for _ in "@gitig":
            qtbot.keyClick(editor, Qt.Key.Key_Backspace)
        qtbot.keyClicks(editor, "@x.py")
        await until(lambda: popup.isVisible() or "x.py" in editor.toPlainText(), 15)
        assert "build/x.py" not in list(popup.keys())  # ignored by .gitignore
        qtbot.keyClick(editor, Qt.Key.Key_Escape)
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        await until(lambda: _idle(pane) and _sent(log), 20, "the prompt")
        [message] = _sent(log)
        assert message["content"] == "look at @src/composer.py @x.py"
        assert message["files"] == [str(_workspace(driver) / "src" / "composer.py")]

    driver.run(body(), 90)


def test_pasted_image_chip_thumbnail_and_wire(driver: Driver, qtbot: QtBot, tmp_path: Path) -> None:
    log = tmp_path / "messages.log"

    async def body() -> None:
        scenario = {"message_log": str(log), "image_input": "supported"}
        pane = await _open(driver, scenario, "aionrs-0.2")
        editor, chips = pane.composer.editor, pane.context.chips
        image = QImage(80, 50, QImage.Format.Format_RGB32)
        image.fill(QColor("#1b7340"))
        data = QMimeData()
        data.setImageData(image)
        QGuiApplication.clipboard().setMimeData(data)
        editor.setFocus()
        qtbot.keyClick(editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        [pasted] = pane.composer.files
        assert Path(pasted).parent == app_paths().data / "pasted" and Path(pasted).is_file()
        assert chips.isVisibleTo(pane) and list(chips.chips) == [pasted]
        assert chips.chips[pasted].findChild(object, "chipThumbnail") is not None
        assert not pane.composer.attachments.isVisibleTo(pane)  # the chips replace the line
        dropped = _png(tmp_path / "drop.png")
        drop = QMimeData()
        drop.setUrls([QUrl.fromLocalFile(str(dropped))])
        event = QDropEvent(
            QPointF(5, 5),
            Qt.DropAction.CopyAction,
            drop,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        editor.dropEvent(event)
        assert pane.composer.files == [pasted, str(dropped)]
        qtbot.mouseClick(
            chips.chips[pasted].findChild(object, "chipRemove"), Qt.MouseButton.LeftButton
        )
        assert pane.composer.files == [str(dropped)] and list(chips.chips) == [str(dropped)]
        editor.setPlainText("what is this?")
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        await until(lambda: _idle(pane) and _sent(log), 20, "the prompt")
        assert _sent(log)[0]["files"] == [str(dropped)]
        assert not chips.isVisibleTo(pane)
        await until(lambda: pane.view.findChildren(ImageThumbs), 15, "the thumbnail")
        [thumbs] = pane.view.findChildren(ImageThumbs)
        [label] = [c for c in thumbs.children() if hasattr(c, "pixmap") and not c.pixmap().isNull()]
        assert label.pixmap().width() == 120  # scaled to fit 120 px, in proportion

    driver.run(body(), 90)


def test_images_refused_where_the_agent_takes_none(
    driver: Driver, qtbot: QtBot, tmp_path: Path
) -> None:
    async def body() -> None:
        pane = await _open(driver, {"image_input": "unsupported"}, "aionrs-0.2")
        editor = pane.composer.editor
        editor.setPlainText("hi")
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        await until(lambda: _idle(pane) and pane.context.images == "refused", 20, "ready")
        shot, notes = _png(tmp_path / "shot.png"), tmp_path / "notes.txt"
        notes.write_text("n")
        pane.composer.add_files([str(shot), str(notes)])
        assert pane.composer.files == [str(notes)]
        notice = pane.context.chips.notice
        assert notice.isVisibleTo(pane) and "does not take images" in notice.text()
        assert "shot.png" in notice.text()

    driver.run(body(), 90)


def test_slash_menu_desk_commands_and_plain_text(
    driver: Driver, qtbot: QtBot, tmp_path: Path
) -> None:
    log = tmp_path / "messages.log"

    async def body() -> None:
        pane = await _open(driver, {"message_log": str(log)}, "aionrs-0.2")
        editor, popup = pane.composer.editor, pane.context.popup
        editor.setFocus()
        qtbot.keyClick(editor, Qt.Key.Key_Slash)
        assert popup.isVisible()
        assert popup.keys() == ["desk:new", "desk:clear", "desk:mode"]  # the agent offers none
        qtbot.keyClicks(editor, "xyz")
        assert not popup.isVisible()  # nothing matches: Enter sends it as text
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        await until(lambda: _idle(pane) and _sent(log), 20, "the prompt")
        assert _sent(log)[0]["content"] == "/xyz"
        # The agent's own commands join the menu once it offers them.
        command = AgentCommand(name="review", description="Review the changes")
        pane.context.commands_changed(CommandsChanged(commands=[command]))
        qtbot.keyClicks(editor, "/re")
        assert popup.keys() == ["agent:review"]
        qtbot.keyClick(editor, Qt.Key.Key_Return)  # runs it: sent as its text
        await until(lambda: len(_sent(log)) == 2 and _idle(pane), 20, "the command")
        assert _sent(log)[1]["content"] == "/review"
        window = pane.window()
        before = len(window.panes)  # type: ignore[attr-defined]
        qtbot.keyClicks(editor, "/ne")
        assert popup.current_key() == "desk:new"
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        assert len(window.panes) == before + 1  # type: ignore[attr-defined]
        assert editor.toPlainText() == ""

    driver.run(body(), 90)


@pytest.mark.qt_log_ignore(
    *KNOWN_QT_MESSAGES, r"This plugin does not support grabbing the keyboard"
)
def test_mode_command_opens_the_mode_panel(driver: Driver, qtbot: QtBot) -> None:
    async def body() -> None:
        pane = await _open(driver, {}, "spec")
        editor = pane.composer.editor
        editor.setFocus()
        qtbot.keyClicks(editor, "/mo")
        qtbot.keyClick(editor, Qt.Key.Key_Tab)
        await until(pane.rules_panel.isVisible, 15, "the mode panel")
        pane.rules_panel.hide()

    driver.run(body(), 90)
