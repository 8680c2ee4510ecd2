"""Files the built-in agent's Write and Edit tools make follow the umask, like any editor's.

The agent replaces files atomically (``desktop.core.atomic_file``): a new file must get what
``open`` would give under the user's umask (not owner-only), a new folder likewise, and an
edited file keeps its own permissions (an executable script stays executable).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tests.agent.harness import running
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_files_follow_the_umask_and_edits_keep_the_mode(workspace: Path, llm: FakeLLM) -> None:
    script = workspace / "run.sh"
    script.write_text("echo old\n")
    script.chmod(0o750)
    calls = [
        ToolCallSpec("Write", {"file_path": "notes.txt", "content": "hello\n"}, "w1"),
        ToolCallSpec("Write", {"file_path": "src/deep/mod.py", "content": "x = 1\n"}, "w2"),
        ToolCallSpec(
            "Edit", {"file_path": "run.sh", "old_string": "old", "new_string": "new"}, "e1"
        ),
    ]
    llm.add(Turn(tool_calls=calls), {"text": "Done."})
    previous = os.umask(0o027)  # the agent process inherits it when it is started
    try:
        with running(workspace, llm, args=("--auto-approve",)) as agent:
            events = agent.message("write and edit")
    finally:
        os.umask(previous)
    results = [e for e in events if e["type"] == "tool_result"]
    assert [r["status"] for r in results] == ["success"] * 3, results
    assert (workspace / "notes.txt").read_text() == "hello\n"
    assert _mode(workspace / "notes.txt") == 0o640  # 0o666 & ~0o027, not owner-only 0o600
    assert _mode(workspace / "src" / "deep" / "mod.py") == 0o640
    assert _mode(workspace / "src") == 0o750  # 0o777 & ~0o027
    assert _mode(workspace / "src" / "deep") == 0o750
    assert script.read_text() == "echo new\n"
    assert _mode(script) == 0o750  # an edit keeps the file's own mode
