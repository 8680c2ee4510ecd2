"""``packaging/build.py`` stops with one clear line and an exit code, never a traceback.

Each command runs as a subprocess, as a person or CI would type it, on this (Linux) machine:
targets of another OS, missing inputs and missing artifacts.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import guards
import pytest
from bundle_config import ROOT

BUILD = ROOT / "packaging" / "build.py"


def _build(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BUILD), "--build-dir", str(tmp_path / "build"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["windows"], guards.EXIT_WRONG_OS, "runs only on Windows"),
        (["smoke", "windows"], guards.EXIT_WRONG_OS, "runs only on Windows"),
        (["smoke", "dmg"], guards.EXIT_WRONG_OS, "runs only on macOS"),
        (["dmg"], guards.EXIT_WRONG_OS, "runs only on macOS"),
        (["macos-keychain"], guards.EXIT_WRONG_OS, "runs only on macOS"),
        (["sign", "windows-installer"], guards.EXIT_WRONG_OS, "runs only on Windows"),
        (["appimage", "--runtime", "/missing"], guards.EXIT_MISSING, "/missing does not exist"),
        (["deb"], guards.EXIT_MISSING, "run build.py freeze"),
        (["appdir"], guards.EXIT_MISSING, "run build.py freeze"),
        (["smoke", "appimage"], guards.EXIT_MISSING, "build it first (build.py appimage)"),
        (["smoke", "deb"], guards.EXIT_MISSING, "build it first (build.py deb)"),
        (["smoke", "onedir"], guards.EXIT_MISSING, "does not exist: the onedir"),
        (["smoke", "onedir", "/no/such/agentdesk"], guards.EXIT_MISSING, "does not exist"),
    ],
)
def test_a_step_that_cannot_run_here_says_why(
    tmp_path: Path, args: list[str], code: int, words: str
) -> None:
    result = _build(tmp_path, *args)
    assert result.returncode == code, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert words in lines[0]


def test_windows_check_still_compiles_the_installer_script_here(tmp_path: Path) -> None:
    """The guard leaves ``windows --check`` (a stand-in payload) to every OS, and the stand-in
    is never listed as an artifact."""
    result = _build(tmp_path, "windows", "--check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert next((tmp_path / "build" / "nsis-check").glob("AgentDesk-*-setup.exe"))
    sizes = _build(tmp_path, "sizes")
    assert sizes.returncode == 0 and "setup.exe" not in sizes.stdout


def test_sizes_lists_only_artifacts_of_this_os(tmp_path: Path) -> None:
    build = tmp_path / "build"
    build.mkdir()
    (build / "AgentDesk-0.1.0-setup.exe").write_bytes(b"MZ wraps a Linux ELF")
    (build / "AgentDesk-0.1.0-macos-arm64.dmg").write_bytes(b"stale")
    (build / "AgentDesk-0.1.0-x86_64.AppImage").write_bytes(b"\x7fELF")
    result = _build(tmp_path, "sizes")
    assert result.returncode == 0, result.stderr
    assert "AppImage" in result.stdout
    assert "setup.exe" not in result.stdout and ".dmg" not in result.stdout


def test_a_failing_tool_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    result = _build(tmp_path, "checksums", str(tmp_path / "empty"))
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "is not a folder of artifacts" in result.stderr
    ok = _build(tmp_path, "check-version", "--tag", "v0.0.0-not-it")
    assert ok.returncode == 1 and "so the tag must be" in ok.stderr
