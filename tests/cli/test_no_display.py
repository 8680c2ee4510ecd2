"""`agentdesk` without a display: one line on stderr and exit 2, never Qt's abort (status 134).

Real ``agentdesk`` processes with the display variables removed or pointing at a display
number nothing listens on; plus ``display_problem`` against a real listening socket.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from desktop.cli.display import display_problem

ADVICE = "run it in a desktop session, or use `agentdesk exec` for headless use"


def _run(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    environ.update(env, AGENTDESK_HOME=str(tmp_path / "home"))
    return subprocess.run(
        [sys.executable, "-m", "desktop", str(tmp_path), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=environ,
        check=False,
    )


def _free_display() -> str:
    """An X display number with no server (no socket file, nothing on the abstract name)."""
    for number in range(59, 200):
        if not Path(f"/tmp/.X11-unix/X{number}").exists():
            return f":{number}"
    raise AssertionError("no free display number")


@pytest.mark.parametrize("extra", [(), ("--smoke-test",), ("--smoke-test", "window")])
def test_no_display_variables(tmp_path: Path, extra: tuple[str, ...]) -> None:
    result = _run(tmp_path, *extra)
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"agentdesk: no display found; {ADVICE}\n"
    assert result.stdout == ""


def test_display_nobody_listens_on(tmp_path: Path) -> None:
    display = _free_display()
    result = _run(tmp_path, DISPLAY=display)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("agentdesk: no display found (cannot connect to ")
    assert display in lines[0] and "Reinstalling" not in result.stderr


def test_dead_wayland_and_x_displays(tmp_path: Path) -> None:
    result = _run(
        tmp_path, DISPLAY=_free_display(), WAYLAND_DISPLAY="nothing-here", XDG_RUNTIME_DIR="/tmp"
    )
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1


def test_platforms_without_a_display_server_are_fine() -> None:
    for platform in ("offscreen", "minimal", "vnc", "xcb;offscreen"):
        assert display_problem({"QT_QPA_PLATFORM": platform}, "linux") is None
    assert display_problem({}, "win32") is None
    assert display_problem({}, "darwin") is None
    assert display_problem({"QT_QPA_PLATFORM": "xcb"}, "linux") is not None


def test_a_listening_wayland_socket_is_a_display(tmp_path: Path) -> None:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(tmp_path / "wayland-1"))
    server.listen(1)
    try:
        env = {"WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": str(tmp_path)}
        assert display_problem(env, "linux") is None
        # With a dead X display beside it, Qt is pointed at the one that answers.
        env["DISPLAY"] = _free_display()
        assert display_problem(env, "linux") is None
        assert env["QT_QPA_PLATFORM"] == "wayland"
        # Asked for X only, the live Wayland socket does not help.
        only_x = {**env, "QT_QPA_PLATFORM": "xcb"}
        assert display_problem(only_x, "linux") is not None
    finally:
        server.close()
