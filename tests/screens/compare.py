"""Compare a rendered screenshot with its stored image, within a tolerance; store images small.

Two images match when they have the same size and at most ``MAX_FRACTION`` of their pixels
differ by more than ``CHANNEL_DELTA`` in some colour channel: font rasterisers of different
FreeType versions move antialiasing by a few levels, while a real change (a colour, a margin, a
missing word) moves whole runs of pixels by much more. A mismatch writes the actual image and a
diff image (differing pixels red over a faded copy of the expected one) for a person to look at.

Stored images are PNGs reduced to a 256-colour palette (flat UI colours survive it; the
quantisation error is far inside ``CHANNEL_DELTA``), which keeps the whole set to a few MB.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops

#: A pixel differs when one of its channels moved by more than this (0–255).
CHANNEL_DELTA = 48
#: Images match when at most this fraction of their pixels differ.
MAX_FRACTION = 0.001


@dataclass(frozen=True)
class Mismatch:
    """Why an image does not match its stored one, and where to look."""

    name: str
    reason: str
    actual: Path
    diff: Path | None

    def __str__(self) -> str:
        where = f"actual {self.actual}" + (f", diff {self.diff}" if self.diff else "")
        return f"{self.name}: {self.reason} ({where})"


def differing_mask(actual: Image.Image, expected: Image.Image) -> Image.Image:
    """A one-channel image: 255 where a channel moved by more than ``CHANNEL_DELTA``."""
    red, green, blue = ImageChops.difference(actual, expected).split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return largest.point(lambda value: 255 if value > CHANNEL_DELTA else 0)


def compare(actual_path: Path, expected_path: Path, report_dir: Path) -> Mismatch | None:
    """None when ``actual_path`` matches ``expected_path``; else the mismatch, with the actual
    and diff images copied into ``report_dir``."""
    name = actual_path.name
    kept = report_dir / name
    if not expected_path.exists():
        report_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(actual_path, kept)
        return Mismatch(name, "no stored image (python -m tests.screens.update)", kept, None)
    with Image.open(actual_path) as a, Image.open(expected_path) as e:
        actual, expected = a.convert("RGB"), e.convert("RGB")
    if actual.size != expected.size:
        report_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(actual_path, kept)
        return Mismatch(name, f"size {actual.size}, stored {expected.size}", kept, None)
    mask = differing_mask(actual, expected)
    differing = mask.histogram()[255]
    fraction = differing / (actual.width * actual.height)
    if fraction <= MAX_FRACTION:
        return None
    report_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(actual_path, kept)
    diff_path = report_dir / name.replace(".png", "-diff.png")
    faded = Image.blend(expected, Image.new("RGB", expected.size, "white"), 0.7)
    faded.paste(Image.new("RGB", expected.size, (230, 0, 0)), mask=mask)
    faded.save(diff_path)
    reason = f"{differing} pixels ({fraction:.2%}) differ, at most {MAX_FRACTION:.2%} may"
    return Mismatch(name, reason, kept, diff_path)


def store(rendered: Path, stored: Path) -> None:
    """Keep ``rendered`` as ``stored``: a 256-colour palette PNG, optimised."""
    with Image.open(rendered) as image:
        palette = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    stored.parent.mkdir(parents=True, exist_ok=True)
    palette.save(stored, optimize=True)
