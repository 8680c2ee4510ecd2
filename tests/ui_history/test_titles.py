"""Conversation titles in a real window: from the first prompt, distinct, renamable as typed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from tests.ui.conftest import Driver, _shutdown
from tests.ui_history.test_sidebar_history import _converse, _settled, _stored, _window
from tests.waiting import until


def test_same_prompt_twice_gives_distinct_titles_and_a_rename_is_kept(
    driver: Driver, qtbot: QtBot
) -> None:
    async def body() -> None:
        context, window, engine = await _window(driver, {})
        await _converse(window, "## Fix the **flaky** test in @tests/ui/test_app.py. It fails.")
        await _settled(engine, "Fix the flaky test in test_app.py")
        window.new_conversation()
        second = await _converse(window, "Fix the flaky test in @tests/ui/test_app.py")
        entry = engine.entry_of(second)
        assert entry is not None
        # The row and the tab read the numbered title at once, before the store answers.
        assert entry.title == second.title == "Fix the flaky test in test_app.py (2)"
        await _settled(engine, "Fix the flaky test in test_app.py (2)")
        await until(lambda: len(_stored(driver.workspace())) == 2, what="both stored")
        titles = sorted(c.title for c in _stored(driver.workspace()))
        assert titles == [
            "Fix the flaky test in test_app.py",
            "Fix the flaky test in test_app.py (2)",
        ]
        rows = [window.sidebar.item(r).text() for r in range(window.sidebar.count())]
        assert sorted(rows) == titles
        # F2: the user may give it the other one's title; their choice is kept as typed.
        window.show()
        engine.select(second)
        window.history.rename_current()
        editor = window.sidebar.findChild(QLineEdit, "renameEditor")
        assert editor is not None
        editor.setText("Fix the flaky test in test_app.py")
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        await until(
            lambda: (
                [c.title for c in _stored(driver.workspace())]
                == ["Fix the flaky test in test_app.py"] * 2
            ),
            what="rename kept as typed",
        )
        await _shutdown(context)

    driver.run(body(), 90)
