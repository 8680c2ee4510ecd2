"""Translation catalogues of the window: update them from the sources, compile them, check them.

``update``: ``pyside6-lupdate`` reads every ``.py`` under ``desktop/ui``, and the modules of the
Qt-free core that mark sentences for the window (``desktop.core.texts.QT_TRANSLATE_NOOP``), and
refreshes each ``desktop/ui/i18n/agentdesk_<lang>.ts`` (new strings arrive unfinished; strings
gone from the sources are dropped). ``compile``: ``pyside6-lrelease`` turns each ``.ts`` into
the ``.qm`` that ``desktop.ui.i18n.install`` loads (``--out`` for another folder). The ``.qm``
files are build output: ``packaging/dev_install.sh`` and the PyInstaller spec run ``compile``.
``stale``: prints the source texts of those sources missing from a catalogue (exit 1 if any).
``update`` first writes ``desktop/ui/i18n/settings_texts.py``, the marker list of the texts the
Settings dialog shows from the (Qt-free, English) settings models.

Usage: ``python packaging/translations.py update|compile [--out DIR]|stale``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "desktop" / "ui"
CATALOGUES = SOURCES / "i18n"
#: The Qt-free core: only its modules that mark sentences (``CORE_MARKER``) are read.
CORE = ROOT / "desktop" / "core"
CORE_MARKER = "from desktop.core.texts import QT_TRANSLATE_NOOP"


def _tool(name: str) -> str:
    """The PySide6 tool ``name`` beside this interpreter (a venv's bin folder), else on PATH."""
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else name


def core_sources() -> list[Path]:
    """The core's modules that mark sentences for the window to translate."""
    return [p for p in sorted(CORE.rglob("*.py")) if CORE_MARKER in p.read_text(encoding="utf-8")]


def sources() -> list[str]:
    """Every Python file of the window and the core's marking modules, relative to the
    repository (stable ``.ts`` locations)."""
    found = [*SOURCES.rglob("*.py"), *core_sources()]
    return sorted(str(p.relative_to(ROOT)) for p in found)


def catalogues() -> list[Path]:
    """The ``.ts`` catalogues, one per language."""
    return sorted(CATALOGUES.glob("agentdesk_*.ts"))


#: The generated marker list of the texts the Settings dialog shows from the settings models.
MODEL_TEXTS = CATALOGUES / "settings_texts.py"
_MODEL_TEXTS_HEAD = '''"""Texts of the settings models shown by Settings, for lupdate (generated).

The models (``desktop.core.settings.models``) stay Qt-free and English; the dialog translates
their field titles, descriptions and agent kinds' summaries where it shows them (context
"Settings"). ``python packaging/translations.py update`` writes this file, so ``lupdate``
finds those texts; ``tests/ui_widgets/test_i18n.py`` checks it is current. Never imported.
"""

from desktop.ui.i18n import QT_TRANSLATE_NOOP

TEXTS = (
'''


def model_texts() -> list[str]:
    """Every title, description and kind summary of the settings model tree, in order."""
    import typing

    from pydantic import BaseModel

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))

    from desktop.core.settings import Settings
    from desktop.ui.settings.forms import humanize

    found: list[str] = []
    seen: set[type] = set()

    def models_in(annotation: object) -> list[type[BaseModel]]:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return [annotation]
        return [m for arg in typing.get_args(annotation) for m in models_in(arg)]

    def walk(model: type[BaseModel]) -> None:
        if model in seen:
            return
        seen.add(model)
        summary = (model.__doc__ or "").strip().splitlines()
        if summary and model is not Settings:
            found.append(summary[0])
        for name, info in model.model_fields.items():
            found.append(info.title or humanize(name))
            if info.description:
                found.append(info.description)
            for inner in models_in(info.annotation):
                walk(inner)

    walk(Settings)
    return list(dict.fromkeys(found))


def model_texts_source() -> str:
    """The text of ``MODEL_TEXTS`` for the models as they are now."""
    lines = []
    for text in model_texts():
        quoted = json.dumps(text, ensure_ascii=False)
        line = f'    QT_TRANSLATE_NOOP("Settings", {quoted}),\n'
        if len(line) > 101:  # as ruff format lays it out; a long text keeps its line
            long = "  # noqa: E501" if len(quoted) > 90 else ""
            line = f'    QT_TRANSLATE_NOOP(\n        "Settings",\n        {quoted},{long}\n    ),\n'
        lines.append(line)
    return _MODEL_TEXTS_HEAD + "".join(lines) + ")\n"


def update(targets: list[Path]) -> None:
    """Write the settings models' texts (``MODEL_TEXTS``), then refresh ``targets``."""
    MODEL_TEXTS.write_text(model_texts_source(), encoding="utf-8")
    lupdate(targets)


def lupdate(targets: list[Path]) -> None:
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
        lupdate([fresh])
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
