"""What the MCP tests share: the echo server's command line."""

from __future__ import annotations

import sys
from pathlib import Path

ECHO_SERVER = Path(__file__).resolve().parents[1] / "fakes" / "mcp_echo_server.py"


def echo_command(*extra: str) -> list[str]:
    """``python tests/fakes/mcp_echo_server.py EXTRA...``."""
    return [sys.executable, str(ECHO_SERVER), *extra]
