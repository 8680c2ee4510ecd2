"""grpc (16 MB in the bundle) and cryptography (11 MB) load only when a remote runtime needs them.

The window's start path and a whole conversation, and ``agentdesk exec``, run as real processes
with ``python -X importtime``, which lists every module the process imported; neither lists the
remote runtime's libraries (nor protobuf, nor the update check's HTTP client). The remote
backend itself is the one place that imports grpc.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from bundle_config import ROOT

FAKE_AGENT = ROOT / "tests" / "fakes" / "fake_aionrs.py"
HEAVY = ("grpc", "cryptography", "google.protobuf", "httpx2")


def _imported(argv: list[str], tmp_path: Path) -> set[str]:
    env = {**os.environ, "AGENTDESK_HOME": str(tmp_path / "home"), "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    modules = re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", result.stderr, re.MULTILINE)
    assert len(modules) > 200, "importtime printed nothing: the check would pass vacuously"
    return set(modules)


def _agent_cmd() -> str:
    return shlex.join([sys.executable, str(FAKE_AGENT), "--json-stream"])


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_the_window_and_a_conversation_load_no_remote_runtime_library(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    drive = str(ROOT / "tests" / "ui" / "drive_app.py")
    modules = _imported([drive, str(workspace), _agent_cmd(), "hello"], tmp_path)
    assert "desktop.ui.window" in modules and "desktop.core.session" in modules
    assert _heavy(modules) == []


def test_exec_loads_no_remote_runtime_library(tmp_path: Path) -> None:
    modules = _imported(
        ["-m", "desktop", "exec", "--agent-cmd", _agent_cmd(), "-p", "hi"], tmp_path
    )
    assert "desktop.core.session" in modules
    assert _heavy(modules) == []


def test_only_the_remote_backend_imports_grpc() -> None:
    importers = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "desktop").rglob("*.py")
        if "generated" not in path.parts
        and re.search(r"^\s*(import grpc|from grpc)", path.read_text(), re.MULTILINE)
    )
    assert importers == ["desktop/core/remote/backend.py", "desktop/core/remote/channel.py"]
    factory = (ROOT / "desktop" / "core" / "launch" / "factory.py").read_text()
    assert "from desktop.core.remote.backend import" in factory  # inside the remote factory
    assert not re.search(r"^(from|import) desktop\.core\.remote\.backend", factory, re.MULTILINE)
