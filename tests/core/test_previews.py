"""Host-computed previews: what a tool will do, before approval."""

from __future__ import annotations

from pathlib import Path

from desktop.core.events import ToolCategory
from desktop.core.previews import build_preview


def test_write_new_file_is_all_added_lines(tmp_path: Path) -> None:
    preview = build_preview(
        tmp_path, "Write", ToolCategory.EDIT, {"file_path": "n.py", "content": "a\nb\n"}
    )
    assert preview.kind == "diff"
    assert preview.new_file
    assert preview.text.splitlines()[2:] == ["@@ -0,0 +1,2 @@", "+a", "+b"]


def test_edit_applies_the_replacement_to_the_file_on_disk(tmp_path: Path) -> None:
    (tmp_path / "e.txt").write_text("one\ntwo\nthree\n")
    preview = build_preview(
        tmp_path,
        "Edit",
        ToolCategory.EDIT,
        {"file_path": str(tmp_path / "e.txt"), "old_string": "two", "new_string": "2"},
    )
    assert "-two\n+2\n" in preview.text
    assert not preview.outside_workspace


def test_edit_whose_text_is_missing_says_so(tmp_path: Path) -> None:
    (tmp_path / "e.txt").write_text("one\n")
    preview = build_preview(
        tmp_path,
        "Edit",
        ToolCategory.EDIT,
        {"file_path": "e.txt", "old_string": "zzz", "new_string": "2"},
    )
    assert preview.kind == "json"
    assert "not found" in preview.text


def test_outside_paths_are_flagged(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    preview = build_preview(
        ws, "Write", ToolCategory.EDIT, {"file_path": "../escape.txt", "content": "x"}
    )
    assert preview.outside_workspace
    command = build_preview(ws, "Bash", ToolCategory.EXEC, {"command": "ls", "cwd": "/"})
    assert command.kind == "command"
    assert command.outside_workspace


def test_other_tools_show_sorted_json(tmp_path: Path) -> None:
    preview = build_preview(tmp_path, "mcp__x", ToolCategory.MCP, {"b": 1, "a": [1]})
    assert preview.kind == "json"
    assert preview.text.index('"a"') < preview.text.index('"b"')
