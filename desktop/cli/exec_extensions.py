"""Extensions for ``agentdesk exec``: loaded the same way as in the window.

``--enable-extension NAME`` switches on a built-in extension (repeatable); ``--no-extensions``
skips loading. Extension handlers see each tool request before ``--on-request`` or the terminal
prompt decide it, and posts of extensions into the conversation are printed to stderr. The
built-in ``shell_deny_list`` also screens every shell request before the mode and the rules.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.core.extensions.locations import search_roots
from desktop.core.paths import app_paths

DENY_LIST = "shell_deny_list"

if TYPE_CHECKING:
    from desktop.core.extensions.bridge import SessionBridge
    from desktop.core.extensions.executor import TranscriptEntry
    from desktop.core.extensions.runtime import ExtensionRuntime
    from desktop.core.session import Session, Subscriber


def _enabled_builtins(options: argparse.Namespace) -> list[str]:
    """Built-ins switched on in Settings (as the window loads them) plus ``--enable-extension``."""
    from desktop.core.settings import SettingsStore

    enabled = list(SettingsStore().settings.extensions.enabled_builtins)
    return enabled + [n for n in getattr(options, "enable_extensions", []) if n not in enabled]


def _nothing_to_load(enabled: list[str], workspace: Path) -> bool:
    """True when no extension could load, so the runtime is not even imported (it costs about
    0.2 s of start-up, which every headless run would pay otherwise)."""
    if enabled:
        return False
    roots = search_roots(app_paths().config, workspace)
    return not any(root.is_dir() and any(root.iterdir()) for root in roots)


def add_extension_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``--enable-extension`` and ``--no-extensions``."""
    parser.add_argument(
        "--enable-extension",
        action="append",
        default=[],
        metavar="NAME",
        dest="enable_extensions",
        help="switch on a built-in extension (read_only_auto_approve, shell_deny_list, "
        "file_change_review); repeatable",
    )
    parser.add_argument("--no-extensions", action="store_true", help="do not load any extension")


def _print_entry(session_id: str, entry: TranscriptEntry, module: str) -> None:
    del session_id
    sys.stderr.write(f"[extension {module}] {entry.content.rstrip()}\n")
    sys.stderr.flush()


class ExecExtensions:
    """The runtime of one ``exec`` run (or nothing, with ``--no-extensions``)."""

    def __init__(self, runtime: ExtensionRuntime | None, bridge: SessionBridge | None) -> None:
        self.runtime = runtime
        self.bridge = bridge

    @classmethod
    async def create(cls, options: argparse.Namespace, session: Session) -> ExecExtensions:
        """Load extensions and attach them to ``session`` (before other subscribers)."""
        if getattr(options, "no_extensions", False):
            return cls(None, None)
        enabled = _enabled_builtins(options)
        if DENY_LIST in enabled:
            # Screens every shell request before the mode and the always-rules (--mode yolo
            # included), not only those left pending for the extensions.
            from desktop.core.extensions.builtin.shell_deny_list.screen import deny_list_screen

            session.approvals.screens.append((DENY_LIST, deny_list_screen))
        if _nothing_to_load(enabled, session.workspace):
            return cls(None, None)
        from desktop.core.extensions.runtime import create_runtime  # lazy: see _nothing_to_load

        runtime = create_runtime(session.workspace, enabled_builtins=enabled)
        report = await runtime.start()
        for failure in report.failures:
            sys.stderr.write(
                f"agentdesk: extension {failure.extension} not loaded ({failure.code}): "
                f"{failure.message}\n"
            )
        bridge = runtime.attach(session)
        bridge.on_transcript(_print_entry)
        return cls(runtime, bridge)

    def wrap(self, approver: Subscriber) -> Subscriber:
        """Let extensions decide a tool request before ``approver`` does."""
        return self.bridge.defer(approver) if self.bridge is not None else approver

    async def close(self, timeout: float = 120.0) -> None:
        """Wait for pending extension work (reviews), then stop the runtime."""
        if self.runtime is not None:
            await self.runtime.settle(timeout)
            await self.runtime.close()
