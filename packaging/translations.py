"""Translation catalogues of the window: update them from the sources, compile them, check them.

``update``: ``pyside6-lupdate`` reads every ``.py`` under ``desktop/ui`` and refreshes each
``desktop/ui/i18n/agentdesk_<lang>.ts`` (new strings arrive unfinished; strings gone from the
sources are dropped). ``compile``: ``pyside6-lrelease`` turns each ``.ts`` into the ``.qm``
that ``desktop.ui.i18n.install`` loads (``--out`` for another folder). The ``.qm`` files are
build output: ``packaging/dev_install.sh`` and the PyInstaller spec run ``compile``.
``stale``: prints the source texts of ``desktop/ui`` missing from a catalogue (exit 1 if any).

Usage: ``python packaging/translations.py update|compile [--out DIR]|stale``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "desktop" / "ui"
CATALOGUES = SOURCES / "i18n"


def _tool(name: str) -> str:
    """The PySide6 tool ``name`` beside this interpreter (a venv's bin folder), else on PATH."""
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else name


def sources() -> list[str]:
    """Every Python file of the window, relative to the repository (stable ``.ts`` locations)."""
    return sorted(str(p.relative_to(ROOT)) for p in SOURCES.rglob("*.py"))


def catalogues() -> list[Path]:
    """The ``.ts`` catalogues, one per language."""
    return sorted(CATALOGUES.glob("agentdesk_*.ts"))


def update(targets: list[Path]) -> None:
    """Refresh ``targets`` from the sources (obsolete entries dropped, locations relative)."""
    cmd = [_tool("pyside6-lupdate"), "-no-obsolete", "-locations", "none", *sources(), "-ts"]
    subprocess.run([*cmd, *map(str, targets)], cwd=ROOT, check=True, capture_output=True)


def compile_all(out: Path | None = None) -> list[Path]:
    """Compile every catalogue into ``out`` (default: beside it); the ``.qm`` files written."""
    written = []
    for ts in catalogues():
        qm = (out or ts.parent) / ts.with_suffix(".qm").name
        qm.parent.mkdir(parents=True, exist_ok=True)
        cmd = [_tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)]
        subprocess.run(cmd, check=True, capture_output=True)
        written.append(qm)
    return written


_SOURCE = re.compile(r"<context>\s*<name>(.*?)</name>|<source>(.*?)</source>", re.S)


def entries(ts_text: str) -> set[tuple[str, str]]:
    """(context, source text) of every message of a ``.ts`` file's text."""
    found: set[tuple[str, str]] = set()
    context = ""
    for match in _SOURCE.finditer(ts_text):
        if match.group(1) is not None:
            context = match.group(1)
        else:
            found.add((context, match.group(2)))
    return found


def stale() -> set[tuple[str, str]]:
    """(context, text) pairs of the sources that the first catalogue lacks."""
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "fresh.ts"
        update([fresh])
        wanted = entries(fresh.read_text(encoding="utf-8"))
    have: set[tuple[str, str]] = set()
    for ts in catalogues():
        have |= entries(ts.read_text(encoding="utf-8"))
    return wanted - have


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["update", "compile", "stale"])
    parser.add_argument("--out", type=Path, help="folder for the .qm files (compile)")
    options = parser.parse_args(argv)
    if options.action == "update":
        update(catalogues())
    elif options.action == "compile":
        for qm in compile_all(options.out):
            print(qm)
    else:
        missing = sorted(stale())
        for context, text in missing:
            print(f"{context}: {text}")
        return 1 if missing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
