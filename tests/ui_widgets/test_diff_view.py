"""DiffView: parsing, both layouts, line numbers, syntax and intra-line highlights, big diffs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from desktop.core.previews import unified_diff
from desktop.ui.diff import DiffView
from desktop.ui.diff.model import RowKind, parse_diff
from desktop.ui.diff.pane import DiffPane

OLD = "import os\n\n\ndef total(values):\n    return sum(values)\n"
NEW = "import os\n\n\ndef total(values):\n    return max(values)\n"
TWO_FILES = unified_diff(OLD, NEW, "calc.py") + unified_diff("a\nb\n", "a\nc\n", "notes.txt")


def _view(host: QWidget, text: str, *, side_by_side: bool = False) -> DiffView:
    view = DiffView(host, side_by_side=side_by_side)
    host.layout().addWidget(view)
    view.set_diff(text)
    view.show()
    return view


def _lines(pane: DiffPane) -> list[str]:
    return pane.toPlainText().split("\n")


def _row_of(pane: DiffPane, kind: RowKind, text: str) -> int:
    return next(i for i, r in enumerate(pane.rows) if r.kind == kind and r.text == text)


def _settle(qtbot: QtBot, pane: DiffPane, row: int) -> None:
    pane.viewport().repaint()
    qtbot.waitUntil(lambda: pane.is_formatted(row))


def test_multi_file_diff_shows_every_file_with_line_numbers(host: QWidget) -> None:
    view = _view(host, TWO_FILES)
    assert [f.path for f in view.model.files] == ["calc.py", "notes.txt"]
    (pane,) = view.panes()
    lines = _lines(pane)
    assert lines[0].startswith("calc.py")
    assert "    return sum(values)" in lines
    assert any(line.startswith("notes.txt") for line in lines)
    removed = pane.rows[_row_of(pane, RowKind.REMOVED, "    return sum(values)")]
    added = pane.rows[_row_of(pane, RowKind.ADDED, "    return max(values)")]
    assert (removed.old_no, removed.new_no) == (5, None)
    assert (added.old_no, added.new_no) == (None, 5)
    context = pane.rows[_row_of(pane, RowKind.CONTEXT, "def total(values):")]
    assert (context.old_no, context.new_no) == (4, 4)


def test_new_file_is_all_added_lines() -> None:
    model = parse_diff(unified_diff("", "one\ntwo\nthree\n", "new.txt"))
    assert model.files[0].is_new
    body = [r for r in model.unified if r.kind not in (RowKind.FILE, RowKind.HUNK)]
    assert [r.kind for r in body] == [RowKind.ADDED] * 3
    assert [r.new_no for r in body] == [1, 2, 3]


def test_side_by_side_toggle_by_button_and_shortcut(qtbot: QtBot, host: QWidget) -> None:
    view = _view(host, TWO_FILES)
    assert view.toggle_button.accessibleName() == "Toggle side-by-side diff view"
    with qtbot.waitSignal(view.layout_changed) as blocker:
        qtbot.mouseClick(view.toggle_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [True]
    left, right = view.panes()
    assert len(left.rows) == len(right.rows)
    row = _row_of(left, RowKind.REMOVED, "    return sum(values)")
    assert right.rows[row].kind == RowKind.ADDED
    assert right.rows[row].text == "    return max(values)"
    assert _lines(left)[row] == "    return sum(values)"
    left.setFocus()
    qtbot.waitUntil(left.hasFocus)
    with qtbot.waitSignal(view.layout_changed) as blocker:
        qtbot.keyClick(
            left,
            Qt.Key.Key_D,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )
    assert blocker.args == [False]
    assert not view.is_side_by_side()
    assert not view.toggle_button.isChecked()


def test_side_by_side_pads_unequal_runs_with_fillers() -> None:
    model = parse_diff(unified_diff("a\nb\nc\n", "a\nx\n", "f.txt"))
    assert len(model.left) == len(model.right)
    kinds = [(lft.kind, rgt.kind) for lft, rgt in zip(model.left, model.right, strict=True)]
    assert (RowKind.REMOVED, RowKind.ADDED) in kinds
    assert (RowKind.REMOVED, RowKind.FILLER) in kinds


def test_intra_line_change_and_syntax_colours_are_applied(qtbot: QtBot, host: QWidget) -> None:
    view = _view(host, TWO_FILES)
    (pane,) = view.panes()
    row = _row_of(pane, RowKind.ADDED, "    return max(values)")
    _settle(qtbot, pane, row)
    formats = pane.row_formats(row)
    start = "    return max(values)".index("max")
    marks = [(s, n) for s, n, _fg, bg in formats if bg]
    assert marks == [(start, 3)], "only the changed word is marked"
    keyword = [(s, n) for s, n, fg, _bg in formats if fg and s == 4]
    assert keyword == [(4, 6)], "'return' is coloured as a keyword"
    context = _row_of(pane, RowKind.CONTEXT, "def total(values):")
    assert not [f for f in pane.row_formats(context) if f[3]], "context has no word marks"


def test_unparseable_text_is_shown_not_hidden(host: QWidget) -> None:
    view = _view(host, "this is not a diff\nsecond line\n")
    assert view.model.error
    lines = _lines(view.panes()[0])
    assert lines[1:] == ["this is not a diff", "second line"]


def test_palette_change_switches_to_dark_colours(qtbot: QtBot, host: QWidget) -> None:
    view = _view(host, TWO_FILES)
    (pane,) = view.panes()
    row = _row_of(pane, RowKind.ADDED, "    return max(values)")
    _settle(qtbot, pane, row)
    light_mark = [bg for *_rest, bg in pane.row_formats(row) if bg]
    dark = QPalette(view.palette())
    dark.setColor(QPalette.ColorRole.Base, QColor(30, 30, 30))
    dark.setColor(QPalette.ColorRole.Text, QColor(220, 220, 220))
    view.setPalette(dark)
    _settle(qtbot, pane, row)
    dark_mark = [bg for *_rest, bg in pane.row_formats(row) if bg]
    assert light_mark
    assert dark_mark
    assert dark_mark != light_mark
    assert QColor(dark_mark[0]).lightness() < QColor(light_mark[0]).lightness()


def test_five_thousand_line_change_loads_in_both_views(qtbot: QtBot, host: QWidget) -> None:
    old = "".join(f"value_{i} = compute({i}, 'a')\n" for i in range(2500))
    new = "".join(f"value_{i} = compute({i}, 'b')\n" for i in range(2500))
    text = unified_diff(old, new, "big.py")
    view = _view(host, text)
    (pane,) = view.panes()
    body = [r for r in pane.rows if r.kind in (RowKind.ADDED, RowKind.REMOVED)]
    assert len(body) == 5000
    assert pane.document().blockCount() == len(pane.rows)
    last = len(pane.rows) - 1
    pane.verticalScrollBar().setValue(pane.verticalScrollBar().maximum())
    _settle(qtbot, pane, last)
    assert _lines(pane)[last] == "value_2499 = compute(2499, 'b')"
    assert [bg for *_rest, bg in pane.row_formats(last) if bg], "intra-line mark at the end"
    view.set_side_by_side(True)
    left, right = view.panes()
    assert len(left.rows) == len(right.rows) == 2502
    assert not left.is_formatted(1000), "rows off screen are never formatted"


def test_side_by_side_says_headers_once_and_label_follows_the_view(host: QWidget) -> None:
    view = _view(host, TWO_FILES)
    assert view.toggle_button.text().startswith("Side by side")
    view.set_side_by_side(True)
    assert view.toggle_button.text().startswith("Unified")
    left, right = view.panes()
    headers = [i for i, r in enumerate(left.rows) if r.kind in (RowKind.FILE, RowKind.HUNK)]
    assert headers and all(left.rows[i].text for i in headers)
    assert all(right.rows[i].kind == left.rows[i].kind and not right.rows[i].text for i in headers)
    assert left.verticalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff


def test_side_by_side_of_a_new_file_shows_only_the_new_side(host: QWidget) -> None:
    view = _view(host, unified_diff("", "one\ntwo\n", "new.txt"), side_by_side=True)
    (pane,) = view.panes()
    assert pane.rows and [r.text for r in pane.rows if r.kind == RowKind.ADDED] == ["one", "two"]
    assert pane.rows[0].kind == RowKind.FILE and pane.rows[0].text.startswith("new.txt")


def test_wrapping_keeps_both_sides_level(qtbot: QtBot, host: QWidget) -> None:
    host.resize(600, 400)
    long_old = "x = " + "a" * 300
    text = unified_diff(f"{long_old}\nkeep\n", "x = 1\nkeep\n", "w.py")
    view = _view(host, text, side_by_side=True)
    view.set_wrap(True)
    left, right = view.panes()
    qtbot.waitUntil(lambda: right.texts() != [r.text for r in right.rows])
    row = _row_of(left, RowKind.REMOVED, long_old)
    lines = left.texts()[row].count("\u2028") + 1, right.texts()[row].count("\u2028") + 1
    assert lines[1] > 1, "the short side is padded to the long side's height"
    qtbot.waitUntil(lambda: left.document().findBlockByNumber(row).lineCount() > 1)
    keep = _row_of(left, RowKind.CONTEXT, "keep")
    top_left = left.blockBoundingGeometry(left.document().findBlockByNumber(keep)).top()
    top_right = right.blockBoundingGeometry(right.document().findBlockByNumber(keep)).top()
    assert top_left == top_right
    right.selectAll()
    assert "\u2028" not in (right.createMimeDataFromSelection().text())
    view.set_wrap(False)
    qtbot.waitUntil(lambda: right.texts() == [r.text for r in right.rows])


def test_changes_are_stepped_through_and_marked(host: QWidget) -> None:
    view = _view(host, TWO_FILES)
    assert view.change_count() == 2
    assert view.goto_change(1) == 0
    assert view.goto_change(1) == 1
    assert view.goto_change(1) == 0  # wraps around
    assert view.goto_change(-1) == 1
    view.set_side_by_side(True)
    assert view.current_change() == -1 and view.change_count() == 2
