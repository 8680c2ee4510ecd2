"""The frozen app's bootstrap installs PyInstaller's ctypes hooks at ctypes' first import.

``packaging/lazy_ctypes.py`` replaces two lines of PyInstaller's bootstrap script; the first test
fails when an upgrade of PyInstaller changes them (the build would then keep the eager hooks).
The second runs the replacement in a fresh interpreter with a stand-in for PyInstaller's hook
module: nothing is installed until ``ctypes`` is imported, then the hooks are installed once,
the import hook is gone, and ``ctypes`` works.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import PyInstaller
from lazy_ctypes import BOOTSTRAP, LAZY, ORIGINAL, lazy_ctypes

INSTALLED = Path(PyInstaller.__file__).parent / "loader" / f"{BOOTSTRAP}.py"


def test_the_installed_bootstrap_is_replaced(tmp_path: Path) -> None:
    entries = [("struct", "/x/struct.py", "PYMODULE"), (BOOTSTRAP, str(INSTALLED), "PYSOURCE")]
    replaced = lazy_ctypes(entries, tmp_path)
    assert replaced[0] == entries[0]
    name, path, kind = replaced[1]
    assert (name, kind) == (BOOTSTRAP, "PYSOURCE")
    text = Path(path).read_text(encoding="utf-8")
    assert ORIGINAL not in text
    assert "sys.meta_path.insert(0, _CtypesOnImport)" in text
    compile(text, path, "exec")


def test_the_hooks_are_installed_at_the_first_import_of_ctypes() -> None:
    script = (
        textwrap.dedent("""
        import sys, types
        calls = []
        stand_in = types.ModuleType("pyimod03_ctypes")
        def install():
            import ctypes
            calls.append(ctypes.__name__)
        stand_in.install = install
        sys.modules["pyimod03_ctypes"] = stand_in
        sys.modules.pop("ctypes", None)
        def bootstrap():
        """)
        + LAZY
        + textwrap.dedent("""
        bootstrap()
        assert "ctypes" not in sys.modules and calls == []
        import ctypes
        assert calls == ["ctypes"], calls
        assert not any(getattr(f, "__name__", "") == "_CtypesOnImport" for f in sys.meta_path)
        assert ctypes.sizeof(ctypes.c_int) == 4
        import ctypes.util
        assert calls == ["ctypes"]
        print("ok")
        """)
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "ok", done.stderr
