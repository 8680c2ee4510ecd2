"""The e2e tests' X display: a fresh Xvfb for each test, on a display number Xvfb picks itself.

Xvfb ``-displayfd`` chooses a free number and writes it once it accepts connections. Two Xvfb
starting at the same moment can still both take the first free number (its lock file is seen
half-written and taken for stale; seen twice, as "could not connect to display :0", when two
test runs shared the machine), so each start holds a file lock until its number is known.
"""

from __future__ import annotations

import fcntl
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def _read_line(fd: int, seconds: float) -> str:
    """The first line written to ``fd`` within ``seconds`` ("" if none). Xvfb writes the number
    and the newline separately, and dies if the pipe is closed between the two."""
    deadline = time.monotonic() + seconds
    data = b""
    while b"\n" not in data:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        chunk = os.read(fd, 16) if ready else b""
        if not chunk:
            return ""
        data += chunk
    return data.decode().strip()


@pytest.fixture
def display() -> Iterator[str]:
    """The name (":N") of a running Xvfb, stopped after the test."""
    if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
        pytest.fail("Xvfb and xdotool are required for the e2e test")
    read, write = os.pipe()
    with (Path(tempfile.gettempdir()) / "agentdesk-test-xvfb.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one Xvfb chooses its number at a time
        xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x860x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write,),
        )  # fmt: skip
        os.close(write)
        try:
            number = _read_line(read, 10)
        finally:
            os.close(read)
    if not number.isdigit():
        xvfb.kill()
        xvfb.wait(10)
        pytest.fail("Xvfb did not start")
    yield f":{number}"
    xvfb.terminate()
    xvfb.wait(10)
