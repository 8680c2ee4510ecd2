"""Render the screenshot states again and keep them as the stored images.

``python -m tests.screens.update`` (all themes and scales) or
``python -m tests.screens.update --theme dark --scale 2``. Look at every image it writes under
``tests/screens/expected/`` before committing them; ``--docs`` also copies the main window in
light and dark (the decided card, 100 %) to ``docs/window-light.png`` / ``docs/window-dark.png``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tests.screens.compare import store
from tests.screens.render import ROOT, SCALES, THEMES, name, render

EXPECTED = Path(__file__).resolve().parent / "expected"
#: The state shown in the README, per theme.
DOCS_STATE = "decided"


def main(argv: list[str] | None = None) -> int:
    """Render and store (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--theme", choices=THEMES, action="append")
    parser.add_argument("--scale", type=int, choices=SCALES, action="append")
    parser.add_argument("--docs", action="store_true", help="also update docs/window-*.png")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="agentdesk-screens-") as tmp:
        for theme in args.theme or THEMES:
            for scale in args.scale or SCALES:
                for rendered in render(Path(tmp), theme, scale):
                    store(rendered, EXPECTED / rendered.name)
                    print(EXPECTED / rendered.name)
    if args.docs:
        for theme in THEMES:
            target = ROOT / "docs" / f"window-{theme}.png"
            target.write_bytes((EXPECTED / name(DOCS_STATE, theme, 1)).read_bytes())
            print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
