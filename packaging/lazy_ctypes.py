"""PyInstaller's bootstrap with its ctypes hooks installed when ctypes is first imported.

PyInstaller's bootstrap script (``pyiboot01_bootstrap``) runs ``pyimod03_ctypes.install()``
before the app's first line: it imports ``ctypes`` (``_ctypes`` and libffi are loaded: ~10 M
instructions, ~1.5 % of the frozen app's way to its first paint) to make ``ctypes.CDLL`` and
friends look in the bundle first. The window never needs ctypes before its first paint (it is
loaded after it, ``desktop.ui.pyside_fixes``), so the spec uses this copy of the bootstrap: the
same script, except that the hooks are installed right after ``ctypes`` is first imported,
whoever imports it (an import hook on ``sys.meta_path`` that removes itself). ``ctypes`` then
behaves exactly as PyInstaller makes it behave, only later.

Used by ``packaging/agentdesk.spec`` and by the frozen bare window of
``benchmarks/packaging_startup.py`` (same options for both). When PyInstaller's bootstrap no
longer has the two lines replaced here, the original is kept (the start is merely slower) and
the build prints a warning.
"""

from __future__ import annotations

from pathlib import Path

#: The lines of PyInstaller's bootstrap that install the ctypes hooks at once.
ORIGINAL = """    import pyimod03_ctypes  # noqa: E402
    pyimod03_ctypes.install()
"""

#: Their replacement: the same hooks, installed once ``ctypes`` has been imported.
LAZY = """    import pyimod03_ctypes  # noqa: E402

    class _CtypesLoader:  # Agent Desk (packaging/lazy_ctypes.py): hooks after the import
        def __init__(self, loader):
            self._loader = loader

        def __getattr__(self, name):
            return getattr(self._loader, name)

        def create_module(self, spec):
            return self._loader.create_module(spec)

        def exec_module(self, module):
            self._loader.exec_module(module)
            pyimod03_ctypes.install()

    class _CtypesOnImport:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name != 'ctypes':
                return None
            sys.meta_path.remove(_CtypesOnImport)
            for finder in sys.meta_path:
                find = getattr(finder, 'find_spec', None)
                spec = find(name, path, target) if find is not None else None
                if spec is not None:
                    spec.loader = _CtypesLoader(spec.loader)
                    return spec
            return None

    sys.meta_path.insert(0, _CtypesOnImport)
"""

BOOTSTRAP = "pyiboot01_bootstrap"


def lazy_ctypes(
    dependencies: list[tuple[str, str, str]], folder: Path
) -> list[tuple[str, str, str]]:
    """A ``PYZ``'s ``dependencies`` (the bootstrap modules and script that ``EXE`` puts first in
    the executable) with PyInstaller's bootstrap script replaced by the lazy copy, written to
    ``folder``; unchanged (and a warning printed) when the bootstrap differs."""
    result = []
    for name, path, kind in dependencies:
        if name == BOOTSTRAP:
            source = Path(path).read_text(encoding="utf-8")
            if source.count(ORIGINAL) == 1:
                folder.mkdir(parents=True, exist_ok=True)
                patched = folder / f"{BOOTSTRAP}.py"
                patched.write_text(source.replace(ORIGINAL, LAZY), encoding="utf-8")
                path = str(patched)
            else:
                print(f"warning: {path} has changed; the ctypes hooks stay at start-up")
        result.append((name, path, kind))
    return result
