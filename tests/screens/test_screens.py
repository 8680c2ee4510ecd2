"""Screenshot tests (issue 16's proof): the main states of the window, in light and dark, at
100 % and 200 %, compared with the stored images in ``tests/screens/expected/``.

Each theme and scale renders in a process of its own (``tests.screens.render``), through the
real window with the scripted fake agent. On a mismatch the actual image and a diff image are
written to ``test-output/screens/`` (named in the failure). After an intended change of the
window, ``python -m tests.screens.update`` renders the stored images again: look at them before
committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.screens.compare import compare
from tests.screens.render import ROOT, SCALES, STATES, THEMES, name, render
from tests.screens.update import EXPECTED

REPORT = ROOT / "test-output" / "screens"


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("theme", THEMES)
def test_main_states_look_as_stored(theme: str, scale: int, tmp_path: Path) -> None:
    rendered = render(tmp_path, theme, scale)
    assert [p.name for p in rendered] == [name(state, theme, scale) for state in STATES]
    mismatches = [compare(p, EXPECTED / p.name, REPORT) for p in rendered]
    problems = [str(m) for m in mismatches if m is not None]
    assert not problems, "screenshots differ from tests/screens/expected:\n" + "\n".join(problems)


def test_a_changed_window_is_caught(tmp_path: Path) -> None:
    """The comparison fails for a visible change and passes for rasteriser-sized noise."""
    from PIL import Image, ImageDraw

    stored = EXPECTED / name("empty", "light", 1)
    with Image.open(stored) as image:
        base = image.convert("RGB")
    noisy = base.point(lambda v: min(255, v + 20))  # every pixel a little lighter
    noisy.save(tmp_path / "noisy.png")
    assert compare(tmp_path / "noisy.png", stored, tmp_path / "report") is None
    changed = base.copy()
    ImageDraw.Draw(changed).rectangle(
        (500, 300, 620, 316), fill=(200, 40, 40)
    )  # a word-sized change
    changed.save(tmp_path / "changed.png")
    mismatch = compare(tmp_path / "changed.png", stored, tmp_path / "report")
    assert mismatch is not None and mismatch.diff is not None and mismatch.diff.exists()
    assert "differ" in mismatch.reason
