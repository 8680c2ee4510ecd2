"""Issue 14 item 9: Grep and Glob of the built-in agent stay inside the workspace.

A workspace with a symlinked file and a symlinked folder pointing outside it: Grep for the
outside secret and Glob ``**/*`` / ``*/*`` through the real agent process and the fake LLM. What
the model is sent (the fake LLM's recorded requests) never holds the outside content or names;
``--allow-outside-workspace`` still lets the walks follow the links.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent.harness import running
from tests.fakes.fake_llm import FakeLLM, ToolCallSpec, Turn, openai_tool_results

SECRET = "OUTSIDE-SECRET-WORD"


@pytest.fixture
def linked(workspace: Path) -> Path:
    """``workspace`` with inside files, and links to a file and a folder outside it."""
    outside = workspace.parent / "outside"
    (outside / "folder").mkdir(parents=True)
    (outside / "secret.txt").write_text(f"root:{SECRET}\n")
    (outside / "folder" / "deep.txt").write_text(f"deep {SECRET}\n")
    (workspace / "src").mkdir()
    (workspace / "src" / "inside.txt").write_text("inside-word\n")
    (workspace / "alias.txt").symlink_to(workspace / "src" / "inside.txt")
    (workspace / "passwd_link").symlink_to(outside / "secret.txt")
    (workspace / "outdir").symlink_to(outside / "folder", target_is_directory=True)
    return workspace


def _search(workspace: Path, llm: FakeLLM, *args: str) -> dict[str, str]:
    calls = [
        ToolCallSpec("Grep", {"pattern": "OUTSIDE-SECRET-W.RD|inside-word"}, "g1"),
        ToolCallSpec("Glob", {"pattern": "**/*"}, "l1"),
        ToolCallSpec("Glob", {"pattern": "*/*"}, "l2"),
    ]
    llm.add(Turn(tool_calls=calls), {"text": "Done."})
    with running(workspace, llm, args=("--auto-approve", *args)) as agent:
        agent.message("search everything")
    llm.wait_for_requests(2)
    results = openai_tool_results(llm.model_requests[1].body)
    return {call_id: content for call_id, (content, _error) in results.items()}


def test_walks_skip_what_resolves_outside(linked: Path, llm: FakeLLM) -> None:
    out = _search(linked, llm)
    assert out["g1"].splitlines() == ["alias.txt:1:inside-word", "src/inside.txt:1:inside-word"]
    assert sorted(out["l1"].splitlines()) == ["alias.txt", "src/inside.txt"]
    assert out["l2"].splitlines() == ["src/inside.txt"]
    assert SECRET not in str([request.body for request in llm.model_requests])
    for leak in ("passwd_link", "outdir", "deep.txt", "secret.txt"):
        assert not [call_id for call_id, text in out.items() if leak in text], leak


def test_allow_outside_workspace_follows_the_links(linked: Path, llm: FakeLLM) -> None:
    out = _search(linked, llm, "--allow-outside-workspace")
    assert f"passwd_link:1:root:{SECRET}" in out["g1"].splitlines()
    assert "outdir/deep.txt" in out["l2"].splitlines()
