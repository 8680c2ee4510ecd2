"""The review view's multi-file mode, from hand-made change sets: every file listed and shown,
keys that step by file and by hunk, Revert hunk / Revert file / Undo asking with the right
file and hunk numbers (as the checkpoint store numbers them), and the "Changes" card and the
restore bar in their states."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from desktop.core.checkpoints.model import (
    ChangeKind,
    ChangeSet,
    Checkpoint,
    CheckpointKind,
    FailedPath,
    FileChange,
    RestorePlan,
    RestoreResult,
)
from desktop.ui.checkpoints.diffs import combined_diff
from desktop.ui.checkpoints.restore_bar import RestoreBar
from desktop.ui.checkpoints.summary import ChangesSummary
from desktop.ui.review.view import ReviewView

OLD = [f"line {i}" for i in range(1, 61)]


def _diff(path: str, changed: tuple[int, ...]) -> tuple[str, int]:
    """A unified diff of ``path`` changing the lines ``changed`` (far apart: one hunk each)."""
    import difflib

    new = [f"LINE {i}" if i in changed else line for i, line in enumerate(OLD, 1)]
    lines = difflib.unified_diff(
        [x + "\n" for x in OLD], [x + "\n" for x in new], f"a/{path}", f"b/{path}"
    )
    return "".join(lines), len(changed)


def _changes() -> ChangeSet:
    app, n = _diff("src/app.py", (5, 30, 55))
    readme, m = _diff("README.md", (10,))
    return ChangeSet(
        base="c0",
        target="c1",
        files=(
            FileChange("README.md", ChangeKind.MODIFIED, m, m, diff=readme),
            FileChange("logo.png", ChangeKind.ADDED, binary=True),
            FileChange("src/app.py", ChangeKind.MODIFIED, n, n, diff=app),
        ),
    )


def _view(qtbot: QtBot) -> ReviewView:
    view = ReviewView()
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow, timeout=15_000)  # the view's keys are window shortcuts
    view.show_changes("Turn 1", combined_diff(_changes()), hunks=True)
    view.focus_diff()
    return view


def _press(qtbot: QtBot, view: ReviewView, key: str) -> None:
    sequence = QKeySequence(key)
    combination = sequence[0]
    qtbot.keyClick(view.diff.panes()[-1], combination.key(), combination.keyboardModifiers())


def test_every_file_is_listed_and_shown_with_the_revert_bar(qtbot: QtBot) -> None:
    view = _view(qtbot)
    assert view.files.count() == 3
    assert view.files.isVisible()
    assert [f.path for f in view.diff.model.files] == ["README.md", "logo.png", "src/app.py"]
    assert view.revert.isVisible()
    assert view.revert.hunk_button.isVisible()
    assert not view.revert.undo_button.isEnabled()
    assert not view.approval.isVisible()
    # An approval diff afterwards hides the revert bar again.
    view.show_diff("Edit", combined_diff(_changes()), pending=True, offers_never=False)
    assert not view.revert.isVisible()


def test_file_and_hunk_keys_move_and_revert_asks_for_that_hunk(qtbot: QtBot) -> None:
    view = _view(qtbot)
    asked: list[tuple[int, int]] = []
    view.revert.revert_requested.connect(lambda file, hunk: asked.append((file, hunk)))
    assert view.revert.position() == (0, -1)  # README.md's header, at the top
    _press(qtbot, view, "Alt+PgDown")  # logo.png
    assert view.revert.position()[0] == 1
    _press(qtbot, view, "F8")  # src/app.py
    assert view.revert.position() == (2, -1)
    assert view.files.currentRow() == 2
    _press(qtbot, view, "Alt+Shift+Down")
    _press(qtbot, view, "Alt+Shift+Down")  # the second hunk of src/app.py
    assert view.revert.position() == (2, 1)
    assert "File 3 of 3" in view.revert.where.text()
    assert "hunk 2 of 3" in view.revert.where.text()
    _press(qtbot, view, "Ctrl+Alt+Z")
    assert asked == [(2, 1)]
    _press(qtbot, view, "Ctrl+Alt+Shift+Z")
    assert asked == [(2, 1), (2, -1)]
    _press(qtbot, view, "Alt+PgUp")  # back to logo.png: a binary file has no hunk to revert
    assert view.revert.position()[0] == 1
    _press(qtbot, view, "Ctrl+Alt+Z")
    assert asked == [(2, 1), (2, -1)]
    _press(qtbot, view, "Alt+Shift+Up")  # the hunk before: README.md's only one
    assert view.revert.position() == (0, 0)


def test_undo_only_after_a_revert_and_the_status_says_what_happened(qtbot: QtBot) -> None:
    view = _view(qtbot)
    undone: list[bool] = []
    view.revert.undo_requested.connect(lambda: undone.append(True))
    _press(qtbot, view, "Ctrl+Z")
    assert undone == []
    view.revert.show_done("Reverted src/app.py", undoable=True)
    assert view.revert.undo_button.isEnabled()
    _press(qtbot, view, "Ctrl+Z")
    assert undone == [True]
    view.revert.show_problem("src/app.py: read-only")
    assert view.revert.status.text() == "src/app.py: read-only"
    assert view.revert.status.property("status") == "failed"


def test_a_change_step_makes_its_hunk_the_one_under_review(qtbot: QtBot) -> None:
    view = _view(qtbot)
    asked: list[tuple[int, int]] = []
    view.revert.revert_requested.connect(lambda file, hunk: asked.append((file, hunk)))
    for _ in range(3):  # README's change, then src/app.py's first two
        _press(qtbot, view, "Alt+Down")
    view.revert.hunk_button.click()
    assert asked == [(2, 1)]


def test_conversation_review_offers_no_hunk_revert(qtbot: QtBot) -> None:
    view = _view(qtbot)
    view.show_changes("Conversation", combined_diff(_changes()), hunks=False)
    asked: list[tuple[int, int]] = []
    view.revert.revert_requested.connect(lambda file, hunk: asked.append((file, hunk)))
    assert not view.revert.hunk_button.isVisible()
    _press(qtbot, view, "F8")
    _press(qtbot, view, "Ctrl+Alt+Z")
    _press(qtbot, view, "Ctrl+Alt+Shift+Z")
    assert asked == [(1, -1)]


def test_summary_card_names_files_and_refuses_restore_while_busy(qtbot: QtBot) -> None:
    summary = ChangesSummary(2, _changes())
    qtbot.addWidget(summary)
    assert summary.title.text() == "Changes · 3 files"
    assert summary.added.text() == "+4" and summary.removed.text() == "−4"
    assert summary.names.text() == "README.md, logo.png, app.py"
    assert summary.accessibleName().startswith("Changes of turn 2: Changes · 3 files, 4 lines")
    turns: list[int] = []
    summary.review_requested.connect(turns.append)
    summary.restore_requested.connect(lambda turn: turns.append(-turn))
    summary.review.click()
    summary.restore.click()
    assert turns == [2, -2]
    summary.set_busy(True)
    assert not summary.restore.isEnabled()
    assert "Stop the running turn" in summary.restore.toolTip()
    summary.set_busy(False)
    assert summary.restore.isEnabled()


def _checkpoint() -> Checkpoint:
    return Checkpoint("c9", "conv", 1, CheckpointKind.RESTORE_BEFORE, 0.0)


def test_restore_bar_plan_marks_later_edits_then_offers_undo(qtbot: QtBot) -> None:
    bar = RestoreBar()
    qtbot.addWidget(bar)
    plan = RestorePlan(
        "conv",
        1,
        Checkpoint("c0", "conv", 1, CheckpointKind.TURN_BEFORE, 0.0),
        ChangeSet(
            "now",
            "c0",
            (
                FileChange("a.txt", ChangeKind.MODIFIED, 1, 1, edited_since=True),
                FileChange("new.txt", ChangeKind.DELETED),
            ),
        ),
    )
    confirmed: list[int] = []
    bar.confirmed.connect(confirmed.append)
    bar.show()
    bar.show_plan(plan)
    assert bar.title.text() == "Restore the files to before turn 1?"
    text = bar.details.text()
    assert "a.txt</code> changes back — <b>edited after this turn</b>" in text
    assert "new.txt</code> is removed<br>" in text
    assert "1 file was edited after this turn" in text
    assert bar.confirm.isVisible() and not bar.undo.isVisible()
    qtbot.keyClick(bar.confirm, Qt.Key.Key_Return)
    assert confirmed == [1]
    failed = RestoreResult(_checkpoint(), ("new.txt",), (FailedPath("a.txt", "read-only"),))
    bar.show_result(failed, undone=False)
    assert bar.title.text() == "Restored 1 file."
    assert "a.txt</code>: read-only" in bar.details.text()
    assert bar.undo.isVisible() and not bar.confirm.isVisible()
    undo: list[bool] = []
    bar.undo_requested.connect(lambda: undo.append(True))
    bar.undo.click()
    assert undo == [True]
    bar.show_result(RestoreResult(_checkpoint(), ("a.txt", "new.txt")), undone=True)
    assert bar.title.text() == "Restore undone: 2 files put back."
    assert not bar.undo.isVisible()
    qtbot.keyClick(bar, Qt.Key.Key_Escape)
    assert not bar.isVisible()
