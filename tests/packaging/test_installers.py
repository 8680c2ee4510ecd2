"""The frozen app and its Linux packages really start and converse (Linux only).

Each smoke test runs the real artifact as a user would, against the fake LLM server: the window
is painted, a conversation with the bundled built-in agent completes, ``exec`` does the same
headless, ``--version`` prints the version (see ``packaging/smoke_run.py``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import smoke_run
from bundle_config import version

from tests.packaging.conftest import Built

pytestmark = pytest.mark.timeout(1800)  # the first test builds (cached by source hash)


def test_onedir_under_xvfb_paints_converses_and_exits_zero(built: Built) -> None:
    assert shutil.which("xvfb-run"), "xvfb-run is needed (apt: xvfb)"
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    script = (
        "import sys; sys.path.insert(0, 'packaging'); import smoke_run; "
        f"print(smoke_run.check([{str(built.executable)!r}], display='native'))"
    )
    result = subprocess.run(
        ["xvfb-run", "-a", sys.executable, "-c", script],
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "(xcb)" in result.stdout  # a real X11 window, not the offscreen plugin
    assert "smoke: all checks passed" in result.stdout


def test_deb_unpacked_into_a_temporary_root_passes_the_smoke_test(
    built: Built, tmp_path: Path
) -> None:
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", str(built.deb), str(root)], check=True)
    launcher = root / "usr" / "bin" / "agentdesk"
    assert launcher.is_symlink() and os.readlink(launcher) == "/opt/agentdesk/agentdesk"
    assert (root / "opt" / "agentdesk" / "agentdesk").stat().st_mode & 0o111
    share = root / "usr" / "share"
    assert (share / "applications" / "io.github.agentdesk.AgentDesk.desktop").is_file()
    assert (share / "metainfo" / "io.github.agentdesk.AgentDesk.metainfo.xml").is_file()
    for size in (16, 32, 48, 128, 256, 512):
        assert (share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "agentdesk.png").is_file()
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / "agentdesk.svg").is_file()
    output = smoke_run.check([str(root / "opt" / "agentdesk" / "agentdesk")])
    assert f"agentdesk {version()}" in output
    assert "conversation: ok" in output
    assert re.search(r"keyring: keyring\.backends\.\S+ \((secure|NOT secure)\)", output)


def test_appdir_apprun_passes_the_smoke_test(built: Built) -> None:
    apprun = built.appdir / "AppRun"
    assert apprun.stat().st_mode & 0o111
    assert (built.appdir / "io.github.agentdesk.AgentDesk.desktop").is_file()
    assert os.readlink(built.appdir / ".DirIcon") == "agentdesk.png"
    output = smoke_run.check([str(apprun)])
    assert "smoke test passed" in output


def test_bundled_agent_speaks_the_json_stream_protocol(built: Built, tmp_path: Path) -> None:
    """``agentdesk agent --json-stream`` is what the app starts as its built-in agent."""
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_BASE_URL"))}
    env.update(ANTHROPIC_API_KEY="dummy", ANTHROPIC_BASE_URL="http://127.0.0.1:9")
    result = subprocess.run(
        [str(built.executable), "agent", "--json-stream"],
        input="",
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    first = result.stdout.splitlines()[0]
    assert '"type":"ready"' in first.replace(" ", ""), result.stdout + result.stderr
    assert result.returncode == 0, result.stderr


def test_bundle_leaves_out_unused_qt_and_host_toolkits(built: Built) -> None:
    names = {p.name for p in built.onedir.rglob("*")}
    for unwanted in ("libQt6Qml.so.6", "libQt6Quick.so.6", "libQt6Pdf.so.6", "libgtk-3.so.0"):
        assert unwanted not in names
    for needed in ("libqxcb.so", "libqwayland.so", "libqoffscreen.so", "libQt6Network.so.6"):
        assert needed in names
    files = [p for p in built.onedir.rglob("*") if p.is_file() and not p.is_symlink()]
    size_mb = sum(p.stat().st_size for p in files) / 2**20  # a symlinked library counts once
    assert size_mb < 758 / 3, f"the onedir is {size_mb:.0f} MB"


def test_no_library_search_path_points_outside_the_bundle(built: Built) -> None:
    files = [p for p in built.onedir.rglob("*.so*") if p.is_file()]
    report = subprocess.run(
        ["objdump", "-p", *map(str, files)], capture_output=True, text=True, check=False
    ).stdout
    paths = re.findall(r"^\s+(?:RUNPATH|RPATH)\s+(\S+)", report, re.MULTILINE)
    outside = {p for entry in paths for p in entry.split(":") if not p.startswith("$ORIGIN")}
    assert outside == set()
