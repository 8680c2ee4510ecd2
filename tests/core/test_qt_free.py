"""The core must never import Qt: it runs headless, in `agentdesk exec` and in extensions."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "desktop" / "core"
FORBIDDEN = ("PySide6", "qasync", "shiboken6", "desktop.ui")


def test_no_core_module_imports_qt_statically() -> None:
    offenders = []
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path}: {n}" for n in names if n.startswith(FORBIDDEN)]
    assert not offenders


def test_importing_every_core_module_loads_no_qt() -> None:
    code = (
        "import pkgutil, sys, importlib, desktop.core\n"
        "for m in pkgutil.walk_packages(desktop.core.__path__, 'desktop.core.'):\n"
        "    importlib.import_module(m.name)\n"
        f"bad = [m for m in sys.modules if m.startswith({FORBIDDEN!r})]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_linter_contract_holds() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint)], capture_output=True, text=True, check=False, cwd=CORE.parents[1]
    )
    assert result.returncode == 0, result.stdout + result.stderr
