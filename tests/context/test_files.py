"""The ``@`` finder's file index: what it lists (``.gitignore`` at every level, never ``.git``)
and how it ranks (a match in the name first, the query whole above scattered letters)."""

from __future__ import annotations

from pathlib import Path

from desktop.core.context.files import FileIndex, list_files


def tree(root: Path, files: list[str]) -> None:
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")


def test_listing_honours_gitignore_files_at_every_level(tmp_path: Path) -> None:
    tree(
        tmp_path,
        [
            "README.md",
            "src/app.py",
            "src/app.pyc",
            "build/out.js",
            ".git/config",
            "pkg/.gitignore",
            "pkg/keep.txt",
            "pkg/secret.env",
            "pkg/deep/secret.env",
            "other/secret.env",
        ],
    )
    (tmp_path / ".gitignore").write_text("*.pyc\nbuild/\n")
    (tmp_path / "pkg" / ".gitignore").write_text("*.env\n")
    found = list_files(tmp_path)
    assert found == [
        ".gitignore",
        "README.md",
        "other/secret.env",
        "pkg/.gitignore",
        "pkg/keep.txt",
        "src/app.py",
    ]


def test_a_negated_rule_and_an_anchored_folder(tmp_path: Path) -> None:
    tree(tmp_path, ["logs/a.log", "logs/keep.log", "docs/logs/b.log", "dist/x", "a/dist/y"])
    (tmp_path / ".gitignore").write_text("*.log\n!keep.log\n/dist\n")
    assert list_files(tmp_path) == [".gitignore", "a/dist/y", "logs/keep.log"]


def test_the_limit_bounds_a_huge_workspace(tmp_path: Path) -> None:
    tree(tmp_path, [f"f{i}.txt" for i in range(30)])
    assert len(list_files(tmp_path, limit=10)) == 10


INDEX = FileIndex(
    [
        "desktop/ui/composer.py",
        "desktop/ui/composer_actions.py",
        "desktop/core/context/files.py",
        "docs/composing-music.md",
        "tests/ui/test_composer.py",
        "compose/readme.txt",
        "src/c/o/m/p.c",
    ]
)


def test_the_name_that_holds_the_query_whole_comes_first() -> None:
    paths = [m.path for m in INDEX.query("composer")]
    assert paths[0] == "desktop/ui/composer.py"
    assert set(paths[:3]) == {
        "desktop/ui/composer.py",
        "desktop/ui/composer_actions.py",
        "tests/ui/test_composer.py",
    }
    assert paths[3:] == ["compose/readme.txt"]  # c-o-m-p-o-s-e + the r of readme: its path


def test_scattered_letters_match_in_order_and_folders_count_after_names() -> None:
    paths = [m.path for m in INDEX.query("cmpact")]
    assert paths == ["desktop/ui/composer_actions.py"]
    by_folder = [m.path for m in INDEX.query("comp")]
    assert by_folder.index("compose/readme.txt") > by_folder.index("desktop/ui/composer.py")
    assert "src/c/o/m/p.c" in by_folder  # the path holds c, o, m, p in order


def test_a_query_with_a_slash_matches_paths_and_nothing_matches_nothing() -> None:
    assert INDEX.query("ui/comp")[0].path == "desktop/ui/composer.py"
    assert INDEX.query("zzqq") == []
    assert [m.path for m in INDEX.query("", limit=2)] == INDEX.paths[:2]
    assert len(INDEX.query("o", limit=3)) == 3
