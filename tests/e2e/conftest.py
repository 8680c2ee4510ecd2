"""The e2e tests' X display: a fresh Xvfb on a free display number for each test."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def _free_display() -> int:
    for number in range(90, 300):
        if (
            not Path(f"/tmp/.X11-unix/X{number}").exists()
            and not Path(f"/tmp/.X{number}-lock").exists()
        ):
            return number
    raise RuntimeError("no free X display number")


@pytest.fixture
def display() -> Iterator[str]:
    """The name (":N") of a running Xvfb, stopped after the test."""
    if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
        pytest.fail("Xvfb and xdotool are required for the e2e test")
    name = f":{_free_display()}"
    xvfb = subprocess.Popen(["Xvfb", name, "-screen", "0", "1280x860x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{name[1:]}").exists():
        if time.monotonic() > deadline:
            xvfb.kill()
            pytest.fail("Xvfb did not start")
        time.sleep(0.05)
    yield name
    xvfb.terminate()
    xvfb.wait(10)
