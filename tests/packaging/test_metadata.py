"""Package metadata: lintian, desktop entry, AppStream, Depends, icons, NSIS script, routing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import linux_packages
import pytest
from bundle_config import APP_ID, DEB_BASE_DEPENDS, ROOT, version
from PySide6.QtGui import QImage

from tests.packaging.conftest import Built

pytestmark = pytest.mark.timeout(1800)  # may be the first to build (cached by source hash)
RESOURCES = ROOT / "resources"


def _field(deb: Path, name: str) -> str:
    return subprocess.run(
        ["dpkg-deb", "-f", str(deb), name], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_lintian_finds_no_errors(built: Built) -> None:
    result = subprocess.run(
        ["lintian", "--fail-on", "error", str(built.deb)], capture_output=True, text=True
    )
    errors = [line for line in result.stdout.splitlines() if line.startswith("E:")]
    assert errors == [] and result.returncode == 0, result.stdout + result.stderr


def test_depends_cover_qt_xcb_and_every_external_library(built: Built) -> None:
    depends = [d.strip() for d in _field(built.deb, "Depends").split(",")]
    names = {d.split(" ")[0] for d in depends}
    assert {"libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxkbcommon-x11-0"} <= names
    assert set(DEB_BASE_DEPENDS) <= names
    assert re.fullmatch(r"libc6 \(>= 2\.\d+\)", depends[0])
    packages, missing, _glibc = linux_packages.system_libraries(built.onedir)
    assert missing == [], f"libraries the bundle needs but no package provides: {missing}"
    assert set(packages.values()) - {"libc6"} <= names
    assert _field(built.deb, "Recommends") == "gnome-keyring | kwalletmanager"
    assert _field(built.deb, "Version") == version()


def test_desktop_entry_and_appstream_metainfo_validate() -> None:
    desktop = RESOURCES / "linux" / f"{APP_ID}.desktop"
    metainfo = RESOURCES / "linux" / f"{APP_ID}.metainfo.xml"
    subprocess.run(["desktop-file-validate", str(desktop)], check=True)
    result = subprocess.run(
        ["appstreamcli", "validate", "--no-net", str(metainfo)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f'<release version="{version()}"' in metainfo.read_text()
    assert "Icon=agentdesk\n" in desktop.read_text()


def test_icons_have_every_size_each_platform_needs() -> None:
    icons = RESOURCES / "icons"
    for size in linux_packages.ICON_SIZES:
        image = QImage(str(icons / f"agentdesk-{size}.png"))
        assert (image.width(), image.height()) == (size, size)
        assert image.pixelColor(size // 2, size // 10).alpha() == 255  # drawn, not blank
    ico = (icons / "agentdesk.ico").read_bytes()
    assert ico[:4] == b"\x00\x00\x01\x00" and int.from_bytes(ico[4:6], "little") >= 6
    assert (icons / "agentdesk.icns").read_bytes()[:4] == b"icns"


def test_windows_installer_script_compiles(tmp_path: Path) -> None:
    """makensis (Debian's nsis) compiles the per-user installer against a stand-in payload."""
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "packaging" / "build.py"),
            "--build-dir",
            str(tmp_path),
            "windows",
            "--check",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    installer = next((tmp_path / "nsis-check").glob("AgentDesk-*-setup.exe"))
    assert installer.read_bytes()[:2] == b"MZ"
    script = (ROOT / "packaging" / "windows" / "agentdesk.nsi").read_text()
    assert "RequestExecutionLevel user" in script and "$LOCALAPPDATA\\Programs" in script
    assert "WriteUninstaller" in script and "$SMPROGRAMS" in script


def test_agent_subcommand_runs_the_builtin_agent_from_source(tmp_path: Path) -> None:
    """``agentdesk agent`` (what a frozen app starts as its agent) works unfrozen too."""
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}
    env["ANTHROPIC_API_KEY"] = "dummy"
    result = subprocess.run(
        [sys.executable, "-m", "desktop", "agent", "--json-stream"],
        input="",
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('{"type":"ready"')
    bad = subprocess.run(
        [sys.executable, "-m", "desktop", "agent", "--no-such-flag"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "config_error" in bad.stdout
