"""The source tree's shape: every class in ``desktop`` has a name no other class there has.

Two classes with one name (a ``SessionBridge`` in the UI and another in the extension runtime)
make every import, search and stack trace ambiguous; a new one fails here with both places.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import desktop

ROOT = Path(desktop.__file__).parent


def _class_names() -> dict[str, list[str]]:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(f"{path.relative_to(ROOT.parent)}:{node.lineno}")
    return where


def test_class_names_are_unique_across_packages() -> None:
    where = _class_names()
    assert len(where) > 100  # the walk found the tree
    shared = {name: places for name, places in where.items() if len(places) > 1}
    assert shared == {}
