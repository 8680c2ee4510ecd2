"""Smoke-test an installed or unpacked Agent Desk: the same checks on every artifact and OS.

``check(command)`` runs, against the fake LLM server of the test suite (127.0.0.1 only):

1. ``agentdesk --version`` prints ``agentdesk VERSION``;
2. ``agentdesk --smoke-test``: the window is painted, a conversation with the bundled built-in
   agent completes, the keyring backend is printed, exit status 0;
3. ``agentdesk exec -p ...``: the same conversation headless, the model's reply on stdout;
4. the fake server saw the built-in agent's requests carrying the dummy key (so the reply really
   went through the bundle's own agent, not some other Python on the machine).

Unexpected stderr fails the check; known-harmless lines are listed in ``HARMLESS_STDERR``, each
with its cause.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bundle_config import ROOT, version

REPLY = "Smoke reply from the fake model."
DUMMY_KEY = "sk-ant-smoke-dummy-key"
HARMLESS_STDERR = [
    # Qt's offscreen platform plugin cannot propagate size hints or raise windows, and says so.
    r"This plugin does not support propagateSizeHints\(\)",
    r"This plugin does not support raise\(\)",
    # Our own warning when no Secret Service runs (CI without dbus/gnome-keyring): expected.
    r"WARNING desktop\.core\.secrets: No secure system keyring is available",
    # dbus-daemon in containers cannot raise its fd limit (CI runs under dbus-run-session).
    r"dbus-daemon\[\d+\]: .*Failed to set fd limit",
    # `agentdesk exec` reports progress on stderr ("· agent ready", "› prompt", "· turn ...").
    r"^[·›] ",
    # Mesa/EGL under Xvfb without a GPU falls back to software rendering and mentions it.
    r"^(MESA|libEGL|glx): ",
]
TIMEOUT = 180


class SmokeFailure(Exception):
    """An artifact failed its smoke test."""


def _unexpected(stderr: str) -> list[str]:
    lines = [line for line in stderr.splitlines() if line.strip()]
    return [line for line in lines if not any(re.search(p, line) for p in HARMLESS_STDERR)]


def _run(
    command: list[str], args: list[str], env: dict[str, str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    print("+", " ".join([*command, *args]), flush=True)
    try:
        result = subprocess.run(
            [*command, *args],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as exc:
        raise SmokeFailure(f"{args[:2]} did not finish within {TIMEOUT} s") from exc
    sys.stdout.write(result.stdout)
    sys.stdout.write(result.stderr)
    if result.returncode != 0:
        raise SmokeFailure(f"{args[:2]} exited {result.returncode}")
    extra = _unexpected(result.stderr)
    if extra:
        raise SmokeFailure(f"{args[:2]} wrote unexpected stderr: {extra[:5]}")
    return result


def check(command: list[str], *, display: str = "offscreen") -> str:
    """Smoke-test ``command`` (the executable, plus wrapper arguments); returns the output.

    Args:
        command: e.g. ``["/opt/agentdesk/agentdesk"]`` or ``["./AgentDesk.AppImage"]``.
        display: ``offscreen`` (Qt's offscreen platform) or ``native`` (the caller set up a
            display, e.g. ``xvfb-run``, a Windows or macOS desktop session).
    """
    sys.path.insert(0, str(ROOT))
    from tests.fakes.fake_llm import FakeLLM

    out: list[str] = []
    with tempfile.TemporaryDirectory(prefix="agentdesk-smoke-") as tmp, FakeLLM() as llm:
        llm.add(*({"text": REPLY} for _ in range(4)))
        home, workspace = Path(tmp) / "home", Path(tmp) / "workspace"
        workspace.mkdir()
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.endswith(("_API_KEY", "_BASE_URL")) and not k.startswith("PYTHON")
        }
        env.update(
            AGENTDESK_HOME=str(home),
            ANTHROPIC_BASE_URL=llm.url,
            ANTHROPIC_API_KEY=DUMMY_KEY,
            APPIMAGE_EXTRACT_AND_RUN="1",  # CI runners have no FUSE (ignored by others)
            AGENTDESK_UPDATE_FEED="http://127.0.0.1:9/releases/latest",  # refused: no request out
        )
        if display == "offscreen":
            env["QT_QPA_PLATFORM"] = "offscreen"
        first = _run(command, ["--version"], env, workspace).stdout.strip()
        if first != f"agentdesk {version()}":
            raise SmokeFailure(f"--version printed {first!r}, expected agentdesk {version()}")
        out.append(first)
        smoke = _run(command, ["--smoke-test"], env, workspace).stdout
        for needle in ("window: painted", "conversation: ok", "keyring: ", "smoke test passed"):
            if needle not in smoke:
                raise SmokeFailure(f"--smoke-test output lacks {needle!r}")
        out.append(smoke)
        args = ["exec", "--workspace", str(workspace), "--no-history", "-p", "Say something."]
        headless = _run(command, args, env, workspace).stdout
        if REPLY not in headless:
            raise SmokeFailure(f"exec did not print the model's reply: {headless[-300:]!r}")
        out.append(headless)
        keys = {
            r.headers.get("x-api-key") or r.headers.get("authorization", "").removeprefix("Bearer ")
            for r in llm.model_requests
        }
        if len(llm.model_requests) < 2 or keys != {DUMMY_KEY}:
            seen = [sorted(r.headers) for r in llm.model_requests]
            raise SmokeFailure(f"the fake model saw {len(llm.model_requests)} requests: {seen}")
    print("smoke: all checks passed", flush=True)
    return "\n".join(out)
