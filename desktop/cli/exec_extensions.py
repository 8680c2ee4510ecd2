"""Extensions for ``agentdesk exec``: loaded the same way as in the window.

``--enable-extension NAME`` switches on a built-in extension (repeatable); ``--no-extensions``
skips loading. Extension handlers see each tool request before ``--on-request`` or the terminal
prompt decide it, and posts of extensions into the conversation are printed to stderr. The
built-in ``shell_deny_list`` also screens every shell request before the mode and the rules.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from desktop.core.extensions.link import ExtensionLink, something_to_load

DENY_LIST = "shell_deny_list"

if TYPE_CHECKING:
    from desktop.core.conversation import Conversation
    from desktop.core.extensions.executor import TranscriptEntry
    from desktop.core.extensions.runtime import ExtensionRuntime
    from desktop.core.session import Subscriber


def _enabled_builtins(options: argparse.Namespace) -> list[str]:
    """Built-ins switched on in Settings (as the window loads them) plus ``--enable-extension``."""
    from desktop.core.settings import SettingsStore

    enabled = list(SettingsStore().settings.extensions.enabled_builtins)
    return enabled + [n for n in getattr(options, "enable_extensions", []) if n not in enabled]


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


def _always() -> bool:
    return True


class ExecExtensions:
    """The runtime of one ``exec`` run (or nothing, with ``--no-extensions``) and the
    conversation's link to it (``desktop.core.extensions.link``, as in the window)."""

    def __init__(self, runtime: ExtensionRuntime | None, link: ExtensionLink | None) -> None:
        self.runtime = runtime
        self.link = link

    @classmethod
    async def create(
        cls, options: argparse.Namespace, conversation: Conversation
    ) -> ExecExtensions:
        """Load extensions and connect ``conversation`` to them (before other subscribers)."""
        if getattr(options, "no_extensions", False):
            return cls(None, None)
        enabled = _enabled_builtins(options)
        # The deny list screens every shell request before the mode and the always-rules
        # (--mode yolo included), not only those left pending for the extensions.
        link = ExtensionLink(_print_entry, deny_list=_always if DENY_LIST in enabled else None)
        conversation.extend(link)
        session = conversation.session
        if not something_to_load(session.workspace, enabled):
            return cls(None, link)
        from desktop.core.extensions.runtime import create_runtime  # lazy: see something_to_load

        runtime = create_runtime(session.workspace, enabled_builtins=enabled)
        report = await runtime.start()
        for failure in report.failures:
            sys.stderr.write(
                f"agentdesk: extension {failure.extension} not loaded ({failure.code}): "
                f"{failure.message}\n"
            )
        link.connect(runtime)
        return cls(runtime, link)

    def wrap(self, approver: Subscriber) -> Subscriber:
        """Let extensions decide a tool request before ``approver`` does."""
        return self.link.defer(approver) if self.link is not None else approver

    async def close(self, timeout: float = 120.0) -> None:
        """Wait for pending extension work (reviews), then stop the runtime."""
        if self.runtime is not None:
            await self.runtime.settle(timeout)
            await self.runtime.close()
