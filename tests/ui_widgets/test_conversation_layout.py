"""The conversation column never scrolls sideways, however wide a card's content is."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from desktop.core.events import ApprovalMode, ToolRequested
from desktop.ui.composer import _MODES
from desktop.ui.conversation.model import TranscriptModel
from desktop.ui.conversation.tool_card import ToolCard
from desktop.ui.conversation.view import ConversationView


def test_wide_approval_card_fits_a_narrow_column(qtbot: QtBot, tmp_path: Path) -> None:
    deep = tmp_path / ("a-rather-long-folder-name-" * 6) / "file.txt"
    transcript = TranscriptModel()
    view = ConversationView(transcript)
    qtbot.addWidget(view)
    view.resize(520, 700)
    view.show()
    command = "python -c " + "x" * 400  # one unbreakable word
    transcript.apply(
        ToolRequested(
            call_id="c1",
            name="Bash",
            category="exec",
            args={"command": command},
            description="Bash: " + command,
            pending=True,
        )
    )
    transcript.apply(
        ToolRequested(
            call_id="c2",
            name="Write",
            category="edit",
            args={"file_path": str(deep), "content": "y" * 300 + "\n"},
            pending=True,
        )
    )
    qtbot.waitUntil(lambda: len(view.widgets) == 2)
    qtbot.waitUntil(  # the cards are laid out in the column
        lambda: all(w.geometry().right() <= view.viewport().width() for w in view.widgets.values())
    )
    viewport = view.viewport().width()
    assert not view.horizontalScrollBar().isVisible()
    assert view.widget().width() <= viewport
    for widget in view.widgets.values():
        assert isinstance(widget, ToolCard) and widget.approval is not None
        assert widget.geometry().right() <= viewport  # nothing spills past the column
        assert widget.approval.reason_button.geometry().right() <= widget.approval.width()


def test_composer_modes_are_the_core_approval_modes() -> None:
    assert [mode for mode, _label in _MODES] == [mode.value for mode in ApprovalMode]
